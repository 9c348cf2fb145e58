// The account check (contract 5) against a fake identity provider that answers like the real one.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testApp, loopbackFetch, type TestApp } from "../support/app.ts";
import { fakeIdentity } from "../support/fakes/identity.ts";
import { alice, bob, signIn } from "../support/players.ts";
import { rows } from "../../src/db/database.ts";

const identity = fakeIdentity([alice, bob]);
let t: TestApp;
beforeAll(async () => {
  t = await testApp({
    fetch: loopbackFetch,
    settings: { identityUrl: identity.url, upstreamTimeoutMs: 300, challengeTtlMs: 60_000, authRateLimit: 0 },
  });
});
afterAll(async () => {
  await t.close();
  identity.stop();
});
beforeEach(() => {
  identity.state.failure = "none";
});

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string; path?: string } }).error;
const challenge = async () =>
  (await (await t.postJson("/v1/auth/challenge", {})).json()) as { serverId: string; expiresAt: number };
const verify = (body: Record<string, unknown>) => t.postJson("/v1/auth/verify", body);

describe("POST /v1/auth/challenge", () => {
  test("answers a fresh 40-hex serverId that expires after the configured time", async () => {
    const a = await challenge();
    const b = await challenge();
    expect(a.serverId).toMatch(/^[0-9a-f]{40}$/);
    expect(a.serverId).not.toBe(b.serverId);
    expect(a.expiresAt).toBe(t.clock.now() + 60_000);
  });

  test("takes an empty object or no body at all, and refuses any field", async () => {
    expect((await t.request("/v1/auth/challenge", { method: "POST" })).status).toBe(200);
    const res = await t.postJson("/v1/auth/challenge", { uuid: alice.uuid });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: "invalid_body", path: "/uuid" });
  });
});

