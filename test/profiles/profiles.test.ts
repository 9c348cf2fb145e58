// GET /v1/gamemode/profiles/<uuid>: the project's one key, the allowlist, the cache, one upstream
// call per stampede, stale answers on outages, and the game API's errors mapped to ours.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { testApp, loopbackFetch, type TestApp } from "../support/app.ts";
import { emptyTables, testDatabase } from "../support/db.ts";
import { backend } from "../support/db.ts";
import { fakeGameApi, hypixelProfile } from "../support/fakes/game-api.ts";
import { createApp } from "../../src/app.ts";
import { rows, type Database, type Db } from "../../src/db/database.ts";
import * as schema from "../../src/db/schema.ts";

const KEY = "0b5e8c1a-7d3f-4e2a-9c6b-1f0e2d3c4b5a";
const alice = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
const carol = "c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0";
const HOUR = 3_600_000;
const RECORDED_APPLE = {
  bankBalance: 1002698535,
  firstJoin: 1574817763176,
  skyblockXp: 48330,
  purse: 306332274,
  fairySouls: 265,
};

// One database for the file, emptied after each test: every test starts from a service as new (its
// caches, rate limits and budgets are rows), without paying for a new database each time.
let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
  await emptyTables(database.db);
});

async function setup(
  settings: NonNullable<Parameters<typeof testApp>[0]>["settings"] = {},
  api = { limit: 300, resetSeconds: 240 },
) {
  const game = fakeGameApi({ key: KEY, ...api });
  opened.push({ close: game.stop });
  game.players.set(alice, [
    hypixelProfile(alice),
    hypixelProfile(alice, {
      profileId: "aaaabbbbccccddddeeeeffff00001111",
      cuteName: "Banana",
      selected: false,
      gameMode: "ironman",
    }),
  ]);
  const t = await testApp({
    database,
    settings: { gameApiUrl: game.url, gameApiKey: KEY, lookupRateLimit: 0, upstreamTimeoutMs: 500, ...settings },
    fetch: loopbackFetch,
  });
  opened.push(t);
  return { t, game };
}

const lookup = (t: TestApp, uuid: string) => t.request(`/v1/gamemode/profiles/${uuid}`);
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

describe("without a key", () => {
  test("answers 503 no_upstream_key with a message the mod can show, and asks nobody", async () => {
    const { t, game } = await setup({ gameApiKey: "" });
    const res = await lookup(t, alice);
    expect(res.status).toBe(503);
    const error = await errorOf(res);
    expect(error.code).toBe("no_upstream_key");
    expect(error.message).toContain("no game API key");
    expect(game.calls.length).toBe(0);
  });
});

describe("the document", () => {
  test("holds only the allowlisted fields, in our names, as integers", async () => {
    const { t, game } = await setup();
    const res = await lookup(t, alice);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc).toEqual({
      uuid: alice,
      fetchedAt: t.clock.now(),
      stale: false,
      profiles: [
        // Values of the recorded parts hypixelProfile is built from (see its comment).
        {
          profileId: "28dfd0f3a48443e49278df91f909b596",
          cuteName: "Apple",
          selected: true,
          memberCount: 8,
          ...RECORDED_APPLE,
        },
        {
          profileId: "aaaabbbbccccddddeeeeffff00001111",
          cuteName: "Banana",
          selected: false,
          gameMode: "ironman",
          memberCount: 8,
          ...RECORDED_APPLE,
        },
      ],
    });
    // The game API was asked with the key in its header, once.
    expect(game.lookups()).toBe(1);
    expect(game.calls[0]!.headers.get("api-key")).toBe(KEY);
  });

  test("keeps nothing else, not in the answer and not in the cache: no other member, no inventory, no transactions", async () => {
    const { t } = await setup();
    const text = await (await lookup(t, alice)).text();
    const [row] = await rows<{ profiles: unknown }>(
      t.db,
      sql`select profiles from profile_cache where uuid = ${alice}`,
    );
    for (const stored of [text, JSON.stringify(row!.profiles)]) {
      // Another member's uuid, and parts of the recorded member entry that are not allowlisted.
      for (const leaked of [
        "13e823891b29408f8b8ea3272001a4e6",
        "deletion_notice",
        "coop_invitation",
        "cookie_buff_active",
        "motes_purse",
        "essence",
        "unspent_souls",
      ]) {
        expect(stored).not.toContain(leaked);
      }
    }
  });

  test("a player without profiles (profiles: null) answers an empty list, not an error", async () => {
    const { t } = await setup();
    const res = await lookup(t, carol);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { profiles: unknown[] }).profiles).toEqual([]);
  });

  test("a profile without an id is left out, and a field of the wrong type is absent rather than null or zero", async () => {
    const { t, game } = await setup();
    const odd = hypixelProfile(carol) as Record<string, unknown>;
    (odd.members as Record<string, Record<string, unknown>>)[carol]!.currencies = { coin_purse: "lots" };
    delete odd.banking;
    game.players.set(carol, [{ cute_name: "Grapes", members: {} }, odd]);
    const doc = (await (await lookup(t, carol)).json()) as { profiles: Record<string, unknown>[] };
    expect(doc.profiles.length).toBe(1);
    expect(doc.profiles[0]!).not.toHaveProperty("purse");
    expect(doc.profiles[0]!).not.toHaveProperty("bankBalance");
    expect(doc.profiles[0]!.fairySouls).toBe(265);
  });
});

