// Every route that takes a JSON body refuses a hostile one with 400 invalid_body at its first fault:
// nested 100 000 deep (Elysia's own refusal stringified the whole body, pretty-printed, and
// overflowed the stack: a 500) or wide and wrong (millions of faults: only the first is described).
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { uploader, type Uploader } from "../support/uploads.ts";

setDefaultTimeout(30_000);

let t: TestApp;
let u: Uploader;
beforeEach(async () => {
  t = await testApp({ settings: { devSignin: true, authRateLimit: 0, reportRateLimit: 0 } });
  u = await uploader(t);
});
afterEach(() => t.close());

/** method, path, whether it needs the token, how deep a body fits under the route's caps. */
const routes: [string, string, boolean, number][] = [
  ["POST", "/v1/auth/challenge", false, 100_000],
  ["POST", "/v1/auth/verify", false, 100_000],
  ["POST", "/v1/auth/dev", false, 100_000],
  ["POST", "/v1/stats/ingest", true, 100_000],
  ["PATCH", "/v1/stats/settings", true, 100_000],
  ["POST", "/v1/stats/me/page-token", true, 100_000],
  ["POST", "/v1/stats/share/rotate", true, 100_000],
  // A bug report is capped at 64 KiB after gunzip.
  ["POST", "/v1/reports/general", false, 30_000],
];

const send = (method: string, path: string, auth: boolean, text: string) =>
  t.request(path, {
    method,
    body: Bun.gzipSync(text),
    headers: { "content-type": "application/json", "content-encoding": "gzip", ...(auth ? u.auth : {}) },
  });

test.each(routes)("%s %s refuses a body nested deep inside a field", async (method, path, auth, depth) => {
  const res = await send(method, path, auth, `{"schema":1,"x":${"[".repeat(depth)}${"]".repeat(depth)}}`);
  expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([400, "invalid_body"]);
});

test.each(routes)("%s %s refuses a root nested deep", async (method, path, auth, depth) => {
  const res = await send(method, path, auth, `${"[".repeat(depth)}${"]".repeat(depth)}`);
  expect(await res.json()).toEqual({ error: { code: "invalid_body", message: "/: Expected object", path: "/" } });
});

test("ingest refuses two million faulty rows by the first one", async () => {
  const rows = `[${Array(20_000).fill("{}").join(",")}]`;
  const blocks = Array(100).fill(`{"profileId":"${"1".repeat(32)}","scope":"day","day":"2026-06-01","rows":${rows}}`).join(",");
  const res = await send("POST", "/v1/stats/ingest", true, `{"schema":1,"counters":[${blocks}]}`);
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { path: string } }).error.path).toBe("/batchId");
});
