// GET /v1/players/<name>, /summary, /profiles: a name resolves through the name service (cached),
// an unknown name answers 404, and a name of the wrong shape reaches no upstream.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { testApp, loopbackFetch } from "../support/app.ts";
import { emptyTables, testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
import { fakeGameApi, hypixelProfile } from "../support/fakes/game-api.ts";
import { fakeNames } from "../support/fakes/names.ts";
import { createApp } from "../../src/app.ts";

const KEY = "0b5e8c1a-7d3f-4e2a-9c6b-1f0e2d3c4b5a";
const alice = { uuid: "0f1e2d3c4b5a69788796a5b4c3d2e1f0", name: "Alice_01" };
const HOUR = 3_600_000;

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

async function setup(settings: NonNullable<Parameters<typeof testApp>[0]>["settings"] = {}) {
  const game = fakeGameApi({ key: KEY });
  const names = fakeNames([alice]);
  opened.push({ close: game.stop }, { close: names.stop });
  game.players.set(alice.uuid, [
    hypixelProfile(alice.uuid, { selected: false, cuteName: "Apple" }),
    hypixelProfile(alice.uuid, {
      profileId: "aaaabbbbccccddddeeeeffff00001111",
      cuteName: "Banana",
      gameMode: "island",
      selected: true,
    }),
  ]);
  const t = await testApp({
    database,
    settings: {
      gameApiUrl: game.url,
      gameApiKey: KEY,
      namesUrl: names.url,
      baseUrl: "https://tally.example",
      lookupRateLimit: 0,
      ...settings,
    },
    fetch: loopbackFetch,
  });
  opened.push(t);
  return { t, game, names };
}

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error;

describe("GET /v1/players/<name>", () => {
  test("answers the uuid, the name as the player spells it, and the head through our own proxy", async () => {
    const { t } = await setup();
    const res = await t.request("/v1/players/alice_01");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      uuid: alice.uuid,
      name: "Alice_01",
      head: `https://tally.example/v1/assets/head/${alice.uuid}.png`,
    });
  });

  test("a name is looked up once per NAME_CACHE_HOURS, whatever its case", async () => {
    const { t, names } = await setup({ nameCacheHours: 24 });
    await t.request("/v1/players/Alice_01");
    await t.request("/v1/players/ALICE_01");
    expect(names.lookups()).toBe(1);
    t.clock.advance(24 * HOUR);
    await t.request("/v1/players/alice_01");
    expect(names.lookups()).toBe(2);
  });

  for (const unknownAs of [404, 204] as const) {
    test(`an unknown name (the name service answers ${unknownAs}) answers 404 unknown_player`, async () => {
      const { t, names } = await setup();
      names.state.unknownAs = unknownAs;
      const res = await t.request("/v1/players/Nobody_Here");
      expect(res.status).toBe(404);
      expect((await errorOf(res)).code).toBe("unknown_player");
    });
  }

  test("a name of the wrong shape answers 404 and reaches no upstream", async () => {
    const { t, names, game } = await setup();
    for (const bad of [
      "ab",
      "a".repeat(17),
      "al-ice",
      "al%20ice",
      "..",
      "%2e%2e",
      "a%2Fb%2Fc",
      "http%3A%2F%2Fexample.com",
      "Alice_01%00",
    ]) {
      expect((await t.request(`/v1/players/${bad}`)).status).toBe(404);
      expect((await t.request(`/v1/players/${bad}/summary`)).status).toBe(404);
    }
    expect(names.calls.length + game.calls.length).toBe(0);
  });

  test("the name service throttled (429): 503 upstream_rate_limited, and it is left alone for a minute", async () => {
    const { t, names } = await setup();
    names.state.failure = "throttled";
    const res = await t.request("/v1/players/Alice_01");
    expect(res.status).toBe(503);
    expect((await errorOf(res)).code).toBe("upstream_rate_limited");
    expect((await t.request("/v1/players/Someone_Else")).status).toBe(503);
    expect(names.lookups()).toBe(1);
    t.clock.advance(60_000);
    names.state.failure = "none";
    expect((await t.request("/v1/players/Alice_01")).status).toBe(200);
  });

  test("its gateway's HTML 403 is throttling like a 429: every instance leaves the name service alone for a minute", async () => {
    const { t, names } = await setup();
    const other = createApp({ ...t });
    names.state.failure = "gateway403";
    const res = await t.request("/v1/players/Alice_01");
    expect(res.status).toBe(503);
    expect((await errorOf(res)).code).toBe("upstream_rate_limited");
    expect(res.headers.get("retry-after")).toBe("60");
    names.state.failure = "none";
    expect((await other.handle(new Request("http://localhost/v1/players/Alice_01"))).status).toBe(503);
    expect(names.lookups()).toBe(1);
    t.clock.advance(60_000);
    expect((await other.handle(new Request("http://localhost/v1/players/Alice_01"))).status).toBe(200);
  });

  test("the name service down: a name seen before still resolves from the cache", async () => {
    const { t, names } = await setup({ nameCacheHours: 1 });
    await t.request("/v1/players/Alice_01");
    t.clock.advance(2 * HOUR);
    names.state.failure = "error500";
    const res = await t.request("/v1/players/Alice_01");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { uuid: string }).uuid).toBe(alice.uuid);
    expect((await t.request("/v1/players/Someone_Else")).status).toBe(503);
  });
});

