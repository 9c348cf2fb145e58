// Development sign-in (absent unless DEV_SIGNIN=true) and the sign-in rate limit, shared through
// the database by every instance.
import { afterEach, describe, expect, test, afterAll, beforeAll } from "bun:test";
import { emptyTables, testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { createApp } from "../../src/app.ts";
import { alice } from "../support/players.ts";

// One database for the file, emptied after each test: every test starts from a service as new,
// without paying for a new database each time (test/support/db.ts, emptyTables).
let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

const opened: TestApp[] = [];
const open = async (settings: Parameters<typeof testApp>[0]) => {
  const t = await testApp({ ...settings, database });
  opened.push(t);
  return t;
};
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
  await emptyTables(database.db);
});

const dev = (t: TestApp, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.postJson("/v1/auth/dev", body, { headers });

describe("POST /v1/auth/dev", () => {
  test("does not exist unless DEV_SIGNIN=true: 404 exactly like an unknown route", async () => {
    const t = await open({ settings: { devSignin: false } });
    const res = await dev(t, { uuid: alice.uuid, name: alice.name, zone: "UTC" });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe(await (await t.postJson("/v1/auth/nothing-here", {})).text());
    const spec = (await (await t.request("/v1/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths)).not.toContain("/v1/auth/dev");
  });

  test("with DEV_SIGNIN=true signs in as the uuid given, without the identity provider", async () => {
    const t = await open({ settings: { devSignin: true } });
    const res = await dev(t, { uuid: alice.uuid, name: alice.name, zone: "Asia/Tokyo" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { token: string; uuid: string };
    expect(body.uuid).toBe(alice.uuid);
    const session = await t.request("/v1/auth/session", { headers: { authorization: `Bearer ${body.token}` } });
    expect(await session.json()).toMatchObject({ uuid: alice.uuid, zone: "Asia/Tokyo" });
  });

  test("still checks its body: a dashed uuid or an unknown zone is refused", async () => {
    const t = await open({ settings: { devSignin: true } });
    expect((await dev(t, { uuid: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", name: alice.name, zone: "UTC" })).status).toBe(
      400,
    );
    expect((await dev(t, { uuid: alice.uuid, name: alice.name, zone: "Nowhere/Town" })).status).toBe(422);
  });
});

describe("the sign-in rate limit", () => {
  test("refuses a client over the limit with 429 and Retry-After until the next minute; other clients go on", async () => {
    const t = await open({ settings: { authRateLimit: 3, trustProxy: true }, now: "2026-06-01T12:00:20Z" });
    const from = (address: string) => ({ "x-forwarded-for": `203.0.113.9, ${address}` });
    for (let i = 0; i < 3; i++)
      expect((await t.postJson("/v1/auth/challenge", {}, { headers: from("198.51.100.1") })).status).toBe(200);
    const refused = await t.postJson("/v1/auth/challenge", {}, { headers: from("198.51.100.1") });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("40");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // verify counts too, even with a body that would be refused
    expect((await t.postJson("/v1/auth/verify", { nonsense: true }, { headers: from("198.51.100.1") })).status).toBe(
      429,
    );
    expect((await t.postJson("/v1/auth/challenge", {}, { headers: from("198.51.100.2") })).status).toBe(200);
    t.clock.advance(40_000);
    expect((await t.postJson("/v1/auth/challenge", {}, { headers: from("198.51.100.1") })).status).toBe(200);
  });

  test("is shared by every instance on the same database", async () => {
    const t = await open({ settings: { authRateLimit: 2, trustProxy: true } });
    const second = createApp({ ...t, fetch: t.fetch });
    const post = (app: { handle(r: Request): Promise<Response> }) =>
      app.handle(
        new Request("http://localhost/v1/auth/challenge", {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.7" },
          body: "{}",
        }),
      );
    expect((await post(t.app)).status).toBe(200);
    expect((await post(second)).status).toBe(200);
    expect((await post(t.app)).status).toBe(429);
    expect((await post(second)).status).toBe(429);
  });

  test("without TRUST_PROXY a forged X-Forwarded-For does not give a fresh allowance", async () => {
    const t = await open({ settings: { authRateLimit: 1, trustProxy: false } });
    expect((await t.postJson("/v1/auth/challenge", {}, { headers: { "x-forwarded-for": "10.0.0.1" } })).status).toBe(
      200,
    );
    expect((await t.postJson("/v1/auth/challenge", {}, { headers: { "x-forwarded-for": "10.0.0.2" } })).status).toBe(
      429,
    );
  });
});
