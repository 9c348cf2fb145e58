// The one call ladder (src/upstream/call.ts) against a local server answering the ways the real
// upstreams do: a 200, the "absent" statuses, a 429 with Retry-After, the gateway's HTML 403 (a
// recorded page), HTML where JSON was due, a body that is not JSON, a body over the cap, a body
// that stalls, a redirect.
import { afterAll, describe, expect, test } from "bun:test";
import { callFor, getBytes, getJson, type CallSpec } from "../../src/upstream/call.ts";
import { UpstreamError } from "../../src/upstream/upstream-error.ts";
import { fakeUpstream, json } from "../support/upstream.ts";
import { gateway403Html, recordedName, tooManyRequests } from "../support/recorded.ts";

const html = (status: number) => new Response(gateway403Html(), { status, headers: { "content-type": "text/html" } });
const server = fakeUpstream({
  "GET /ok": () => json(recordedName()),
  "GET /gone": () => json({ path: "/gone", errorMessage: "Couldn't find any profile with name gone" }, 404),
  "GET /empty": () => new Response(null, { status: 204 }),
  "GET /throttled": () =>
    new Response(tooManyRequests(), {
      status: 429,
      headers: { "content-type": "application/json", "retry-after": "42" },
    }),
  "GET /gateway403": () => html(403),
  "GET /html200": () => html(200),
  "GET /html-as-json": () =>
    new Response(gateway403Html(), { status: 200, headers: { "content-type": "application/json" } }),
  "GET /broken": () => new Response("{ id: ", { status: 200, headers: { "content-type": "application/json" } }),
  "GET /big": () => json({ pad: "x".repeat(10_000) }),
  "GET /stream-big": () =>
    new Response(
      new ReadableStream({
        pull(c) {
          c.enqueue(new Uint8Array(4096).fill(0x20));
        },
      }),
      { headers: { "content-type": "application/json" } },
    ),
  "GET /stall": () =>
    new Response(
      new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"id":'));
        },
      }),
      { headers: { "content-type": "application/json" } },
    ),
  "GET /error500": () => new Response("Internal Server Error", { status: 500 }),
  "GET /redirect": () => new Response(null, { status: 302, headers: { location: "http://127.0.0.1:1/elsewhere" } }),
});
afterAll(() => server.stop());

const spec = (path: string, over: Partial<CallSpec> = {}): CallSpec => ({
  fetch,
  upstream: "test service",
  url: `${server.url}${path}`,
  timeoutMs: 300,
  absent: [404, 204],
  gatewayThrottles: true,
  ...over,
});

async function failure(p: Promise<unknown>): Promise<UpstreamError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof UpstreamError) return e;
    throw e;
  }
  throw new Error("expected an UpstreamError");
}

describe("the ladder", () => {
  test("a 200 answers its parsed body", async () => {
    expect(await getJson(spec("/ok"))).toEqual({ body: { id: "069a79f444e94726a5befca90e38aaf5", name: "Notch" } });
  });

  test("the statuses the client names as absent answer null, whatever the body", async () => {
    expect(await getJson(spec("/gone"))).toBeNull();
    expect(await getJson(spec("/empty"))).toBeNull();
    expect(await getBytes(spec("/gone"), 1000)).toBeNull();
  });

  test("a 429 is throttling, with the Retry-After it sent", async () => {
    const e = await failure(getJson(spec("/throttled")));
    expect([e.reason, e.status, e.waitMs]).toEqual(["throttled", 429, 42_000]);
  });

  test("behind a gateway, its HTML 403 and any HTML page are throttling too", async () => {
    for (const path of ["/gateway403", "/html200", "/html-as-json"]) {
      const e = await failure(getJson(spec(path)));
      expect([path, e.reason]).toEqual([path, "throttled"]);
    }
    expect((await failure(getBytes(spec("/html200"), 10_000))).reason).toBe("throttled");
  });

  test("for an upstream that is not behind such a gateway, a 403 is just a status", async () => {
    const e = await failure(getJson(spec("/gateway403", { gatewayThrottles: false })));
    expect([e.reason, e.status]).toEqual(["status", 403]);
  });

  test("another status is an error naming it; a redirect is never followed", async () => {
    expect(await failure(getJson(spec("/error500")))).toMatchObject({ reason: "status", status: 500 });
    expect(await failure(getJson(spec("/redirect")))).toMatchObject({ reason: "status", status: 302 });
  });

  test("a body that is not JSON is malformed", async () => {
    expect((await failure(getJson(spec("/broken")))).reason).toBe("malformed");
  });

  test("a body over the cap is refused, whether it says so (Content-Length) or streams on", async () => {
    expect((await failure(getJson(spec("/big"), 1000))).reason).toBe("malformed");
    expect((await failure(getJson(spec("/stream-big"), 64 * 1024))).reason).toBe("malformed");
  });

  test("a body that stops coming is a timeout, not a hang", async () => {
    expect((await failure(getJson(spec("/stall")))).reason).toBe("timeout");
  });

  test("an upstream nobody answers at is a network error; one too slow to answer, a timeout", async () => {
    expect((await failure(callFor(spec("", { url: "http://127.0.0.1:1/x" })))).reason).toBe("network");
    const silent = fakeUpstream({ "GET /": () => new Promise<Response>(() => {}) });
    try {
      expect((await failure(callFor(spec("", { url: `${silent.url}/` })))).reason).toBe("timeout");
    } finally {
      silent.stop();
    }
  });
});
