// Labels in the API's answers (issue 34, docs/decisions.md "Labels in the API's answers"): the JSON
// a mod, a widget or an overlay reads names an item key by the game's own name, as the page does;
// until the list is first fetched, by its id in words; with the list's upstream down, by the last
// good copy. A key reads the same everywhere in one answer and two keys never read the same in it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(60_000);
import { pageEnv } from "../web/env.ts";
import { TODAY, patchSettings } from "../web/seed.ts";
import { PROFILE, envelope, uploader, type Uploader } from "../support/uploads.ts";
import { refreshItemList } from "../../src/items/item-names.ts";
import { addDays } from "../../src/wire/day.ts";

const NAME = "Label_Reader";
// Named by the game "Storm's Leggings" (the recorded item list); the id in words is wrong.
const NAMED = "loot.item.WISE_WITHER_LEGGINGS";
// Named by the game "Absorption Potion"; the item below is not in the list and reads the same in words.
const POTION = "loot.item.TANK_DUNGEON_ABILITY_2";
const LOOKALIKE = "loot.item.ABSORPTION_POTION";
// Two keys the catalogue does not know, one word apart only in their namespace.
const SKILLS = ["mining.skill.xp", "farming.skill.xp"];
const MINUTES = 60_000;

let env: Awaited<ReturnType<typeof pageEnv>>;
let player: Uploader;

type Labelled = { key: string; label: string };
type Totals = { profile: { keys: Labelled[] }; account: { keys: Labelled[] } };
type Periods = { periods: { period: string; keys: Labelled[] }[] };
type PublicPage = { headline: Labelled[]; period: { profile: Labelled[] | null; account: Labelled[] } };

const get = async <T>(path: string, auth = true): Promise<T> => {
  const res = await env.t.request(path, auth ? { headers: player.auth } : {});
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return (await res.json()) as T;
};
const totals = () => get<Totals>(`/v1/stats/totals?profile=${PROFILE}`);
const periods = () => get<Periods>(`/v1/stats/periods?profile=${PROFILE}`);
const publicPage = () => get<PublicPage>(`/v1/pages/${NAME}?period=month`, false);
const labelOf = (list: Labelled[], key: string) => list.find((f) => f.key === key)?.label;

/** Every (key, label) of an answer: one label per key, one key per label. */
function oneLabelPerKey(lists: Labelled[][]) {
  const byKey = new Map<string, Set<string>>();
  const byLabel = new Map<string, Set<string>>();
  for (const f of lists.flat()) {
    byKey.set(f.key, (byKey.get(f.key) ?? new Set()).add(f.label));
    byLabel.set(f.label, (byLabel.get(f.label) ?? new Set()).add(f.key));
  }
  return {
    keysWithTwoLabels: [...byKey].filter(([, l]) => l.size > 1).map(([k]) => k),
    labelsOfTwoKeys: [...byLabel].filter(([, k]) => k.size > 1).map(([l]) => l),
  };
}

beforeAll(async () => {
  env = await pageEnv();
  player = await uploader(env.t, { name: NAME, zone: "Europe/Berlin" });
  const block = (day: string, rows: { k: string; v: number }[]) => ({
    profileId: PROFILE,
    scope: "day" as const,
    day,
    rows,
  });
  const res = await player.send(
    envelope(env.t, {
      profile: { id: PROFILE, cuteName: "Pomegranate" },
      counters: [
        block(TODAY, [
          { k: NAMED, v: 3 },
          { k: POTION, v: 5 },
          { k: SKILLS[0]!, v: 1200 },
          { k: SKILLS[1]!, v: 800 },
        ]),
        // Ten days ago: in this month's and year's periods, not in today's or (in most weeks) this week's.
        block(addDays(TODAY, -10), [{ k: LOOKALIKE, v: 7 }]),
      ],
    }),
  );
  expect(res.status).toBe(200);
  await patchSettings(env.t, player, { findable: true, headlineKeys: [NAMED, POTION, LOOKALIKE] });
});
afterAll(() => env.close());

describe("labels in the API's answers", () => {
  test("before the item list was ever fetched, an item key's label is its id in words", async () => {
    const t = await totals();
    expect(labelOf(t.profile.keys, NAMED)).toBe("Wise Wither Leggings");
  });

  test("with the list stored, totals, series, periods and the public figures name the item as the game does", async () => {
    expect((await refreshItemList({ ...env.t, log: env.t.log })).fetched).toBe(1);
    // The instance reads the stored list again within ITEM_NAMES_RELOAD_MS (10 minutes).
    env.t.clock.advance(10 * MINUTES);
    expect(labelOf((await totals()).profile.keys, NAMED)).toBe("Storm's Leggings");
    const series = await get<Labelled>(`/v1/stats/series?profile=${PROFILE}&key=${NAMED}`);
    expect(series.label).toBe("Storm's Leggings");
    for (const p of (await periods()).periods)
      expect({ p: p.period, l: labelOf(p.keys, NAMED) }).toEqual({
        p: p.period,
        l: "Storm's Leggings",
      });
    const page = await publicPage();
    expect(labelOf(page.headline, NAMED)).toBe("Storm's Leggings");
    // The page itself says the same.
    const html = await (await env.t.request(`/u/${NAME}`, { headers: { accept: "text/html" } })).text();
    expect(html.replaceAll("&#x27;", "'")).toContain("Storm's Leggings");
  });

  test("two keys never share a label in one answer, and a key reads the same throughout it", async () => {
    const t = await totals();
    const p = await periods();
    const page = await publicPage();
    const answers = {
      totals: [t.profile.keys, t.account.keys],
      periods: p.periods.map((x) => x.keys),
      page: [page.headline, page.period.profile ?? [], page.period.account],
    };
    for (const [name, lists] of Object.entries(answers))
      expect({ name, ...oneLabelPerKey(lists) }).toEqual({ name, keysWithTwoLabels: [], labelsOfTwoKeys: [] });
    // The game's "Absorption Potion" and an unlisted id that reads the same: both keep their key.
    expect(labelOf(t.profile.keys, POTION)).toBe(`Absorption Potion (${POTION})`);
    expect(labelOf(t.profile.keys, LOOKALIKE)).toBe(`Absorption Potion (${LOOKALIKE})`);
    // In today's period only the game's potion is there, yet it reads as in the month beside it.
    const day = p.periods.find((x) => x.period === "day")!;
    expect(labelOf(day.keys, LOOKALIKE)).toBeUndefined();
    expect(labelOf(day.keys, POTION)).toBe(`Absorption Potion (${POTION})`);
    // Keys the catalogue does not know keep their namespace.
    expect(SKILLS.map((k) => labelOf(t.profile.keys, k))).toEqual(["Mining skill xp", "Farming skill xp"]);
    expect(labelOf(page.headline, LOOKALIKE)).toBe(`Absorption Potion (${LOOKALIKE})`);
  });

  test("with the item list's upstream down, answers keep the last good copy's names", async () => {
    env.game.state.failure = "cloudflare502";
    try {
      expect(await refreshItemList({ ...env.t, log: env.t.log }, { force: true })).toEqual({
        fetched: 0,
        items: 0,
        failed: 1,
      });
      env.t.clock.advance(10 * MINUTES);
      expect(labelOf((await totals()).profile.keys, NAMED)).toBe("Storm's Leggings");
      expect(labelOf((await publicPage()).headline, NAMED)).toBe("Storm's Leggings");
    } finally {
      env.game.state.failure = "none";
    }
  });
});
