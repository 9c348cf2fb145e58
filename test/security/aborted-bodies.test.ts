// Boundary: a body the client abandons (issue 40). A client that closes the connection half-way
// through its body, or resets it, costs one info line and counts as the client's abort (499
// `body_aborted`): no error line with a stack, no 500 in the metrics. Before, each one logged
// "unhandled error" at level error and counted a 500: a thousand lines in two seconds.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { uploader, type Uploader } from "../support/uploads.ts";
import { listen, type Listening } from "../../src/http/serve.ts";

setDefaultTimeout(30_000);

let t: TestApp;
let u: Uploader;
let server: Listening;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, authRateLimit: 0, reportRateLimit: 0 } });
  u = await uploader(t);
  server = listen(t.app, { host: "127.0.0.1", port: 0, graceMs: 100, log: t.log });
});
afterAll(async () => {
  await server.stop("test over");
  await t.close();
});

/**
 * Sends the request line, the headers and `head` of the body over a raw socket, then closes it
 * (`end`, a FIN) or resets it (`terminate`); resolves with the request id the log gives the request.
 */
async function abandon(path: string, headers: Record<string, string>, head: string, how: "end" | "terminate") {
  const before = t.log.lines.length;
  const lines = Object.entries({ host: "tally.test", "content-type": "application/json", ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const closed = Promise.withResolvers<void>();
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port: server.port,
    socket: { data() {}, close: () => closed.resolve(), error: () => closed.resolve() },
  });
  socket.write(`POST ${path} HTTP/1.1\r\n${lines}\r\n${head}`);
  // The service has the headers and the first bytes (its request line is logged once it answers).
  await Bun.sleep(50);
  socket[how]();
  await closed.promise;
  // Its one request line, written once the service has given up on the body.
  const answered = () => t.log.lines.slice(before).some((l) => l.msg === "request" && l.status === 499);
  for (let i = 0; i < 200 && !answered(); i++) await Bun.sleep(10);
  return t.log.lines.slice(before);
}

const half = `{"schema":1,"batchId":"${"a".repeat(32)}","filler":"${"x".repeat(1000)}`;

const cases: [string, string, Record<string, string>, "end" | "terminate"][] = [
  ["an upload, Content-Length and half the body, closed", "/v1/stats/ingest", { "content-length": "4000" }, "end"],
  ["an upload, chunked, reset", "/v1/stats/ingest", { "transfer-encoding": "chunked" }, "terminate"],
  ["a bug report, closed", "/v1/reports/general", { "content-length": "4000" }, "end"],
  ["a sign-in, reset", "/v1/auth/challenge", { "content-length": "4000" }, "terminate"],
];

describe("a body the client abandons", () => {
  test.each(cases)("%s: one info line, status 499, no error", async (_, path, headers, how) => {
    const auth: Record<string, string> = path === "/v1/stats/ingest" ? u.auth : {};
    const chunked = headers["transfer-encoding"] === "chunked";
    const head = chunked ? `${half.length.toString(16)}\r\n${half}\r\n` : half;
    const lines = await abandon(path, { ...headers, ...auth }, head, how);
    expect(lines.filter((l) => l.level === "error" || l.level === "warn")).toEqual([]);
    expect(lines.some((l) => JSON.stringify(l).includes("stack") || l.msg === "unhandled error")).toBe(false);
    const request = lines.filter((l) => l.msg === "request" && l.route !== "/v1/auth/dev" && l.method === "POST");
    expect(request).toHaveLength(1);
    expect(request[0]).toMatchObject({ level: "info", status: 499 });
  });

  test("fifty abandoned uploads: no error line, and the metrics count 499s, not 500s", async () => {
    const before = t.log.lines.length;
    for (let i = 0; i < 50; i++)
      await abandon("/v1/stats/ingest", { "content-length": "4000", ...u.auth }, half, i % 2 ? "end" : "terminate");
    const lines = t.log.lines.slice(before);
    expect(lines.filter((l) => l.level === "error")).toEqual([]);
    const counted = await t.metrics.requests.get();
    const ingest = (status: string) =>
      counted.values.find((v) => v.labels.route === "/v1/stats/ingest" && v.labels.status === status)?.value ?? 0;
    expect(ingest("500")).toBe(0);
    expect(ingest("499")).toBeGreaterThanOrEqual(50);
  });

  test("a whole body still answers as before: a client that waits is not counted as gone", async () => {
    const res = await fetch(`${server.url}/v1/stats/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", ...u.auth },
      body: "{}",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_body");
  });
});
