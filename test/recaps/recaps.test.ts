// Recaps against figures computed here in JavaScript from random uploads (issue 35): active days,
// the longest streak (cut at the month's edges), the busiest day, top gains per group and the
// change against the whole month before; the close job stores each period once, only once it has
// closed in the account's zone (the day after its end is grace), and erasure removes recaps.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, ACCOUNT, INSTALL_A, INSTALL_B, type Uploader } from "../support/uploads.ts";
import { rng } from "../support/random.ts";
import { addDays } from "../../src/wire/day.ts";
import { closeRecaps } from "../../src/recaps/recaps.ts";
import { closeDaysPass } from "../../src/stats/rollups.ts";
import { storedRecap } from "../../src/recaps/recaps.ts";
import { describeKey } from "../../src/stats/fold.ts";
import type { ScopeRecap } from "../../src/recaps/recap-body.ts";

const COUNT_KEYS = [
  "mining.blocks.total",
  "loot.item.ENCHANTED_GOLD",
  "loot.item.NECRON_HANDLE",
  "loot.item.SUMMONING_EYE",
  "loot.item.ENCHANTED_DIAMOND",
  "kills.island.crimson_isle",
  "kills.island.dwarven_mines",
];
const OTHER_KEYS: { k: string; m: "max" | "min" }[] = [
  { k: "kills.best.hit", m: "max" },
  { k: "dungeon.best_split.F7.finish", m: "min" },
];
const FROM = "2026-09-01";
const TO = "2026-10-31";
/** Always active: a streak across the month's edge (three days each side). */
const EDGE = ["2026-09-28", "2026-09-29", "2026-09-30", "2026-10-01", "2026-10-02", "2026-10-03"];

type DayRows = Map<string, Map<string, Map<string, number>>>; // scope -> day -> key -> summed value
let t: TestApp;
let player: Uploader;
const truth: DayRows = new Map([
  [PROFILE, new Map()],
  [ACCOUNT, new Map()],
]);
const sessions: { day: string; ms: number; activity: string }[] = [];
const bests: { day: string; key: string; value: number }[] = [];

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-11-01T12:00:00Z" });
  player = await uploader(t, { name: "Recap_Rita", zone: "Europe/Berlin" });
  const r = rng(35);
  const perInstall = new Map<
    string,
    { profileId: string; scope: "day"; day: string; rows: { k: string; v: number; m?: "max" | "min" }[] }[]
  >([
    [INSTALL_A, []],
    [INSTALL_B, []],
  ]);
  for (let day = FROM; day <= TO; day = addDays(day, 1)) {
    if (!EDGE.includes(day) && !r.chance(0.55)) continue;
    for (const install of [INSTALL_A, INSTALL_B]) {
      if (install === INSTALL_B && !r.chance(0.3)) continue;
      const rows: { k: string; v: number; m?: "max" | "min" }[] = [];
      for (const k of COUNT_KEYS) if (r.chance(0.5)) rows.push({ k, v: 1 + r.int(5000) });
      for (const o of OTHER_KEYS) if (r.chance(0.3)) rows.push({ k: o.k, v: 1000 + r.int(90_000), m: o.m });
      if (rows.length === 0) rows.push({ k: "mining.blocks.total", v: 1 });
      perInstall.get(install)!.push({ profileId: PROFILE, scope: "day", day, rows });
      const byKey = truth.get(PROFILE)!.get(day) ?? new Map<string, number>();
      for (const row of rows) byKey.set(row.k, (byKey.get(row.k) ?? 0) + row.v);
      truth.get(PROFILE)!.set(day, byKey);
      if (install === INSTALL_A && r.chance(0.4)) {
        const v = 60_000 + r.int(3_600_000);
        perInstall
          .get(install)!
          .push({ profileId: ACCOUNT, scope: "day", day, rows: [{ k: "tally.playtime.total", v }] });
        truth.get(ACCOUNT)!.set(day, new Map([["tally.playtime.total", v]]));
      }
    }
    if (r.chance(0.3)) {
      const ms = 60_000 + r.int(7_200_000);
      sessions.push({ day, ms, activity: r.pick(["mining", "dungeon", "fishing"]) });
    }
    if (r.chance(0.2)) bests.push({ day, key: "dungeon.best_split.F7.finish", value: 200_000 + r.int(100_000) });
  }
  const at = (day: string, h: number) => Date.parse(`${day}T${String(h).padStart(2, "0")}:00:00Z`);
  for (const [install, counters] of perInstall) {
    const res = await player.send(
      envelope(t, {
        install,
        counters,
        ...(install === INSTALL_A
          ? {
              sessions: sessions.map((s, i) => ({
                id: `s-${i}`,
                activity: s.activity,
                day: s.day,
                startedAt: at(s.day, 9),
                endedAt: at(s.day, 9) + s.ms,
                gains: [],
                costs: [],
              })),
              timeline: bests.map((b, i) => ({
                id: `e-${i}`,
                kind: "personal_best",
                day: b.day,
                at: at(b.day, 10),
                key: b.key,
                value: b.value,
              })),
            }
          : {}),
      }),
    );
    expect(res.status).toBe(200);
  }
});
afterAll(() => t.close());

