// A personal access token's life: made (shown once), listed, used by the read routes with its rate
// limit counted down in headers, refused past it, expired by the clock, revoked singly, all at once,
// by signing out everywhere and by erasure.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, type Uploader } from "../support/uploads.ts";
import { codeOf, makeToken } from "./support.ts";

let t: TestApp;
let p: Uploader;
beforeAll(async () => {
  t = await testApp({
    settings: { devSignin: true, tokenRateLimit: 3, tokensMaxPerAccount: 3, tokenMaxDays: 30 },
    now: "2026-06-01T12:00:00Z",
  });
  p = await uploader(t, { name: "Owner", zone: "UTC" });
  const counters = [
    { profileId: PROFILE, scope: "day" as const, day: "2026-06-01", rows: [{ k: "mining.blocks.stone", v: 5 }] },
  ];
  expect((await p.send(envelope(t, { zone: { id: "UTC" }, counters }))).status).toBe(200);
});
afterAll(() => t.close());
// Each test starts with no token on the owner's account (TOKENS_MAX_PER_ACCOUNT is 3 here).
afterEach(() => del("/v1/stats/tokens", p.auth));

const get = (path: string, auth?: { authorization: string }) => t.request(path, { headers: auth });
const del = (path: string, auth: { authorization: string }) => t.request(path, { method: "DELETE", headers: auth });
type Listed = {
  id: string;
  label: string;
  scopes: string[];
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
};
const listed = async (auth = p.auth) =>
  ((await (await get("/v1/stats/tokens", auth)).json()) as { tokens: Listed[]; maxTokens: number }).tokens;
const nextWindow = () => t.clock.advance(60_000 - (t.clock.now() % 60_000));

describe("making and listing", () => {
  test("the secret is answered once, with the tly_ prefix; the list has label, scopes and times but never the secret", async () => {
    const made = await makeToken(t, p.auth, { label: "  Stream overlay ", scopes: ["stats:read", "export"] });
    expect(made.token).toMatch(/^tly_[A-Za-z0-9_-]{43}$/);
    expect(made.scopes).toEqual(["export", "stats:read"]);
    expect(made.expiresAt).toBe(t.clock.now() + 30 * 86_400_000);
    const list = await listed();
    const mine = list.find((x) => x.id === made.id)!;
    expect(mine).toEqual({
      id: made.id,
      label: "Stream overlay",
      scopes: ["export", "stats:read"],
      createdAt: t.clock.now(),
      lastUsedAt: null,
      expiresAt: made.expiresAt,
    });
    expect(JSON.stringify(list)).not.toContain(made.token);
    await del(`/v1/stats/tokens/${made.id}`, p.auth);
  });

  test("a label with a player name's shape is refused denylisted_string at /label, and nothing is stored", async () => {
    const res = await t.postJson(
      "/v1/stats/tokens",
      { label: "[MVP+] Steve", scopes: ["stats:read"] },
      { headers: p.auth },
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { code: "denylisted_string", path: "/label" } });
    expect(await listed()).toEqual([]);
  });

  test.each([
    ["a label over 64 characters", { label: "x".repeat(65), scopes: ["stats:read"] }],
    ["a control character in the label", { label: "bot\u0007", scopes: ["stats:read"] }],
    ["no scope", { label: "bot", scopes: [] }],
    ["an unknown scope", { label: "bot", scopes: ["stats:write"] }],
  ])("%s is refused invalid_body", async (_what, body) => {
    const res = await t.postJson("/v1/stats/tokens", body, { headers: p.auth });
    expect(res.status).toBe(400);
    expect(await codeOf(res)).toBe("invalid_body");
  });

  test("an expiry past TOKEN_MAX_DAYS is refused invalid_expiry; at most TOKENS_MAX_PER_ACCOUNT tokens", async () => {
    const far = await t.postJson(
      "/v1/stats/tokens",
      { label: "bot", scopes: ["export"], expiresInDays: 31 },
      { headers: p.auth },
    );
    expect(far.status).toBe(422);
    expect(await codeOf(far)).toBe("invalid_expiry");
    for (let i = 0; i < 3; i++) await makeToken(t, p.auth, { label: `bot ${i}`, scopes: ["export"], expiresInDays: 1 });
    const fourth = await t.postJson("/v1/stats/tokens", { label: "bot 4", scopes: ["export"] }, { headers: p.auth });
    expect(fourth.status).toBe(422);
    expect(await codeOf(fourth)).toBe("too_many_tokens");
    // Expired tokens make room: a day later the three are gone from the list and the count.
    t.clock.advance(86_400_000);
    expect(await listed()).toEqual([]);
    const again = await makeToken(t, p.auth, { label: "bot 5", scopes: ["export"] });
    expect((await del("/v1/stats/tokens", p.auth)).status).toBe(200);
    expect(await listed()).not.toContainEqual(expect.objectContaining({ id: again.id }));
  });
});

