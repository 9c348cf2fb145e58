// Statistics for the page tests: one upload per player built the way the mod builds them, with
// known gaps, a backfill baseline, every kind, the account scope, a session and timeline events
// (one of a kind the page does not know).
import type { TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, ACCOUNT, type Uploader } from "../support/uploads.ts";
import { addDays, dayIn } from "../../src/wire/day.ts";

export const SEED_NOW = "2026-06-01T12:00:00Z";
/** The account's today at SEED_NOW in Europe/Berlin. */
export const TODAY = "2026-06-01";

/** Days of mining.blocks.total (offsets from today): three stretches, so two gaps. */
export const MINING_OFFSETS = [-20, -19, -18, -14, -10, -9, -8, -7, -6];
export const MINING_DAYS = MINING_OFFSETS.map((o) => addDays(TODAY, o));
export const MINING_BACKFILL_DAY = "2026-04-30";

export type Seeded = { player: Uploader; name: string; shareKey: string | null };

/** The game profile a second upload of the page tests adds ("Kiwi"): two profiles to tell apart. */
export const SECOND_PROFILE = { id: "9f1c2a3b4d5e6f708192a3b4c5d6e7f9", cuteName: "Kiwi" };

/** One day of `rows` uploaded for the second profile (MINING_DAYS[8], a mining day); expects 200. */
export async function seedSecondProfile(t: TestApp, p: Uploader, rows: { k: string; v: number }[]) {
  const res = await p.send(
    envelope(t, {
      profile: SECOND_PROFILE,
      counters: [{ profileId: SECOND_PROFILE.id, scope: "day", day: MINING_DAYS[8]!, rows }],
    }),
  );
  if (res.status !== 200) throw new Error(`the second profile's upload was refused: ${res.status} ${await res.text()}`);
}