describe("POST /v1/auth/verify", () => {
  test("signs in a player who joined: our own token, the uuid and name from the identity provider", async () => {
    const c = await challenge();
    await identity.join(alice, c.serverId);
    const res = await verify({ serverId: c.serverId, name: "alice_01", zone: "Europe/Berlin" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ uuid: alice.uuid, name: "Alice_01" });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.sessionId).toMatch(/^[0-9a-f]{24}$/);
    expect(body.expiresAt).toBe(t.clock.now() + 180 * 24 * 3600 * 1000);
    const session = await t.request("/v1/auth/session", { headers: { authorization: `Bearer ${body.token}` } });
    expect(await session.json()).toMatchObject({ uuid: alice.uuid, name: "Alice_01", zone: "Europe/Berlin" });
  });

  test("the service asks the identity provider only the name and serverId, and stores only the token's hash", async () => {
    const before = identity.calls.length;
    const s = await signIn(t, identity, bob);
    const asked = identity.calls.slice(before).filter((c) => c.path === "/session/minecraft/hasJoined");
    expect(asked).toHaveLength(1);
    expect([...asked[0]!.query.keys()].sort()).toEqual(["serverId", "username"]);
    expect(asked[0]!.headers.get("authorization")).toBeNull();
    const stored = await rows<{ token_hash: string }>(
      t.db,
      sql`select token_hash from device_sessions where id = ${s.sessionId}`,
    );
    expect(stored[0]!.token_hash).toBe(new Bun.CryptoHasher("sha256").update(s.token).digest("hex"));
    const anywhere = await rows(t.db, sql`select 1 from device_sessions where token_hash = ${s.token}`);
    expect(anywhere).toHaveLength(0);
  });

  test("a player who did not join is refused not_joined (204 from the identity provider)", async () => {
    const c = await challenge();
    const res = await verify({ serverId: c.serverId, name: alice.name, zone: "UTC" });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe("not_joined");
  });

  test("a join by someone else with this serverId does not sign in the name asked", async () => {
    const c = await challenge();
    await identity.join(bob, c.serverId);
    const res = await verify({ serverId: c.serverId, name: alice.name, zone: "UTC" });
    expect((await errorOf(res)).code).toBe("not_joined");
  });

  test.each([
    ["answers 500", "error500", "identity_unavailable", 503],
    ["is rate limited (429)", "rateLimited", "identity_unavailable", 503],
    ["answers its gateway's HTML 403 (throttled)", "gateway403", "identity_unavailable", 503],
    ["does not answer in time", "hang", "identity_unavailable", 503],
    ["answers JSON that does not parse", "malformed", "identity_unavailable", 503],
    ["confirms a different player than asked", "otherPlayer", "not_joined", 401],
  ] as const)(
    "when the identity provider %s: %s (%d), and no account is created",
    async (_what, failure, code, status) => {
      const c = await challenge();
      await identity.join(alice, c.serverId);
      identity.state.failure = failure;
      const before = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from device_sessions`);
      const res = await verify({ serverId: c.serverId, name: alice.name, zone: "UTC" });
      expect(res.status).toBe(status);
      expect((await errorOf(res)).code).toBe(code);
      if (status === 503) expect(res.headers.get("retry-after")).toBe("10");
      expect(await rows(t.db, sql`select count(*)::int as n from device_sessions`)).toEqual(before);
    },
  );

  test("throttled at sign-in (its gateway's HTML 403): head look-ups pause on every instance, sign-ins do not", async () => {
    const c = await challenge();
    await identity.join(alice, c.serverId);
    identity.state.failure = "gateway403";
    expect((await verify({ serverId: c.serverId, name: alice.name, zone: "UTC" })).status).toBe(503);
    const paused = await rows<{ upstream: string; until: number }>(
      t.db,
      sql`select upstream, until::float8 as until from upstream_backoff`,
    );
    expect(paused).toEqual([{ upstream: "identity-heads", until: t.clock.now() + 60_000 }]);
    identity.state.failure = "none";
    const again = await challenge();
    await identity.join(alice, again.serverId);
    expect((await verify({ serverId: again.serverId, name: alice.name, zone: "UTC" })).status).toBe(200);
  });

  test("a serverId cannot be replayed after a success", async () => {
    const c = await challenge();
    await identity.join(alice, c.serverId);
    expect((await verify({ serverId: c.serverId, name: alice.name, zone: "UTC" })).status).toBe(200);
    const again = await verify({ serverId: c.serverId, name: alice.name, zone: "UTC" });
    expect(again.status).toBe(401);
    expect(await errorOf(again)).toMatchObject({ code: "challenge_invalid", path: "/serverId" });
  });

  test("a serverId cannot be replayed after a failure", async () => {
    const c = await challenge();
    expect((await errorOf(await verify({ serverId: c.serverId, name: alice.name, zone: "UTC" }))).code).toBe(
      "not_joined",
    );
    await identity.join(alice, c.serverId);
    expect((await errorOf(await verify({ serverId: c.serverId, name: alice.name, zone: "UTC" }))).code).toBe(
      "challenge_invalid",
    );
  });

  test("an expired serverId is refused, even though the join happened", async () => {
    const c = await challenge();
    await identity.join(alice, c.serverId);
    t.clock.advance(60_001);
    expect((await errorOf(await verify({ serverId: c.serverId, name: alice.name, zone: "UTC" }))).code).toBe(
      "challenge_invalid",
    );
  });

  test("an unknown serverId is refused without asking the identity provider", async () => {
    const before = identity.calls.length;
    expect((await errorOf(await verify({ serverId: "f".repeat(40), name: alice.name, zone: "UTC" }))).code).toBe(
      "challenge_invalid",
    );
    expect(identity.calls.length).toBe(before);
  });

  test("an unknown time zone is refused unknown_zone and does not spend the serverId", async () => {
    const c = await challenge();
    await identity.join(alice, c.serverId);
    const res = await verify({ serverId: c.serverId, name: alice.name, zone: "Mars/Olympus_Mons" });
    expect(res.status).toBe(422);
    expect(await errorOf(res)).toMatchObject({ code: "unknown_zone", path: "/zone" });
    expect((await verify({ serverId: c.serverId, name: alice.name, zone: "UTC" })).status).toBe(200);
  });

  test("a uuid, an access token or any unknown field in the body is refused", async () => {
    for (const extra of [{ uuid: alice.uuid }, { accessToken: alice.accessToken }]) {
      const c = await challenge();
      const res = await verify({ serverId: c.serverId, name: alice.name, zone: "UTC", ...extra });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).path).toBe(`/${Object.keys(extra)[0]}`);
    }
  });

  test("a name that is not a game account name is refused", async () => {
    const c = await challenge();
    const res = await verify({ serverId: c.serverId, name: "[MVP+] Alice", zone: "UTC" });
    expect(await errorOf(res)).toMatchObject({ code: "invalid_body", path: "/name" });
  });
});

describe("the account", () => {
  test("is created at first sign-in with that zone; a later sign-in keeps the zone and follows the current name", async () => {
    const renamed = { ...bob, uuid: "c".repeat(32), name: "Carol", accessToken: "carol-token" };
    const provider = fakeIdentity([renamed]);
    const u = await testApp({ fetch: loopbackFetch, settings: { identityUrl: provider.url } });
    try {
      await signIn(u, provider, renamed, { zone: "Pacific/Kiritimati" });
      renamed.name = "Caroline";
      const second = await signIn(u, provider, renamed, { zone: "Europe/London" });
      const session = (await (await u.request("/v1/auth/session", { headers: second.auth })).json()) as {
        name: string;
        zone: string;
      };
      expect(session).toMatchObject({ name: "Caroline", zone: "Pacific/Kiritimati" });
    } finally {
      await u.close();
      provider.stop();
    }
  });
});