test("tokens made at once never pass the cap (TOKENS_MAX_PER_ACCOUNT), on either database", async () => {
  // Eight creations in flight together: each counts the account's tokens and inserts in its own
  // transaction, so without a lock several counted two and each made the third.
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      t.postJson("/v1/stats/tokens", { label: `racer ${i}`, scopes: ["export"] }, { headers: p.auth }),
    ),
  );
  const statuses = answers.map((r) => r.status).sort();
  expect(statuses).toEqual([200, 200, 200, 422, 422, 422, 422, 422]);
  for (const r of answers.filter((r) => r.status === 422)) expect(await codeOf(r)).toBe("too_many_tokens");
  expect((await listed()).length).toBe(3);
});

describe("using a token", () => {
  test("rate-limit headers count down per token, then 429 rate_limited with Retry-After, until the next window", async () => {
    nextWindow();
    const made = await makeToken(t, p.auth, { scopes: ["stats:read"] });
    const seen: (string | null)[][] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get(`/v1/stats/totals?profile=${PROFILE}`, made.auth);
      expect(res.status).toBe(200);
      seen.push(["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((h) => res.headers.get(h)));
      t.clock.advance(10_000);
    }
    expect(seen).toEqual([
      ["3", "2", "60"],
      ["3", "1", "50"],
      ["3", "0", "40"],
    ]);
    const over = await get(`/v1/stats/totals?profile=${PROFILE}`, made.auth);
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("30");
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    expect(await codeOf(over)).toBe("rate_limited");
    // A device session of the same account is not counted against the token.
    expect((await get(`/v1/stats/totals?profile=${PROFILE}`, p.auth)).headers.get("ratelimit-limit")).toBeNull();
    t.clock.advance(30_000);
    const next = await get(`/v1/stats/totals?profile=${PROFILE}`, made.auth);
    expect(next.status).toBe(200);
    expect(next.headers.get("ratelimit-remaining")).toBe("2");
  });

  test("a refusal to a token (scope missing) carries the rate-limit headers too", async () => {
    nextWindow();
    const made = await makeToken(t, p.auth, { scopes: ["page:read"] });
    const res = await get("/v1/stats/export", made.auth);
    expect(res.status).toBe(403);
    expect(await codeOf(res)).toBe("missing_scope");
    expect(res.headers.get("ratelimit-remaining")).toBe("2");
  });

  test("last use is kept to the minute", async () => {
    nextWindow();
    const made = await makeToken(t, p.auth, { scopes: ["stats:read"] });
    const first = t.clock.now();
    await get("/v1/stats/profiles", made.auth);
    t.clock.advance(30_000);
    await get("/v1/stats/profiles", made.auth);
    expect((await listed()).find((x) => x.id === made.id)!.lastUsedAt).toBe(first);
    t.clock.advance(30_000);
    await get("/v1/stats/profiles", made.auth);
    expect((await listed()).find((x) => x.id === made.id)!.lastUsedAt).toBe(first + 60_000);
  });

  test("the export takes a token with the export scope", async () => {
    nextWindow();
    const made = await makeToken(t, p.auth, { scopes: ["export"] });
    const json = await get("/v1/stats/export", made.auth);
    expect(json.status).toBe(200);
    expect(json.headers.get("ratelimit-limit")).toBe("3");
    expect(((await json.json()) as { account: { uuid: string } }).account.uuid).toBe(p.uuid);
    const csv = await get("/v1/stats/export.csv", made.auth);
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain("mining");
  });
});

describe("the end of a token", () => {
  test("revocation is immediate: the next request is 401", async () => {
    nextWindow();
    const made = await makeToken(t, p.auth, { scopes: ["stats:read"] });
    expect((await get("/v1/stats/profiles", made.auth)).status).toBe(200);
    expect(await (await del(`/v1/stats/tokens/${made.id}`, p.auth)).json()).toEqual({ revoked: 1 });
    const after = await get("/v1/stats/profiles", made.auth);
    expect(after.status).toBe(401);
    expect(await codeOf(after)).toBe("unauthorized");
    expect((await del(`/v1/stats/tokens/${made.id}`, p.auth)).status).toBe(404);
  });

  test("a token expires by the clock", async () => {
    nextWindow();
    const made = await makeToken(t, p.auth, { scopes: ["stats:read"], expiresInDays: 2 });
    t.clock.advance(2 * 86_400_000 - 1);
    expect((await get("/v1/stats/profiles", made.auth)).status).toBe(200);
    t.clock.advance(1);
    expect((await get("/v1/stats/profiles", made.auth)).status).toBe(401);
    expect(await listed()).not.toContainEqual(expect.objectContaining({ id: made.id }));
  });

  test("revoking all answers how many; each is refused at once", async () => {
    nextWindow();
    const a = await makeToken(t, p.auth, { scopes: ["stats:read"] });
    const b = await makeToken(t, p.auth, { scopes: ["export"] });
    expect(await (await del("/v1/stats/tokens", p.auth)).json()).toEqual({ revoked: 2 });
    expect((await get("/v1/stats/profiles", a.auth)).status).toBe(401);
    expect((await get("/v1/stats/export.csv", b.auth)).status).toBe(401);
  });

  test("another account's token id is answered like one that does not exist", async () => {
    const other = await uploader(t, { name: "Other", zone: "UTC" });
    const mine = await makeToken(t, p.auth, { scopes: ["stats:read"] });
    expect((await del(`/v1/stats/tokens/${mine.id}`, other.auth)).status).toBe(404);
    expect((await get("/v1/stats/profiles", mine.auth)).status).toBe(200);
    await del("/v1/stats/tokens", p.auth);
  });

  test("signing out everywhere revokes every token", async () => {
    const u = await uploader(t, { name: "Leaver", zone: "UTC" });
    const made = await makeToken(t, u.auth, { scopes: ["stats:read"] });
    expect((await get("/v1/stats/profiles", made.auth)).status).toBe(200);
    expect((await del("/v1/auth/sessions", u.auth)).status).toBe(200);
    expect((await get("/v1/stats/profiles", made.auth)).status).toBe(401);
  });

  test("erasing the account revokes its tokens and counts them among the rows removed", async () => {
    const u = await uploader(t, { name: "Eraser", zone: "UTC" });
    const made = await makeToken(t, u.auth, { scopes: ["stats:read"] });
    await makeToken(t, u.auth, { scopes: ["export"] });
    const res = await del("/v1/stats/account", u.auth);
    const body = (await res.json()) as { removed: Record<string, number> };
    expect(body.removed.accessTokens).toBe(2);
    expect((await get("/v1/stats/profiles", made.auth)).status).toBe(401);
  });
});

test("the export lists the account's tokens (label, scopes, times), never a secret or a hash", async () => {
  const made = await makeToken(t, p.auth, { label: "Overlay", scopes: ["page:read"] });
  const doc = (await (await get("/v1/stats/export", p.auth)).json()) as { accessTokens: Record<string, unknown>[] };
  expect(doc.accessTokens).toEqual([
    {
      id: made.id,
      label: "Overlay",
      scopes: "page:read",
      createdAt: t.clock.now(),
      lastUsedAt: null,
      expiresAt: made.expiresAt,
    },
  ]);
});