/** The figures of a month for one scope's days (or all scopes together), computed here. */
function expected(scopes: string[], from: string, to: string) {
  const days = new Map<string, number>();
  for (const s of scopes)
    for (const [day, keys] of truth.get(s)!)
      if (day >= from && day <= to) days.set(day, (days.get(day) ?? 0) + keys.size);
  const sorted = [...days.keys()].sort();
  let streak = { days: 0, from: "", to: "" };
  let start = 0;
  sorted.forEach((d, i) => {
    if (i > 0 && addDays(sorted[i - 1]!, 1) !== d) start = i;
    if (i - start + 1 > streak.days) streak = { days: i - start + 1, from: sorted[start]!, to: d };
  });
  let busiest: { day: string; figures: number } | null = null;
  for (const d of sorted) if (!busiest || days.get(d)! > busiest.figures) busiest = { day: d, figures: days.get(d)! };
  return { activeDays: sorted.length, streak, busiest };
}

function gains(scope: string, from: string, to: string) {
  const sum = new Map<string, number>();
  for (const [day, keys] of truth.get(scope)!)
    if (day >= from && day <= to)
      for (const [k, v] of keys) if (!OTHER_KEYS.some((o) => o.k === k)) sum.set(k, (sum.get(k) ?? 0) + v);
  return sum;
}

/** Top gains as the recap shows them, from sums computed here. */
function expectedTop(now: Map<string, number>, before: Map<string, number>) {
  const byGroup = new Map<string, { key: string; value: number }[]>();
  for (const [key, value] of now) {
    const group = describeKey(t.catalogue, key).group;
    byGroup.set(group, [...(byGroup.get(group) ?? []), { key, value }]);
  }
  return [...byGroup]
    .map(([group, list]) => ({
      group,
      gains: list
        .sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : 1))
        .slice(0, 3)
        .map((g) => ({ key: g.key, unit: "count", value: g.value, previous: before.get(g.key) ?? null })),
    }))
    .sort((a, b) => b.gains[0]!.value - a.gains[0]!.value || (a.group < b.group ? -1 : 1));
}

describe("the close job", () => {
  test("stores nothing while October is open in the account's zone (1 November is its grace day)", async () => {
    const run = await closeRecaps({ db: t.db, clock: t.clock, catalogue: t.catalogue });
    expect(run.stored).toBe(0);
    expect(await storedRecap(t.db, player.uuid, "2026-10")).toBeNull();
  });

  test("stores each closed month once: a second run stores nothing and answers the same row", async () => {
    t.clock.set("2026-11-02T12:00:00Z");
    // Closed days too (the calendar's aggregate), so the recap reads both kinds of days.
    await closeDaysPass({ db: t.db, clock: t.clock });
    const first = await closeRecaps({ db: t.db, clock: t.clock, catalogue: t.catalogue });
    expect(first.stored).toBe(1);
    const row = await storedRecap(t.db, player.uuid, "2026-10");
    expect(row).not.toBeNull();
    t.clock.advance(3_600_000);
    const second = await closeRecaps({ db: t.db, clock: t.clock, catalogue: t.catalogue });
    expect(second.stored).toBe(0);
    expect(second.already).toBeGreaterThanOrEqual(1);
    expect(await storedRecap(t.db, player.uuid, "2026-10")).toEqual(row);
  });
});

describe("October's recap against the uploads folded here", () => {
  let account: ScopeRecap;
  let profile: ScopeRecap;
  beforeAll(async () => {
    const body = (await storedRecap(t.db, player.uuid, "2026-10"))!.body;
    account = body.account;
    expect(body.profiles.map((p) => p.cuteName)).toEqual(["Pomegranate"]);
    profile = body.profiles[0]!.recap;
  });

  test("active days, the longest streak (cut at 1 October) and the busiest day", () => {
    for (const [recap, scopes] of [
      [account, [PROFILE, ACCOUNT]],
      [profile, [PROFILE]],
    ] as const) {
      const e = expected([...scopes], "2026-10-01", "2026-10-31");
      const before = expected([...scopes], "2026-09-01", "2026-09-30");
      expect(recap.activeDays).toBe(e.activeDays);
      expect(recap.previousActiveDays).toBe(before.activeDays);
      expect(recap.longestStreak).toEqual(e.streak);
      expect(recap.longestStreak!.from >= "2026-10-01").toBe(true);
      expect(recap.busiestDay).toEqual(e.busiest);
      expect(recap.perStep.length).toBe(31);
      expect(recap.perStep.filter((n) => n > 0).length).toBe(e.activeDays);
    }
  });

  test("September's streak ends on its last day, counted in September only", async () => {
    t.clock.set("2026-11-02T13:00:00Z");
    // September ended more than the job's lookback ago: computed directly for this check.
    const { computeRecap } = await import("../../src/recaps/compute.ts");
    const sept = (await computeRecap({ db: t.db, catalogue: t.catalogue }, player.uuid, "2026-09"))!;
    const e = expected([PROFILE, ACCOUNT], "2026-09-01", "2026-09-30");
    expect(sept.account.longestStreak).toEqual(e.streak);
    expect(e.streak.to <= "2026-09-30").toBe(true);
  });

  test("top gains per group: each count key's sum over both installs, with the whole of September beside it", () => {
    const want = expectedTop(gains(PROFILE, "2026-10-01", "2026-10-31"), gains(PROFILE, "2026-09-01", "2026-09-30"));
    expect(profile.topGains).toEqual(want);
    // The account's own gains are its scope's keys (playtime).
    const playtime = gains(ACCOUNT, "2026-10-01", "2026-10-31").get("tally.playtime.total");
    expect(account.topGains[0]?.gains[0]?.value).toBe(playtime!);
  });

  test("the longest session and the personal bests of October", () => {
    const oct = sessions.filter((s) => s.day >= "2026-10-01");
    const longest = oct.reduce<(typeof oct)[number] | null>((a, s) => (!a || s.ms > a.ms ? s : a), null);
    expect(profile.longestSession).toEqual(longest && { activity: longest.activity, day: longest.day, ms: longest.ms });
    const pb = bests.filter((b) => b.day >= "2026-10-01");
    expect(profile.personalBests.count).toBe(pb.length);
    expect(profile.personalBests.latest[0]?.day).toBe(pb.at(-1)?.day);
  });
});

