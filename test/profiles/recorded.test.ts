// The allowlist, the player lookups and the profile page over answers recorded from the real game
// API (test/support/recorded/hypixel/, sources in the README there). Every allowlisted field is
// checked against the value at its real path in the recorded body, read here with plain property
// access, independently of the allowlist's own path table.
import { afterEach, describe, expect, test, afterAll, beforeAll } from "bun:test";
import { emptyTables, testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
import { testApp, loopbackFetch } from "../support/app.ts";
import { fakeGameApi } from "../support/fakes/game-api.ts";
import { fakeNames } from "../support/fakes/names.ts";
import { RECORDED_PLAYERS, recordedProfiles } from "../support/recorded.ts";
import { PROFILE_FIELDS } from "../../src/profiles/allowlist.ts";

const KEY = "0b5e8c1a-7d3f-4e2a-9c6b-1f0e2d3c4b5a";
/** Names for the recorded players, for the name service fake (the lookups go by name). */
const NAMES: Record<(typeof RECORDED_PLAYERS)[number], string> = {
  "28dfd0f3a48443e49278df91f909b596": "Recorded_A",
  c944a8cf55d74de2a6e0df125c6dadb9: "Recorded_B",
  c488c75c149f4bf9b3ad92b0bad37158: "Recorded_C",
  "17f4f6bbe838449fbdba93749dccfb55": "Recorded_D",
};

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

async function setup() {
  const game = fakeGameApi({ key: KEY });
  const names = fakeNames(RECORDED_PLAYERS.map((uuid) => ({ uuid, name: NAMES[uuid] })));
  opened.push({ close: game.stop }, { close: names.stop });
  for (const uuid of RECORDED_PLAYERS) game.players.set(uuid, recordedProfiles(uuid).profiles);
  const t = await testApp({
    database,
    settings: {
      gameApiUrl: game.url,
      gameApiKey: KEY,
      namesUrl: names.url,
      lookupRateLimit: 0,
      baseUrl: "https://tally.example",
    },
    fetch: loopbackFetch,
  });
  opened.push(t);
  return { t, game };
}

type Member = {
  profile?: { first_join?: number; deletion_notice?: unknown; coop_invitation?: { confirmed?: boolean } };
  leveling?: { experience?: number };
  currencies?: { coin_purse?: number };
  fairy_soul?: { total_collected?: number };
};
type Recorded = {
  profile_id: string;
  cute_name: string;
  selected: boolean;
  game_mode?: string;
  banking?: { balance?: number };
  members: Record<string, Member>;
};

const still = (m: Member) => !m.profile?.deletion_notice && m.profile?.coop_invitation?.confirmed !== false;
const present = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** What the document must say of one recorded profile, read at the real v2 paths. */
function fromRecorded(p: Recorded, uuid: string) {
  const me = p.members[uuid]!;
  return present({
    profileId: p.profile_id.replaceAll("-", ""),
    cuteName: p.cute_name,
    selected: p.selected,
    gameMode: p.game_mode,
    memberCount: Object.values(p.members).filter(still).length,
    bankBalance: p.banking?.balance === undefined ? undefined : Math.trunc(p.banking.balance),
    firstJoin: me.profile?.first_join,
    skyblockXp: me.leveling?.experience,
    purse: me.currencies?.coin_purse === undefined ? undefined : Math.trunc(me.currencies.coin_purse),
    fairySouls: me.fairy_soul?.total_collected,
  });
}

const lookup = async (t: Awaited<ReturnType<typeof testApp>>, uuid: string) =>
  ((await (await t.request(`/v1/gamemode/profiles/${uuid}`)).json()) as { profiles: Record<string, unknown>[] })
    .profiles;

describe("the allowlist over recorded answers", () => {
  test("every profile the player is on gives exactly the values at the real paths; every field is met", async () => {
    const { t } = await setup();
    const seen = new Set<string>();
    for (const uuid of RECORDED_PLAYERS) {
      const recorded = recordedProfiles(uuid).profiles as unknown as Recorded[];
      const mine = recorded.filter((p) => still(p.members[uuid]!));
      const doc = await lookup(t, uuid);
      expect(doc).toEqual(mine.map((p) => fromRecorded(p, uuid)));
      for (const p of doc) for (const k of Object.keys(p)) seen.add(k);
    }
    // Each allowlisted field is present in some recorded document, so each was compared to a real value.
    expect([...seen].sort()).toEqual(PROFILE_FIELDS.map((f) => f.field).sort());
  });

  test("SkyBlock experience is read from leveling.experience (the recorded Apple profile: 48330)", async () => {
    const { t } = await setup();
    const apple = (await lookup(t, RECORDED_PLAYERS[0])).find((p) => p.cuteName === "Apple")!;
    expect(apple).toEqual({
      profileId: "28dfd0f3a48443e49278df91f909b596",
      cuteName: "Apple",
      selected: true,
      memberCount: 1,
      bankBalance: 1002698535,
      firstJoin: 1574817763176,
      skyblockXp: 48330,
      purse: 306332274,
      fairySouls: 265,
    });
  });

  test("members who left (deletion notice) and pending invitations are not counted", async () => {
    const { t } = await setup();
    // "Pear": 10 member entries, 2 of them gone.
    expect((await lookup(t, RECORDED_PLAYERS[0])).find((p) => p.cuteName === "Pear")!.memberCount).toBe(8);
    // "Lemon": 5 entries: the player, 2 invited who never accepted, 2 gone.
    expect((await lookup(t, RECORDED_PLAYERS[3])).find((p) => p.cuteName === "Lemon")!.memberCount).toBe(1);
  });

  test("a profile the player is only invited to is not one of theirs", async () => {
    const { t } = await setup();
    const recorded = recordedProfiles(RECORDED_PLAYERS[2]).profiles.map((p) => p.cute_name);
    expect(recorded).toEqual(["Coconut", "Grapes", "Cucumber", "Lemon"]);
    expect((await lookup(t, RECORDED_PLAYERS[2])).map((p) => p.cuteName)).toEqual(["Coconut", "Grapes", "Lemon"]);
  });

  test("classic profiles have no game mode; special ones keep theirs; absent fields stay absent", async () => {
    const { t } = await setup();
    const a = await lookup(t, RECORDED_PLAYERS[0]);
    expect(a.map((p) => [p.cuteName, p.gameMode ?? null])).toEqual([
      ["Raspberry", null],
      ["Apple", null],
      ["Papaya", "ironman"],
      ["Banana", "bingo"],
      ["Pear", null],
    ]);
    expect(a.find((p) => p.cuteName === "Papaya")).not.toHaveProperty("skyblockXp"); // no leveling recorded
    const coconut = (await lookup(t, RECORDED_PLAYERS[1])).find((p) => p.cuteName === "Coconut")!;
    expect(coconut).toEqual({
      profileId: "f17a569972934ac4b892ed8033cb0516",
      cuteName: "Coconut",
      selected: false,
      memberCount: 1,
      firstJoin: 1591727892246,
      fairySouls: 0,
    });
    expect((await lookup(t, RECORDED_PLAYERS[3]))[0]!.gameMode).toBe("island");
    expect((await lookup(t, RECORDED_PLAYERS[2])).find((p) => p.cuteName === "Lemon")!.bankBalance).toBe(0); // a real 0 stays
  });

  test("nothing else of the recorded bodies reaches the answer: no other member, no other field", async () => {
    const { t } = await setup();
    for (const uuid of RECORDED_PLAYERS) {
      const text = await (await t.request(`/v1/gamemode/profiles/${uuid}`)).text();
      const others = recordedProfiles(uuid)
        .profiles.flatMap((p) => Object.keys(p.members as object))
        .filter((id) => id !== uuid);
      for (const leaked of [
        ...others,
        "deletion_notice",
        "coop_invitation",
        "invited_by",
        "cookie_buff_active",
        "motes_purse",
        "essence",
        "unspent_souls",
        "created_at",
      ]) {
        expect([uuid, text.includes(leaked)]).toEqual([uuid, false]);
      }
    }
  });
});

describe("player lookups and the profile page over recorded answers", () => {
  test("/summary names the recorded selected profile and counts only the player's own profiles", async () => {
    const { t } = await setup();
    const summary = async (uuid: (typeof RECORDED_PLAYERS)[number]) =>
      (await (await t.request(`/v1/players/${NAMES[uuid]}/summary`)).json()) as Record<string, unknown>;
    expect(await summary(RECORDED_PLAYERS[0])).toMatchObject({
      profileCount: 5,
      selected: { profileId: "28dfd0f3a48443e49278df91f909b596", cuteName: "Apple" },
    });
    expect(await summary(RECORDED_PLAYERS[2])).toMatchObject({
      profileCount: 3,
      selected: { profileId: "a4cf34e099f246e0b6676ae3eaee0b8b", cuteName: "Lemon" },
    });
    const island = await summary(RECORDED_PLAYERS[3]);
    expect(island.profileCount).toBe(5);
    expect(island.selected).toEqual({ profileId: expect.any(String), cuteName: "Pear" });
  });

  test("/p/<name> shows each profile's recorded figures, SkyBlock experience included", async () => {
    const { t } = await setup();
    const res = await t.request(`/p/${NAMES[RECORDED_PLAYERS[0]]}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("5 profiles");
    const apple = page.slice(page.indexOf('aria-label="Profile Apple"'));
    // No game profile id on the page (a co-op's id leads to its other members; this solo profile's
    // id is its player's uuid, which the head's address carries).
    expect(page).not.toContain("data-profile");
    const row = (label: string) =>
      new RegExp(`<th scope="row">${label}</th><td class="num">([^<]*)</td>`).exec(apple)?.[1];
    expect(row("SkyBlock experience")).toBe("48,330");
    expect(row("Members")).toBe("1");
    expect(row("Fairy souls")).toBe("265");
    expect(row("Game mode")).toBe("classic");
    expect(page).not.toContain("Cucumber");
  });
});