/** Changes a player's settings at their current version (throws when refused). */
export async function patchSettings(t: TestApp, p: Uploader, change: Record<string, unknown>) {
  const current = (await (await t.request("/v1/stats/settings", { headers: p.auth })).json()) as {
    settingsVersion: number;
  };
  const res = await t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...p.auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: current.settingsVersion, ...change }),
  });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${await res.text()}`);
}

/** Signs a player in, uploads their statistics, and sets findable / share as asked. */
export async function seedPlayer(
  t: TestApp,
  opts: { name: string; findable?: boolean; share?: boolean; cuteName?: string; uuid?: string },
): Promise<Seeded> {
  const player = await uploader(t, { uuid: opts.uuid, name: opts.name, zone: "Europe/Berlin" });
  const today = dayIn("Europe/Berlin", t.clock.now());
  if (today !== TODAY) throw new Error(`seed expects the clock at ${SEED_NOW}`);
  const dayBlocks = MINING_DAYS.map((day, i) => ({
    profileId: PROFILE,
    scope: "day" as const,
    day,
    rows: [
      { k: "mining.blocks.total", v: 1000 + i * 250 },
      { k: "kills.best.hit", v: 5000 + i * 100, m: "max" as const },
      { k: "dungeon.best_split.F7.finish", v: 312_000 - i * 1000 },
      { k: "farming.purse.coins", v: 1_250_000 + i * 10_000 },
      { k: "fishing.trophy.GOLDEN_FISH", v: i % 2 },
    ],
  }));
  const accountBlocks = MINING_DAYS.slice(-3).map((day) => ({
    profileId: ACCOUNT,
    scope: "day" as const,
    day,
    rows: [{ k: "tally.playtime.total", v: 2 * 3_600_000 + 5 * 60_000 }],
  }));
  const started = Date.parse(`${MINING_DAYS[4]}T16:00:00Z`);
  const env = envelope(t, {
    profile: { id: PROFILE, cuteName: opts.cuteName ?? "Pomegranate" },
    counters: [
      {
        profileId: PROFILE,
        scope: "backfill",
        day: MINING_BACKFILL_DAY,
        rows: [{ k: "mining.blocks.total", v: 250_000 }],
      },
      ...dayBlocks,
      ...accountBlocks,
    ],
    sessions: [
      {
        id: "sess-1",
        activity: "dungeon",
        day: MINING_DAYS[4]!,
        startedAt: started,
        endedAt: started + 25 * 60_000 + 42_444, // 25 min 42.444 s, shown to the second
        gains: [{ k: "loot.item.NECRON_HANDLE", v: 1 }],
        costs: [{ k: "farming.purse.coins", v: 50_000 }],
      },
    ],
    timeline: [
      {
        id: "evt-1",
        kind: "rare_drop",
        day: MINING_DAYS[4]!,
        at: started + 20 * 60_000,
        key: "loot.item.NECRON_HANDLE",
        value: 1,
      },
      {
        id: "evt-2",
        kind: "personal_best",
        day: MINING_DAYS[4]!,
        at: started + 24 * 60_000,
        key: "dungeon.best_split.F7.finish",
        value: 298_000,
      },
      { id: "evt-3", kind: "found_a_secret_room", day: MINING_DAYS[5]!, at: started + 86_400_000 },
    ],
  });
  const res = await player.send(env);
  if (res.status !== 200) throw new Error(`seed upload: ${res.status} ${await res.text()}`);
  if (opts.findable) await patchSettings(t, player, { findable: true });
  let shareKey: string | null = null;
  if (opts.share) {
    const share = (await (
      await t.request("/v1/stats/share/rotate", { method: "POST", headers: player.auth })
    ).json()) as { shareUrl: string };
    shareKey = share.shareUrl.split("/s/")[1]!;
  }
  return { player, name: opts.name, shareKey };
}

/** A page link as the mod gets it (POST /v1/stats/me/page-token), as a path with its query. */
export async function pageLink(t: TestApp, p: Uploader): Promise<string> {
  const { url } = (await (await t.request("/v1/stats/me/page-token", { method: "POST", headers: p.auth })).json()) as {
    url: string;
  };
  const u = new URL(url);
  return u.pathname + u.search;
}

/** An item id as long as the game has (its label is the id until item names are known): it must wrap on a phone. */
export const LONG_ITEM = "ENCHANTED_GOLDEN_CARROT_OF_THE_MOUNTAIN_KING_SUPREME_EDITION";

/** Days of the period player (offsets from today, a Monday): six weeks with a gap every fifth day. */
export const PERIOD_OFFSETS = Array.from({ length: 45 }, (_, i) => i - 44).filter((o) => (o + 44) % 5 !== 3);

/**
 * A player for the periods, the calendar, the charts and the rates: every kind on most days of six
 * weeks up to today, the purse read three times a day (so each day has a low and a high), and
 * sessions of three activities.
 */
export async function seedPeriodPlayer(t: TestApp, name: string): Promise<Seeded> {
  const player = await uploader(t, { name, zone: "Europe/Berlin" });
  if (dayIn("Europe/Berlin", t.clock.now()) !== TODAY) throw new Error(`seed expects the clock at ${SEED_NOW}`);
  const hour = 3_600_000;
  const sessionAt = (offset: number, h: number) =>
    Date.parse(`${addDays(TODAY, offset)}T${String(h).padStart(2, "0")}:00:00Z`);
  for (const reading of [0, 1, 2]) {
    const counters = PERIOD_OFFSETS.map((o, i) => ({
      profileId: PROFILE,
      scope: "day" as const,
      day: addDays(TODAY, o),
      rows: [
        { k: "mining.blocks.total", v: 600 + ((i * 37) % 23) * 60 },
        { k: "kills.best.hit", v: 5000 + ((i * 13) % 7) * 400, m: "max" as const },
        { k: "dungeon.best_split.F7.finish", v: 300_000 - ((i * 11) % 5) * 6000 },
        { k: "farming.purse.coins", v: 1_000_000 + i * 15_000 + [40_000, -60_000, 0][reading]! },
        // a long item id on the days before today (today's calendar cell counts the five above)
        ...(o < 0 ? [{ k: `loot.item.${LONG_ITEM}`, v: 1 + (i % 3) }] : []),
      ],
    }));
    const account = PERIOD_OFFSETS.map((o) => ({
      profileId: ACCOUNT,
      scope: "day" as const,
      day: addDays(TODAY, o),
      rows: [{ k: "tally.playtime.total", v: 3 * hour + (o % 3) * 20 * 60_000 }],
    }));
    const sessions =
      reading === 0
        ? [
            {
              id: "mine-1",
              activity: "mining",
              day: addDays(TODAY, -2),
              startedAt: sessionAt(-2, 15),
              endedAt: sessionAt(-2, 15) + 2 * hour,
              gains: [{ k: "mining.blocks.total", v: 4200 }],
              costs: [],
            },
            {
              id: "mine-2",
              activity: "mining",
              day: addDays(TODAY, -1),
              startedAt: sessionAt(-1, 17),
              endedAt: sessionAt(-1, 17) + hour,
              gains: [{ k: "mining.blocks.total", v: 1800 }],
              costs: [],
            },
            {
              id: "dung-1",
              activity: "dungeon",
              day: addDays(TODAY, -1),
              startedAt: sessionAt(-1, 19),
              endedAt: sessionAt(-1, 19) + 50 * 60_000,
              gains: [
                { k: "loot.item.NECRON_HANDLE", v: 2 },
                { k: `loot.item.${LONG_ITEM}`, v: 1 },
                { k: "farming.purse.coins", v: 250_000 },
              ],
              costs: [{ k: "farming.purse.coins", v: 100_000 }],
            },
          ]
        : [];
    const res = await player.send(
      envelope(t, {
        profile: { id: PROFILE, cuteName: "Mango" },
        counters: [...counters, ...account],
        ...(sessions.length ? { sessions } : {}),
      }),
    );
    if (res.status !== 200) throw new Error(`seed upload: ${res.status} ${await res.text()}`);
    t.clock.advance(1000);
  }
  await patchSettings(t, player, { findable: true });
  return { player, name, shareKey: null };
}