describe("the path", () => {
  test("a uuid of the wrong shape answers 400 invalid_uuid and reaches no upstream", async () => {
    const { t, game } = await setup();
    for (const bad of [
      alice.toUpperCase(),
      "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
      alice.slice(1),
      `${alice}0`,
      "..%2F..%2Fv2%2Fkey",
      "http%3A%2F%2Fexample.com",
      `${alice}%2F..`,
    ]) {
      const res = await lookup(t, bad);
      expect([bad, res.status]).toEqual([bad, 400]);
      expect((await errorOf(res)).code).toBe("invalid_uuid");
    }
    // A dot-segment is collapsed by the URL parser before routing: no route, so 404.
    expect((await lookup(t, "%2e%2e")).status).toBe(404);
    expect(game.calls.length).toBe(0);
  });
});

describe("the cache", () => {
  test("a second lookup within PROFILE_CACHE_HOURS asks nobody; after it, the game API is asked again", async () => {
    const { t, game } = await setup({ profileCacheHours: 3 });
    const first = (await (await lookup(t, alice)).json()) as { fetchedAt: number };
    t.clock.advance(3 * HOUR - 1);
    const second = (await (await lookup(t, alice)).json()) as { fetchedAt: number };
    expect(second.fetchedAt).toBe(first.fetchedAt);
    expect(game.lookups()).toBe(1);
    t.clock.advance(1);
    const third = (await (await lookup(t, alice)).json()) as { fetchedAt: number };
    expect(game.lookups()).toBe(2);
    expect(third.fetchedAt).toBe(t.clock.now());
  });

  test("50 concurrent misses for one uuid make one upstream call, and all 50 get the document", async () => {
    // The upstream answers in 300 ms; the file's 500 ms timeout left 200 ms for 50 requests on a
    // loaded machine, and in a full run at load 10 all 50 were 504. The test is of the sharing.
    const { t, game } = await setup({ upstreamTimeoutMs: 5000 });
    game.state.failure = "slow";
    const answers = await Promise.all(Array.from({ length: 50 }, () => lookup(t, alice)));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ profiles: unknown[] }>));
    expect(bodies.every((b) => b.profiles.length === 2)).toBe(true);
    expect(game.lookups()).toBe(1);
  });

  // Two instances on one Postgres: each coalesces its own requests; the advisory lock and the
  // re-read of the cache make the second wait and find the first one's answer. (The embedded
  // database belongs to one process, so there is no second instance to test.)
  test.skipIf(backend === "embedded")(
    "a stampede spread over two instances on one Postgres still makes one upstream call",
    async () => {
      const { t, game } = await setup();
      game.state.failure = "slow";
      const client = postgres(t.database.where, { max: 5, onnotice: () => {} });
      opened.push({ close: () => client.end() });
      const other = createApp({ ...t, db: drizzlePostgres(client, { schema }) as unknown as Db });
      const ask = (app: { handle(r: Request): Promise<Response> }) =>
        app.handle(new Request(`http://localhost/v1/gamemode/profiles/${alice}`));
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => ask(i % 2 ? other : t.app)));
      expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
      expect(game.lookups()).toBe(1);
    },
  );
});

