// A player with September, October and a few of November's days recorded, each profile and the
// account scope, sessions and personal bests; the clock then moved past October's close and the
// close job run, so October's recap (and, with `year`, 2026's) is stored. With `boards`, the player
// opted in to every board before uploading, beside two rivals on October's Kills and Time played
// boards, and the recaps are stored with their board placements (as the recaps.close job does).
import type { TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, ACCOUNT, type Uploader } from "../support/uploads.ts";
import { rng } from "../support/random.ts";
import { addDays } from "../../src/wire/day.ts";
import { closeRecaps, type RecapDeps } from "../../src/recaps/recaps.ts";
import { placementsOf } from "../../src/boards/placements.ts";
import { builtInBoards } from "../../src/boards/definitions.ts";
import { boardPlayer, optIn, upload } from "../boards/support.ts";

export const SECOND_PROFILE = "9f1c2a3b4d5e6f708192a3b4c5d6e7f9";
export const RECAP_START = "2026-11-01T12:00:00Z";

const KEYS = [
  "mining.blocks.total",
  "loot.item.ENCHANTED_GOLD",
  "loot.item.NECRON_HANDLE",
  "loot.item.ENCHANTED_GOLDEN_CARROT_OF_THE_MOUNTAIN_KING_SUPREME_EDITION",
  "kills.island.crimson_isle",
  "kills.island.dwarven_mines",
  "fishing.catch.total",
  "farming.crops.WHEAT",
];

export async function seedRecapPlayer(
  t: TestApp,
  name: string,
  opts: { year?: boolean; boards?: boolean } = {},
): Promise<Uploader> {
  t.clock.set(RECAP_START);
  const player = await uploader(t, { name, zone: "Europe/Berlin" });
  if (opts.boards) {
    await optIn(t, player, { all: true, groups: [] });
    // October is still open on 1 November (a window takes uploads a day past its end).
    const ahead = await boardPlayer(t, "Rival_Ahead", { zone: "UTC" });
    await upload(t, ahead, { "2026-10-12": { "kills.island.hub": 150_000 } });
    await upload(t, ahead, { "2026-10-12": { "tally.playtime.total": 36_000_000 } }, ACCOUNT);
    const behind = await boardPlayer(t, "Rival_Behind", { zone: "UTC" });
    await upload(t, behind, { "2026-10-20": { "kills.island.hub": 12 } });
  }
  const r = rng(name.length * 7919);
  const at = (day: string, h: number) => Date.parse(`${day}T${String(h).padStart(2, "0")}:00:00Z`);
  for (const [profile, cuteName] of [
    [PROFILE, "Pomegranate"],
    [SECOND_PROFILE, "Kiwi"],
  ] as const) {
    const counters = [];
    const sessions = [];
    const timeline = [];
    for (let day = "2026-09-01"; day <= "2026-10-31"; day = addDays(day, 1)) {
      if (!r.chance(profile === PROFILE ? 0.7 : 0.25)) continue;
      counters.push({
        profileId: profile,
        scope: "day" as const,
        day,
        rows: KEYS.filter(() => r.chance(0.6)).map((k) => ({ k, v: 1 + r.int(k.startsWith("mining") ? 40_000 : 900) })),
      });
      if (profile === PROFILE)
        counters.push({
          profileId: ACCOUNT,
          scope: "day" as const,
          day,
          rows: [{ k: "tally.playtime.total", v: 600_000 + r.int(14_400_000) }],
        });
      if (r.chance(0.3)) {
        const ms = 300_000 + r.int(9_000_000);
        sessions.push({
          id: `${cuteName}-${day}`,
          activity: r.pick(["mining", "dungeon", "fishing"]),
          day,
          startedAt: at(day, 15),
          endedAt: at(day, 15) + ms,
          gains: [],
          costs: [],
        });
      }
      if (r.chance(0.15))
        timeline.push({
          id: `${cuteName}-pb-${day}`,
          kind: "personal_best",
          day,
          at: at(day, 16),
          key: "dungeon.best_split.F7.finish",
          value: 200_000 + r.int(100_000),
        });
    }
    const res = await player.send(
      envelope(t, {
        profile: { id: profile, cuteName },
        counters: counters.filter((c) => c.rows.length > 0),
        sessions,
        timeline,
      }),
    );
    if (res.status !== 200) throw new Error(`recap seed: ${res.status} ${await res.text()}`);
  }
  const deps: RecapDeps = { db: t.db, clock: t.clock, catalogue: t.catalogue };
  if (opts.boards) {
    const boards = builtInBoards(t.catalogue);
    deps.placements = (uuid, period) => placementsOf({ db: t.db, boards }, uuid, period);
  }
  t.clock.set("2026-11-02T12:00:00Z");
  await closeRecaps(deps);
  if (opts.year) {
    t.clock.set("2027-01-02T12:00:00Z");
    await closeRecaps(deps);
  }
  return player;
}