describe("the year", () => {
  test("2026 is stored once the year has closed in the account's zone, its chart a month a bar", async () => {
    // 1 January is the grace day: Berlin's 2 January closes the year.
    t.clock.set("2027-01-01T12:00:00Z");
    expect((await closeRecaps({ db: t.db, clock: t.clock, catalogue: t.catalogue })).stored).toBe(0);
    t.clock.set("2027-01-02T12:00:00Z");
    expect((await closeRecaps({ db: t.db, clock: t.clock, catalogue: t.catalogue })).stored).toBe(1);
    const year = (await storedRecap(t.db, player.uuid, "2026"))!.body;
    const e = expected([PROFILE, ACCOUNT], "2026-01-01", "2026-12-31");
    expect(year.account.activeDays).toBe(e.activeDays);
    expect(year.account.longestStreak).toEqual(e.streak);
    expect(year.account.perStep.length).toBe(12);
    expect(year.account.perStep[9]).toBe(expected([PROFILE, ACCOUNT], "2026-10-01", "2026-10-31").activeDays);
    expect(year.account.previousActiveDays).toBe(0);
    // The year's gains are its months' sums; nothing in 2025 to compare with.
    expect(year.profiles[0]!.recap.topGains).toEqual(
      expectedTop(gains(PROFILE, "2026-01-01", "2026-12-31"), new Map()),
    );
  });
});

describe("erasure", () => {
  test("erasing the statistics removes the recaps, counted", async () => {
    const res = await t.request("/v1/stats/data", { method: "DELETE", headers: player.auth });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { removed: { recaps: number } };
    expect(answer.removed.recaps).toBe(2);
    expect(await storedRecap(t.db, player.uuid, "2026-10")).toBeNull();
  });
});

describe("zones", () => {
  test("a period closes in each account's own zone: Berlin's October is stored while Honolulu's is still in its grace day", async () => {
    const z = await testApp({ settings: { devSignin: true }, now: "2026-10-20T12:00:00Z" });
    try {
      const berlin = await uploader(z, { name: "Zone_Berlin", zone: "Europe/Berlin" });
      const honolulu = await uploader(z, { name: "Zone_Honolulu", zone: "Pacific/Honolulu" });
      for (const p of [berlin, honolulu]) {
        const res = await p.send(
          envelope(z, {
            zone: { id: p === berlin ? "Europe/Berlin" : "Pacific/Honolulu" },
            counters: [
              { profileId: PROFILE, scope: "day", day: "2026-10-20", rows: [{ k: "mining.blocks.total", v: 5 }] },
            ],
          }),
        );
        expect(res.status).toBe(200);
      }
      // 2 November, 05:00 UTC: Berlin's 2 November (closed), Honolulu's 1 November at 19:00 (grace).
      z.clock.set("2026-11-02T05:00:00Z");
      const first = await closeRecaps({ db: z.db, clock: z.clock, catalogue: z.catalogue });
      expect(first).toMatchObject({ stored: 1, open: 1 });
      expect(await storedRecap(z.db, berlin.uuid, "2026-10")).not.toBeNull();
      expect(await storedRecap(z.db, honolulu.uuid, "2026-10")).toBeNull();
      z.clock.set("2026-11-02T12:00:00Z");
      const second = await closeRecaps({ db: z.db, clock: z.clock, catalogue: z.catalogue });
      expect(second).toMatchObject({ stored: 1, already: 1, open: 0 });
      expect((await storedRecap(z.db, honolulu.uuid, "2026-10"))!.body.account.activeDays).toBe(1);
    } finally {
      await z.close();
    }
  });
});
