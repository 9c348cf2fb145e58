// Boundary: the operator tokens (issue 40, finding 2). Bearer guesses against /v1/admin/* and
// /metrics ran at ~5 000 a second without limit, and `ADMIN_TOKEN=abc` passed check-config. Now a
// wrong token (bearer or the /admin/login form) counts against its address (IPv4, IPv6 /64; a row
// shared by every instance): past OPERATOR_FAILURES_PER_MINUTE, every attempt from there is
// answered 429 rate_limited with Retry-After, untried, until the minute ends, while the right token
// from any other address works as before. Tokens shorter than 32 characters stop start-up.
import { afterEach, describe, expect, test, afterAll, beforeAll } from "bun:test";
import { emptyTables, testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
import { testApp, type TestApp, type TestAppOptions } from "../support/app.ts";
import { createApp } from "../../src/app.ts";
import { main } from "../../src/main.ts";
import { ConfigError, envFor, loadConfig } from "../../src/config.ts";
import { sql } from "drizzle-orm";
import { rows } from "../../src/db/database.ts";

const ADMIN = "admin-guesses-token-0c9b8a7f6e5d4c3b2a19";
const METRICS = "metrics-guesses-token-1d2c3b4a5f6e7d8c9b0a";
const LIMIT = 5;

// One database for the file, emptied after each test: every test starts from a service as new,
// without paying for a new database each time (test/support/db.ts, emptyTables).
let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
  await emptyTables(database.db);
});

async function open(settings: TestAppOptions["settings"] = {}) {
  const t = await testApp({
    database,
    settings: {
      adminToken: ADMIN,
      metricsEnabled: true,
      metricsToken: METRICS,
      operatorFailures: LIMIT,
      trustProxy: true,
      ...settings,
    },
    now: "2026-06-01T12:00:15Z",
  });
  opened.push(t);
  return t;
}