describe("when the game API fails", () => {
  for (const failure of ["cloudflare502", "cloudflare504", "cloudflare521", "notJson"] as const) {
    test(`${failure}: serves the last good document marked stale with its fetch time; without one, 503 upstream_unavailable`, async () => {
      const { t, game } = await setup({ profileCacheHours: 1, profileStaleHours: 24 });
      const good = (await (await lookup(t, alice)).json()) as { fetchedAt: number };
      t.clock.advance(2 * HOUR);
      game.state.failure = failure;
      const res = await lookup(t, alice);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const stale = (await res.json()) as { stale: boolean; fetchedAt: number; profiles: unknown[] };
      expect(stale.stale).toBe(true);
      expect(stale.fetchedAt).toBe(good.fetchedAt);
      expect(stale.profiles.length).toBe(2);
      const none = await lookup(t, carol);
      expect(none.status).toBe(503);
      expect(none.headers.get("retry-after")).toBe("30");
      expect((await errorOf(none)).code).toBe("upstream_unavailable");
    });
  }

  test("past PROFILE_STALE_HOURS the old document is no longer served", async () => {
    const { t, game } = await setup({ profileCacheHours: 1, profileStaleHours: 24 });
    await lookup(t, alice);
    t.clock.advance(24 * HOUR + 1);
    game.state.failure = "cloudflare502";
    expect((await lookup(t, alice)).status).toBe(503);
  });

  test("no answer within UPSTREAM_TIMEOUT_MS: 504 upstream_timeout (or the stale document)", async () => {
    const { t, game } = await setup({ upstreamTimeoutMs: 200 });
    game.state.failure = "hang";
    const res = await lookup(t, alice);
    expect(res.status).toBe(504);
    expect((await errorOf(res)).code).toBe("upstream_timeout");
  });

  test("a refused key (403): 503 upstream_key_rejected, and the key appears in no answer and no log line", async () => {
    const { t } = await setup({ gameApiKey: "ffffffff-0000-4000-8000-000000000000" });
    const res = await lookup(t, alice);
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(JSON.parse(text).error.code).toBe("upstream_key_rejected");
    const logged = JSON.stringify(t.log.lines);
    expect(logged).toContain("game API lookup failed");
    for (const secret of ["ffffffff-0000-4000-8000-000000000000", KEY]) {
      expect(text).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
  });

  test("the game API refusing the uuid (422): 422 upstream_refused_uuid, never a stale document", async () => {
    const { t, game } = await setup({ profileCacheHours: 1 });
    await lookup(t, alice);
    t.clock.advance(2 * HOUR);
    game.state.failure = "malformedUuid";
    const res = await lookup(t, alice);
    expect(res.status).toBe(422);
    expect((await errorOf(res)).code).toBe("upstream_refused_uuid");
  });
});

describe("the game API's rate limit", () => {
  test("a 429 pauses every lookup until RateLimit-Reset: cached and stale answers go on, misses answer 503 with Retry-After", async () => {
    const { t, game } = await setup({ profileCacheHours: 1, gameApiReserve: 0 }, { limit: 10, resetSeconds: 7200 });
    await lookup(t, alice);
    game.state.remaining = 0; // another user of the key spent the window
    const throttled = await lookup(t, carol);
    expect(throttled.status).toBe(503);
    expect(throttled.headers.get("retry-after")).toBe("7200");
    expect((await errorOf(throttled)).code).toBe("upstream_rate_limited");
    expect(game.lookups()).toBe(2);
    // Within the pause nobody calls the game API again, whatever is asked.
    t.clock.advance(60_000);
    expect((await lookup(t, carol)).status).toBe(503);
    expect((await lookup(t, alice)).status).toBe(200);
    t.clock.advance(HOUR); // alice's document is past its cache hours: served stale, not fetched
    expect(((await (await lookup(t, alice)).json()) as { stale: boolean }).stale).toBe(true);
    expect(game.lookups()).toBe(2);
    t.clock.advance(7200_000); // the upstream's reset has passed
    game.state.remaining = 10;
    expect(((await (await lookup(t, alice)).json()) as { stale: boolean }).stale).toBe(false);
    expect(game.lookups()).toBe(3);
  });

  test("with RateLimit-Remaining at GAME_API_RESERVE it stops before the upstream says 429", async () => {
    const { t, game } = await setup({ gameApiReserve: 2 }, { limit: 3, resetSeconds: 90 });
    expect((await lookup(t, alice)).status).toBe(200); // remaining 2: at the reserve
    const paused = await lookup(t, carol);
    expect(paused.status).toBe(503);
    expect(paused.headers.get("retry-after")).toBe("90");
    expect(game.lookups()).toBe(1);
    t.clock.advance(90_000);
    game.state.remaining = 3; // the upstream's window reset
    expect((await lookup(t, carol)).status).toBe(200);
    expect(game.lookups()).toBe(2);
  });

  test("the pause is shared: another instance on the same database does not call either", async () => {
    const { t, game } = await setup({ gameApiReserve: 0 }, { limit: 10, resetSeconds: 60 });
    await lookup(t, alice);
    game.state.remaining = 0;
    await lookup(t, carol); // 429
    const other = createApp({ ...t });
    expect((await other.handle(new Request(`http://localhost/v1/gamemode/profiles/${carol}`))).status).toBe(503);
    expect(game.lookups()).toBe(2);
  });
});

describe("our own rate limit", () => {
  test("LOOKUP_RATE_LIMIT_PER_MINUTE per client address: over it, 429 rate_limited with Retry-After", async () => {
    const { t } = await setup({ lookupRateLimit: 2, trustProxy: true });
    const from = { headers: { "x-forwarded-for": "198.51.100.7" } };
    expect((await t.request(`/v1/gamemode/profiles/${alice}`, from)).status).toBe(200);
    expect((await t.request(`/v1/gamemode/profiles/${alice}`, from)).status).toBe(200);
    const refused = await t.request(`/v1/gamemode/profiles/${alice}`, from);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(
      (await t.request(`/v1/gamemode/profiles/${alice}`, { headers: { "x-forwarded-for": "198.51.100.8" } })).status,
    ).toBe(200);
  });
});
