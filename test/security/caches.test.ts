// Boundary: what a stranger can make the service store and spend (issue 22, finding 6). Every cache
// of another player's public data forgets its rows after CACHE_MAX_AGE_HOURS (the caches job); an
// unknown uuid is remembered only briefly and gets no stored head; cache misses spend a budget per
// upstream shared by every client (UPSTREAM_MISS_BUDGET_PER_MINUTE); erasing an account removes the
// player's rows from every cache; the export says what is cached and for how long.
import { afterEach, describe, expect, setDefaultTimeout, test, afterAll, beforeAll } from "bun:test";
import { emptyTables, testDatabase } from "../support/db.ts";
import { sql } from "drizzle-orm";
import { testApp, loopbackFetch, type TestApp } from "../support/app.ts";
import { fakeSessionServer, fakeImageServer, skinPng, hashOf } from "../support/fakes/skins.ts";
import { fakeGameApi, hypixelProfile } from "../support/fakes/game-api.ts";
import { fakeNames } from "../support/fakes/names.ts";
import { uploader } from "../support/uploads.ts";
import { rows, type Database } from "../../src/db/database.ts";
import { purgeCaches } from "../../src/profiles/caches.ts";
import { serviceJobs } from "../../src/jobs/jobs.ts";
import { settingsHelp, loadConfig, envFor, ConfigError } from "../../src/config.ts";

setDefaultTimeout(30_000);

const KEY = "0b5e8c1a-7d3f-4e2a-9c6b-1f0e2d3c4b5a";
const HOUR = 3_600_000;
const alice = { uuid: "0f1e2d3c4b5a69788796a5b4c3d2e1f0", name: "Alice_01" };

// One database for the file, emptied after each test: every test starts from a service as new,
// without paying for a new database each time (test/support/db.ts, emptyTables).
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
  const images = fakeImageServer();
  const skin = skinPng();
  images.files.set(`/texture/${hashOf(skin)}`, skin);
  const session = fakeSessionServer([
    { uuid: alice.uuid, name: alice.name, skinUrl: `http://textures.minecraft.net/texture/${hashOf(skin)}` },
  ]);
  const game = fakeGameApi({ key: KEY });
  game.players.set(alice.uuid, [hypixelProfile(alice.uuid, { cuteName: "Apple", selected: true })]);
  const names = fakeNames([alice]);
  opened.push({ close: images.stop }, { close: session.stop }, { close: game.stop }, { close: names.stop });
  const t = await testApp({
    database,
    settings: {
      identityUrl: session.url,
      texturesUrl: images.url,
      namesUrl: names.url,
      gameApiUrl: game.url,
      gameApiKey: KEY,
      assetRateLimit: 0,
      lookupRateLimit: 0,
      devSignin: true,
      authRateLimit: 0,
      ...settings,
    },
    fetch: loopbackFetch,
    now: "2026-06-01T12:00:30Z",
  });
  opened.push(t);
  return { t, session, game, names, images };
}

const countOf = async (t: TestApp, table: "asset_cache" | "profile_cache" | "player_names") =>
  Number((await rows<{ n: number }>(t.db, sql`select count(*)::int as n from ${sql.raw(table)}`))[0]!.n);
const randomUuid = () => crypto.randomUUID().replaceAll("-", "");

