// A player with September, October and a few of November's days recorded, each profile and the
// account scope, sessions and personal bests; the clock then moved past October's close and the
// close job run, so October's recap (and, with `year`, 2026's) is stored.
import type { TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, ACCOUNT, type Uploader } from "../support/uploads.ts";
import { rng } from "../support/random.ts";
import { addDays } from "../../src/wire/day.ts";
import { closeRecaps } from "../../src/recaps/recaps.ts";

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

export async function seedRecapPlayer(t: TestApp, name: string, opts: { year?: boolean } = {}): Promise<Uploader> {
  t.clock.set(RECAP_START);
  const player = await uploader(t, { name, zone: "Europe/Berlin" });
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
  t.clock.set("2026-11-02T12:00:00Z");
  await closeRecaps({ db: t.db, clock: t.clock, catalogue: t.catalogue });
  if (opts.year) {
    t.clock.set("2027-01-02T12:00:00Z");
    await closeRecaps({ db: t.db, clock: t.clock, catalogue: t.catalogue });
  }
  return player;
}
