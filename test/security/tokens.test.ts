// Boundary: a personal access token (issue 37) only reads. Whatever scopes it holds, it cannot
// write counters, mint a device session or a page link, change settings, or make, list or revoke
// tokens; and the database holds its SHA-256 only, so a copy of the database signs nobody in.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, type Uploader } from "../support/uploads.ts";
import { storedState } from "../support/stored.ts";
import { codeOf, makeToken, type Made } from "../tokens/support.ts";

let t: TestApp;
let p: Uploader;
let token: Made;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-06-01T12:00:00Z" });
  p = await uploader(t, { name: "Careful", zone: "UTC" });
  token = await makeToken(t, p.auth, { label: "everything", scopes: ["stats:read", "page:read", "export"] });
});
afterAll(() => t.close());

const counters = [
  { profileId: PROFILE, scope: "day" as const, day: "2026-06-01", rows: [{ k: "mining.blocks.stone", v: 5 }] },
];

test("a token cannot upload: 403 token_not_accepted and nothing is stored", async () => {
  const before = await storedState(t.db, p.uuid);
  const res = await t.postJson("/v1/stats/ingest", envelope(t, { zone: { id: "UTC" }, counters }), {
    headers: token.auth,
  });
  expect(res.status).toBe(403);
  expect(await codeOf(res)).toBe("token_not_accepted");
  expect(await storedState(t.db, p.uuid)).toEqual(before);
});

test("a token cannot change settings, erase, or mint a page link or share link", async () => {
  for (const [method, path] of [
    ["PATCH", "/v1/stats/settings"],
    ["POST", "/v1/stats/me/page-token"],
    ["POST", "/v1/stats/share/rotate"],
    ["DELETE", "/v1/stats/data"],
    ["DELETE", "/v1/stats/account"],
  ] as const) {
    const res = await t.request(path, {
      method,
      headers: { ...token.auth, "content-type": "application/json" },
      body: method === "DELETE" ? undefined : JSON.stringify({ settingsVersion: 1, zone: "Asia/Tokyo" }),
    });
    expect({ path, status: res.status, code: await codeOf(res) }).toEqual({
      path,
      status: 403,
      code: "token_not_accepted",
    });
  }
  const settings = (await (await t.request("/v1/stats/settings", { headers: p.auth })).json()) as { zone: string };
  expect(settings.zone).toBe("UTC");
});

test("a token cannot see or end device sessions, and holding one signs in no device", async () => {
  const before = (await (await t.request("/v1/auth/sessions", { headers: p.auth })).json()) as { sessions: unknown[] };
  for (const [method, path] of [
    ["GET", "/v1/auth/session"],
    ["GET", "/v1/auth/sessions"],
    ["DELETE", "/v1/auth/sessions"],
  ] as const) {
    const res = await t.request(path, { method, headers: token.auth });
    expect({ path, status: res.status }).toEqual({ path, status: 403 });
  }
  const after = (await (await t.request("/v1/auth/sessions", { headers: p.auth })).json()) as { sessions: unknown[] };
  expect(after.sessions).toEqual(before.sessions);
});

test("a token cannot make, list or revoke tokens (its own included)", async () => {
  const made = await t.postJson("/v1/stats/tokens", { label: "child", scopes: ["export"] }, { headers: token.auth });
  expect(made.status).toBe(403);
  for (const [method, path] of [
    ["GET", "/v1/stats/tokens"],
    ["DELETE", "/v1/stats/tokens"],
    ["DELETE", `/v1/stats/tokens/${token.id}`],
  ] as const) {
    const res = await t.request(path, { method, headers: token.auth });
    expect({ path, status: res.status, code: await codeOf(res) }).toEqual({
      path,
      status: 403,
      code: "token_not_accepted",
    });
  }
  const list = (await (await t.request("/v1/stats/tokens", { headers: p.auth })).json()) as {
    tokens: { id: string }[];
  };
  expect(list.tokens.map((x) => x.id)).toEqual([token.id]);
  expect((await t.request("/v1/stats/profiles", { headers: token.auth })).status).toBe(200);
});

test("the database holds the token's SHA-256 only: no column of any row carries the secret", async () => {
  const rows = (await t.db.execute(sql`select * from access_tokens`)) as unknown as
    | { rows: Record<string, unknown>[] }
    | Record<string, unknown>[];
  const list = Array.isArray(rows) ? rows : rows.rows;
  expect(list).toHaveLength(1);
  const text = JSON.stringify(list);
  expect(text).not.toContain(token.token);
  expect(text).not.toContain(token.token.slice(4));
  expect(list[0]!.token_hash).toBe(new Bun.CryptoHasher("sha256").update(token.token).digest("hex"));
});

test("a token with the prefix that nobody was given is 401, and a device-session token is never taken for one", async () => {
  const guess = `tly_${"A".repeat(43)}`;
  const res = await t.request("/v1/stats/profiles", { headers: { authorization: `Bearer ${guess}` } });
  expect(res.status).toBe(401);
  expect(res.headers.get("ratelimit-limit")).toBeNull();
  // The session's token works on the reads as ever, without a token's rate-limit headers.
  const own = await t.request("/v1/stats/profiles", { headers: p.auth });
  expect(own.status).toBe(200);
  expect(own.headers.get("ratelimit-limit")).toBeNull();
});