describe("unknown players", () => {
  test("heads for 200 random uuids store no head, and asking again within minutes asks nobody", async () => {
    const { t, session } = await setup({ upstreamMissBudget: 0 });
    const uuids = Array.from({ length: 200 }, randomUuid);
    for (const uuid of uuids) {
      const res = await t.request(`/v1/assets/head/${uuid}.png`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    }
    expect(session.calls.length).toBe(200);
    const stored = await rows<{ kind: string; n: number }>(
      t.db,
      sql`select kind, count(*)::int as n from asset_cache group by kind`,
    );
    expect(stored).toEqual([{ kind: "unknown-head", n: 200 }]);
    for (const uuid of uuids.slice(0, 20)) await t.request(`/v1/assets/head/${uuid}.png`);
    expect(session.calls.length).toBe(200);
    // After UNKNOWN_PLAYER_CACHE_MINUTES the job forgets them; the next ask asks again.
    t.clock.advance(11 * 60_000);
    expect(await purgeCaches(t)).toEqual({ profiles: 0, names: 0, images: 200 });
    expect(await countOf(t, "asset_cache")).toBe(0);
    await t.request(`/v1/assets/head/${uuids[0]}.png`);
    expect(session.calls.length).toBe(201);
  });
});

describe("the miss budget", () => {
  test("one client cannot spend the identity provider: past the budget, the default head, no call", async () => {
    const { t, session } = await setup({ upstreamMissBudget: 5 });
    for (let i = 0; i < 30; i++) expect((await t.request(`/v1/assets/head/${randomUuid()}.png`)).status).toBe(200);
    expect(session.calls.length).toBe(5);
    // The budget is per minute: the next minute, five more.
    t.clock.advance(60_000);
    for (let i = 0; i < 10; i++) await t.request(`/v1/assets/head/${randomUuid()}.png`);
    expect(session.calls.length).toBe(10);
  });

  test("the game key's quota: past the budget a lookup answers 503 upstream_rate_limited with Retry-After, cached ones still answer", async () => {
    const { t, game } = await setup({ upstreamMissBudget: 3 });
    expect((await t.request(`/v1/gamemode/profiles/${alice.uuid}`)).status).toBe(200);
    for (let i = 0; i < 2; i++) await t.request(`/v1/gamemode/profiles/${randomUuid()}`);
    const before = game.calls.length;
    const refused = await t.request(`/v1/gamemode/profiles/${randomUuid()}`);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("upstream_rate_limited");
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(game.calls.length).toBe(before);
    expect((await t.request(`/v1/gamemode/profiles/${alice.uuid}`)).status).toBe(200);
  });

  test("the name service likewise", async () => {
    const { t, names } = await setup({ upstreamMissBudget: 2 });
    for (const n of ["Nobody_1", "Nobody_2"]) expect((await t.request(`/v1/players/${n}`)).status).toBe(404);
    const refused = await t.request("/v1/players/Nobody_3");
    expect(refused.status).toBe(503);
    expect(names.lookups()).toBe(2);
  });
});

describe("maximum age", () => {
  test("the caches job forgets profiles, names and images older than CACHE_MAX_AGE_HOURS, and keeps younger ones", async () => {
    const { t } = await setup({ cacheMaxAgeHours: 72 });
    expect((await t.request(`/v1/players/${alice.name}`)).status).toBe(200);
    expect((await t.request(`/v1/gamemode/profiles/${alice.uuid}`)).status).toBe(200);
    expect((await t.request(`/v1/assets/head/${alice.uuid}.png`)).status).toBe(200);
    const before = {
      names: await countOf(t, "player_names"),
      profiles: await countOf(t, "profile_cache"),
      images: await countOf(t, "asset_cache"),
    };
    expect(before).toEqual({ names: 1, profiles: 1, images: 2 }); // head and skin
    t.clock.advance(71 * HOUR);
    expect(await purgeCaches(t)).toEqual({ profiles: 0, names: 0, images: 0 });
    t.clock.advance(2 * HOUR);
    expect(await purgeCaches(t)).toEqual({ profiles: 1, names: 1, images: 2 });
  });

  test("the job is in the scheduler with its settings, and the settings are in --help", async () => {
    const help = settingsHelp().join("\n");
    for (const env of [
      "CACHE_MAX_AGE_HOURS",
      "UNKNOWN_PLAYER_CACHE_MINUTES",
      "UPSTREAM_MISS_BUDGET_PER_MINUTE",
      "JOB_CACHES_PURGE_ENABLED",
      "JOB_CACHES_PURGE_INTERVAL_MS",
    ]) {
      expect(help).toContain(env);
    }
    const config = loadConfig(envFor({ jobCachesPurgeIntervalMs: 120_000 }));
    const { t } = await setup();
    const job = serviceJobs({ ...t, config }).find((j) => j.name === "caches.purge");
    expect(job).toMatchObject({ enabled: true, intervalMs: 120_000 });
    expect(() => loadConfig(envFor({ cacheMaxAgeHours: 12, nameCacheHours: 24 }))).toThrow(ConfigError);
  });
});

describe("erasure and export", () => {
  test("erasing an account removes the player's name, game profiles and head from the caches", async () => {
    const { t } = await setup();
    const u = await uploader(t, { uuid: alice.uuid, name: alice.name });
    await t.request(`/v1/players/${alice.name}`);
    await t.request(`/v1/gamemode/profiles/${alice.uuid}`);
    await t.request(`/v1/assets/head/${alice.uuid}.png`);
    const exported = (await (await t.request("/v1/stats/export", { headers: u.auth })).json()) as {
      publicDataCaches: unknown;
    };
    expect(exported.publicDataCaches).toEqual({
      maxAgeHours: 72,
      gameProfiles: { refreshedAfterHours: 2, fetchedAt: t.clock.now(), profiles: 1 },
      names: { refreshedAfterHours: 24, held: [{ name: alice.name, fetchedAt: t.clock.now() }] },
      head: { refreshedAfterHours: 24, fetchedAt: t.clock.now() },
    });
    expect((await t.request("/v1/stats/account", { method: "DELETE", headers: u.auth })).status).toBe(200);
    const left = await rows<{ n: number }>(
      t.db,
      sql`select (select count(*) from profile_cache where uuid = ${alice.uuid})
             + (select count(*) from player_names where uuid = ${alice.uuid})
             + (select count(*) from asset_cache where id = ${alice.uuid}) as n`,
    );
    expect(Number(left[0]!.n)).toBe(0);
  });

  test("the privacy page says what is cached and for how long", async () => {
    const { t } = await setup();
    const page = await (await t.request("/assets/privacy.html")).text();
    for (const words of ["CACHE_MAX_AGE_HOURS", "UNKNOWN_PLAYER_CACHE_MINUTES", "72 hours", "publicDataCaches"])
      expect(page).toContain(words);
  });
});
