// The settings document: versioned, consent per catalogue category (all off at first), the zone
// changeable once in 30 days, retention from the configured periods, findability.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, loopbackFetch, type TestApp } from "../support/app.ts";
import { fakeIdentity, type Player } from "../support/fakes/identity.ts";
import { signIn, type SignedIn } from "../support/players.ts";

const players: Player[] = Array.from({ length: 12 }, (_, i) => ({
  uuid: `${i}`.padStart(32, "a"),
  name: `Player_${i}`,
  accessToken: `token-${i}`,
}));
const identity = fakeIdentity(players);
let t: TestApp;
let next = 0;
beforeAll(async () => {
  t = await testApp({
    fetch: loopbackFetch,
    settings: {
      identityUrl: identity.url,
      retentionOptionsDays: "120,365,730",
      retentionDefaultDays: 365,
      authRateLimit: 0,
    },
  });
});
afterAll(async () => {
  await t.close();
  identity.stop();
});

type Settings = {
  settingsVersion: number;
  categories: Record<string, boolean>;
  zone: string;
  zoneChangeableAt: number;
  retentionDays: number;
  retentionOptionsDays: number[];
  findable: boolean;
  headlineKeys: string[];
};
/** A new player for each test, so tests do not share an account. */
const newPlayer = () => signIn(t, identity, players[next++]!, { zone: "Europe/Berlin" });
const read = async (s: SignedIn) =>
  (await (await t.request("/v1/stats/settings", { headers: s.auth })).json()) as Settings;
const change = (s: SignedIn, body: Record<string, unknown>) =>
  t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...s.auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string; path?: string } }).error;

describe("GET /v1/stats/settings", () => {
  test("a new account has every catalogue category off, its sign-in zone and the default retention", async () => {
    const s = await newPlayer();
    const doc = await read(s);
    expect(doc).toEqual({
      settingsVersion: 1,
      categories: Object.fromEntries(t.catalogue.categories.map((c) => [c, false])),
      zone: "Europe/Berlin",
      zoneChangeableAt: t.clock.now(),
      retentionDays: 365,
      retentionOptionsDays: [120, 365, 730],
      findable: false,
      headlineKeys: [],
    });
    expect(Object.keys(doc.categories)).toEqual(expect.arrayContaining(["combat", "gathering"]));
  });
});