const from = (address: string, token?: string) => ({
  "x-forwarded-for": `203.0.113.9, ${address}`,
  ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
});
const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe("wrong operator tokens", () => {
  test("past the limit an address gets 429 with Retry-After, even for the right token; other addresses are not slowed", async () => {
    const t = await open();
    const guesser = "198.51.100.1";
    for (let i = 0; i < LIMIT; i++) {
      const res = await t.request("/v1/admin/reports", { headers: from(guesser, `guess-${i}`) });
      expect(res.status).toBe(401);
    }
    const refused = await t.request("/v1/admin/reports", { headers: from(guesser, "guess-next") });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("45");
    expect(await codeOf(refused)).toBe("rate_limited");
    // A guess past the limit is not tried: had it been right, the answer would be the same 429.
    expect((await t.request("/v1/admin/reports", { headers: from(guesser, ADMIN) })).status).toBe(429);
    // The right token from elsewhere, meanwhile: served at once, as often as it likes.
    for (let i = 0; i < LIMIT * 3; i++)
      expect((await t.request("/v1/admin/reports", { headers: from("192.0.2.44", ADMIN) })).status).toBe(200);
    // The next minute, the guesser's address may try again.
    t.clock.advance(45_000);
    expect((await t.request("/v1/admin/reports", { headers: from(guesser, ADMIN) })).status).toBe(200);
  });

  test("a flood past the limit costs the database nothing: refused attempts are not counted again", async () => {
    const t = await open();
    const guesser = "198.51.100.7";
    const counted = async () =>
      Number(
        (
          await rows<{ n: number }>(
            t.db,
            sql`select coalesce(sum(count), 0)::int as n from rate_limits where bucket like 'operator_auth:%'`,
          )
        )[0]!.n,
      );
    for (let i = 0; i <= LIMIT; i++) await t.request("/metrics", { headers: from(guesser, `g-${i}`) });
    const atRefusal = await counted();
    expect(atRefusal).toBe(LIMIT + 1);
    for (let i = 0; i < 200; i++) {
      const res = await t.request("/metrics", { headers: from(guesser, `flood-${i}`) });
      expect(res.status).toBe(429);
    }
    expect(await counted()).toBe(atRefusal);
    // The refusal ends with its window, as the database's count would say.
    t.clock.advance(45_000);
    expect((await t.request("/metrics", { headers: from(guesser, METRICS) })).status).toBe(200);
  });

  test("one count per address over /metrics, /v1/admin/backup, /v1/admin/reports and the sign-in form", async () => {
    const t = await open();
    const guesser = "198.51.100.2";
    expect((await t.request("/metrics", { headers: from(guesser, "m1") })).status).toBe(401);
    expect((await t.request("/v1/admin/backup", { headers: from(guesser, "b1") })).status).toBe(401);
    expect((await t.request("/v1/admin/reports/1", { headers: from(guesser, "r1") })).status).toBe(401);
    const action = await t.postJson("/v1/admin/reports/1/mute", {}, { headers: from(guesser, "a1") });
    expect(action.status).toBe(401);
    const form = (token: string) =>
      t.request("/admin/login", {
        method: "POST",
        headers: { ...from(guesser), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token }).toString(),
      });
    expect((await form("f1")).status).toBe(401);
    // Five wrong in all: every door is shut for this address now.
    expect((await t.request("/metrics", { headers: from(guesser, METRICS) })).status).toBe(429);
    expect((await t.request("/v1/admin/backup", { headers: from(guesser, ADMIN) })).status).toBe(429);
    expect((await t.request("/v1/admin/reports", { headers: from(guesser, ADMIN) })).status).toBe(429);
    expect((await form(ADMIN)).status).toBe(429);
    // The right tokens from another address still work.
    expect((await t.request("/metrics", { headers: from("192.0.2.45", METRICS) })).status).toBe(200);
    const signedIn = await t.request("/admin/login", {
      method: "POST",
      headers: { ...from("192.0.2.45"), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: ADMIN }).toString(),
    });
    expect(signedIn.status).toBe(303);
  });

  test("the right token is never counted: an operator's own requests do not use up the allowance", async () => {
    const t = await open();
    const operator = "192.0.2.46";
    for (let i = 0; i < LIMIT * 4; i++)
      expect((await t.request("/metrics", { headers: from(operator, METRICS) })).status).toBe(200);
    for (let i = 0; i < LIMIT - 1; i++)
      expect((await t.request("/metrics", { headers: from(operator, "typo") })).status).toBe(401);
    expect((await t.request("/metrics", { headers: from(operator, METRICS) })).status).toBe(200);
  });

  test("no Authorization header guesses nothing: 401, never counted", async () => {
    const t = await open();
    for (let i = 0; i < LIMIT * 2; i++)
      expect((await t.request("/v1/admin/reports", { headers: from("198.51.100.3") })).status).toBe(401);
    expect((await t.request("/v1/admin/reports", { headers: from("198.51.100.3", ADMIN) })).status).toBe(200);
  });

  test("concurrent guesses cannot slip in under the count: at most the limit of them are tried", async () => {
    const t = await open();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.request("/v1/admin/reports", { headers: from("198.51.100.4", `g${i}`) })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBe(LIMIT);
    expect(statuses.filter((s) => s === 429).length).toBe(40 - LIMIT);
  });

  test("an IPv6 client counts by its /64, and every instance shares the count", async () => {
    const t = await open();
    const second = createApp({ ...t, fetch: t.fetch });
    const guess = (app: { handle(r: Request): Promise<Response> }, address: string) =>
      app.handle(new Request("http://localhost/metrics", { headers: from(address, "wrong") }));
    for (let i = 1; i <= LIMIT; i++)
      expect((await guess(i % 2 ? t.app : second, `2001:db8:5:6::${i.toString(16)}`)).status).toBe(401);
    expect((await guess(second, "2001:db8:5:6:ffff::1")).status).toBe(429);
    expect((await guess(t.app, "2001:db8:5:6::99")).status).toBe(429);
    expect((await guess(t.app, "2001:db8:5:7::1")).status).toBe(401);
  });
});

describe("operator tokens shorter than 32 characters", () => {
  test("stop start-up, and check-config, with a message saying so", async () => {
    for (const env of [{ ADMIN_TOKEN: "abc" }, { METRICS_TOKEN: "x".repeat(31) }]) {
      let err = "";
      const code = await main(["check-config"], { env, out: () => {}, err: (s) => (err += s) });
      expect(code).toBe(2);
      const name = Object.keys(env)[0]!;
      expect(err).toContain(`${name}=(value hidden): expected empty or text of 32 to 256 characters`);
      expect(err).toContain("openssl rand -base64 32");
      expect(err).not.toContain(Object.values(env)[0]!);
    }
    expect(() => loadConfig(envFor({ adminToken: "abc" }))).toThrow(ConfigError);
    expect(loadConfig(envFor({ adminToken: ADMIN, metricsToken: "" })).adminToken).toBe(ADMIN);
  });
});
