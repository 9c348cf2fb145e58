// Board pages and their JSON are public: each client address may ask PAGE_RATE_LIMIT_PER_MINUTE of
// them a minute (issue 35), then 429 rate_limited with Retry-After.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ settings: { pageRateLimit: 3 }, now: "2026-11-18T12:00:00Z" });
});
afterAll(() => t?.close());

test("a client asking boards past the limit is told to wait", async () => {
  const statuses: number[] = [];
  for (const path of ["/v1/boards/kills", "/boards/kills", "/v1/boards/floor-7", "/boards/kills", "/v1/boards/kills"])
    statuses.push((await t.request(path)).status);
  expect(statuses).toEqual([200, 200, 200, 429, 429]);
  const refused = await t.request("/v1/boards/kills");
  expect(refused.headers.get("retry-after")).not.toBeNull();
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
  // A minute later the window has passed.
  t.clock.advance(60_000);
  expect((await t.request("/v1/boards/kills")).status).toBe(200);
});