describe("/summary and /profiles", () => {
  test("summary names the selected profile and the count; profiles carries the allowlisted documents", async () => {
    const { t } = await setup();
    const summary = await (await t.request("/v1/players/Alice_01/summary")).json();
    expect(summary).toEqual({
      uuid: alice.uuid,
      name: "Alice_01",
      head: `https://tally.example/v1/assets/head/${alice.uuid}.png`,
      fetchedAt: t.clock.now(),
      stale: false,
      profileCount: 2,
      selected: { profileId: "aaaabbbbccccddddeeeeffff00001111", cuteName: "Banana", gameMode: "island" },
    });
    const profiles = (await (await t.request("/v1/players/Alice_01/profiles")).json()) as {
      name: string;
      profiles: { cuteName: string }[];
    };
    expect(profiles.name).toBe("Alice_01");
    expect(profiles.profiles.map((p) => p.cuteName)).toEqual(["Apple", "Banana"]);
  });

  test("without a game API key they answer 503 no_upstream_key", async () => {
    const { t } = await setup({ gameApiKey: "" });
    expect((await errorOf(await t.request("/v1/players/Alice_01/profiles"))).code).toBe("no_upstream_key");
  });

  test("share the lookup rate limit with the profile route", async () => {
    const { t } = await setup({ lookupRateLimit: 2 });
    expect((await t.request("/v1/players/Alice_01")).status).toBe(200);
    expect((await t.request(`/v1/gamemode/profiles/${alice.uuid}`)).status).toBe(200);
    expect((await t.request("/v1/players/Alice_01/summary")).status).toBe(429);
  });
});

describe("cache metrics", () => {
  test("each look-up in the profile and name caches is counted as a hit, a miss or stale", async () => {
    const { t, game } = await setup({ metricsEnabled: true, profileCacheHours: 1, profileStaleHours: 48 });
    await t.request("/v1/players/Alice_01/profiles"); // name: miss, profiles: miss
    await t.request("/v1/players/Alice_01/profiles"); // name: hit, profiles: hit
    t.clock.advance(2 * HOUR);
    game.state.failure = "cloudflare502";
    await t.request("/v1/players/Alice_01/profiles"); // name: hit, profiles: stale
    const text = await (await t.request("/metrics")).text();
    expect(text).toContain('tally_cache_lookups_total{cache="names",outcome="miss"} 1');
    expect(text).toContain('tally_cache_lookups_total{cache="names",outcome="hit"} 2');
    expect(text).toContain('tally_cache_lookups_total{cache="profiles",outcome="miss"} 1');
    expect(text).toContain('tally_cache_lookups_total{cache="profiles",outcome="hit"} 1');
    expect(text).toContain('tally_cache_lookups_total{cache="profiles",outcome="stale"} 1');
  });
});