describe("PATCH /v1/stats/settings", () => {
  test("turning a category on bumps the version; the next read shows it", async () => {
    const s = await newPlayer();
    const res = await change(s, { settingsVersion: 1, categories: { gathering: true } });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Settings;
    expect(doc.settingsVersion).toBe(2);
    expect(doc.categories).toMatchObject({ gathering: true, combat: false });
    expect(await read(s)).toEqual(doc);
    const off = (await (
      await change(s, { settingsVersion: 2, categories: { gathering: false, combat: true } })
    ).json()) as Settings;
    expect(off).toMatchObject({ settingsVersion: 3, categories: { gathering: false, combat: true } });
  });

  test("a stale settingsVersion answers 409 with the current document and changes nothing", async () => {
    const s = await newPlayer();
    await change(s, { settingsVersion: 1, findable: true });
    const res = await change(s, { settingsVersion: 1, categories: { combat: true } });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: { code: string; path: string }; settings: Settings };
    expect(body.error).toMatchObject({ code: "conflict", path: "/settingsVersion" });
    expect(body.settings).toEqual(await read(s));
    expect(body.settings).toMatchObject({ settingsVersion: 2, findable: true, categories: { combat: false } });
  });

  test("two writers with the same version: exactly one wins", async () => {
    const s = await newPlayer();
    const answers = await Promise.all([
      change(s, { settingsVersion: 1, findable: true }),
      change(s, { settingsVersion: 1, retentionDays: 730 }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await read(s)).settingsVersion).toBe(2);
  });

  test("a change that changes nothing keeps the version", async () => {
    const s = await newPlayer();
    const doc = (await (
      await change(s, {
        settingsVersion: 1,
        categories: { combat: false },
        findable: false,
        zone: "Europe/Berlin",
        retentionDays: 365,
      })
    ).json()) as Settings;
    expect(doc.settingsVersion).toBe(1);
  });

  test("an unknown category is refused with its path and nothing changes", async () => {
    const s = await newPlayer();
    const res = await change(s, { settingsVersion: 1, categories: { gathering: true, chat_logs: true } });
    expect(res.status).toBe(422);
    expect(await errorOf(res)).toMatchObject({ code: "unknown_category", path: "/categories/chat_logs" });
    expect((await read(s)).categories.gathering).toBe(false);
  });

  test("an unknown zone is refused unknown_zone", async () => {
    const s = await newPlayer();
    const res = await change(s, { settingsVersion: 1, zone: "Europe/Atlantis" });
    expect(res.status).toBe(422);
    expect(await errorOf(res)).toMatchObject({ code: "unknown_zone", path: "/zone" });
  });

  test("the zone changes once; a second change within 30 days answers 409 saying when; after 30 days it may", async () => {
    const s = await newPlayer();
    const first = (await (await change(s, { settingsVersion: 1, zone: "America/New_York" })).json()) as Settings;
    const changedAt = t.clock.now();
    expect(first).toMatchObject({ zone: "America/New_York", zoneChangeableAt: changedAt + 30 * 86_400_000 });
    t.clock.advance(29 * 86_400_000);
    const refused = await change(s, { settingsVersion: 2, zone: "Asia/Tokyo" });
    expect(refused.status).toBe(409);
    const error = await errorOf(refused);
    expect(error.code).toBe("zone_change_too_soon");
    expect(error.message).toContain(new Date(changedAt + 30 * 86_400_000).toISOString());
    expect((await read(s)).zone).toBe("America/New_York");
    t.clock.advance(86_400_000);
    expect(((await (await change(s, { settingsVersion: 2, zone: "Asia/Tokyo" })).json()) as Settings).zone).toBe(
      "Asia/Tokyo",
    );
  });

  test("retention must be one of the configured periods", async () => {
    const s = await newPlayer();
    const res = await change(s, { settingsVersion: 1, retentionDays: 30 });
    expect(res.status).toBe(422);
    expect(await errorOf(res)).toMatchObject({ code: "invalid_retention", path: "/retentionDays" });
    expect(
      ((await (await change(s, { settingsVersion: 1, retentionDays: 120 })).json()) as Settings).retentionDays,
    ).toBe(120);
  });

  test("headline keys: the catalogue's are kept in order; an unknown one is refused with its code and path", async () => {
    const s = await newPlayer();
    const known = t.catalogue.document.keys.map((k) => k.key).slice(0, 2);
    expect(known.length).toBe(2);
    const chose = await change(s, { settingsVersion: 1, headlineKeys: [known[1], known[0]] });
    expect(chose.status).toBe(200);
    expect(((await chose.json()) as Settings).headlineKeys).toEqual([known[1]!, known[0]!]);
    expect((await read(s)).headlineKeys).toEqual([known[1]!, known[0]!]);
    // Not in the catalogue and never recorded by this account.
    const unknown = await change(s, { settingsVersion: 2, headlineKeys: [known[0], "mining.nobody.recorded"] });
    expect(unknown.status).toBe(422);
    expect(await errorOf(unknown)).toMatchObject({ code: "unknown_headline_key", path: "/headlineKeys/1" });
    // Twice the same key, more than four, or a malformed key: the body is refused.
    for (const headlineKeys of [[known[0], known[0]], ["a.b", "a.c", "a.d", "a.e", "a.f"], ["Not A Key"]]) {
      const res = await change(s, { settingsVersion: 2, headlineKeys });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe("invalid_body");
    }
    // An empty list goes back to the figures chosen by activity.
    const cleared = await change(s, { settingsVersion: 2, headlineKeys: [] });
    expect(((await cleared.json()) as Settings).headlineKeys).toEqual([]);
    expect((await read(s)).settingsVersion).toBe(3);
  });

  test("a uuid or any unknown field in the body is refused", async () => {
    const s = await newPlayer();
    for (const body of [
      { settingsVersion: 1, uuid: s.uuid },
      { settingsVersion: 1, categories: { combat: "yes" } },
      { findable: true },
    ]) {
      const res = await change(s, body);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe("invalid_body");
    }
    expect((await read(s)).settingsVersion).toBe(1);
  });
});
