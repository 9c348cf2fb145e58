// Open days (docs/decisions.md): counter_rollups holds exactly the fold of each account's day rows
// up to its mark (counter_marks); later days are written without moving a rollup and folded when
// read; the stats.rollups pass closes days older than yesterday. Every figure reads the same
// whichever side of the mark its days are on.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, asc, countDistinct, eq, lte } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import { backend, emptyDatabase } from "../support/db.ts";
import { envelope, uploader, INSTALL_A, INSTALL_B, PROFILE, ACCOUNT, type Uploader } from "../support/uploads.ts";
import { storedState } from "../support/stored.ts";
import { counterDays, counterKeys, counterMarks, counterRollups } from "../../src/stats/counters.table.ts";
import { counterDayKeys } from "../../src/stats/calendar.table.ts";
import { chartSeries, keysWithLifetime } from "../../src/stats/fold.ts";
import { closeDaysPass } from "../../src/stats/rollups.ts";
import { recomputeRollups } from "../../src/stats/rollup.query.ts";
import { lockAccountStats } from "../../src/stats/counters.query.ts";
import { retentionPass, sealPass } from "../../src/stats/seal.ts";
import { migrate } from "../../src/db/migrate.ts";
import { migrations } from "../../src/db/migrations.gen.ts";
import { addDays } from "../../src/wire/day.ts";
import type { CounterBlock } from "../../src/wire/envelope.ts";

const MAX = Number.MAX_SAFE_INTEGER;
const NOW = "2026-06-10T12:00:00Z"; // Europe/Berlin: today 2026-06-10, so a new account's mark is 2026-06-08
let t: TestApp;
beforeAll(async () => (t = await testApp({ settings: { devSignin: true }, now: NOW })));
afterAll(() => t.close());

const block = (day: string, rows: CounterBlock["rows"]): CounterBlock => ({
  profileId: PROFILE,
  scope: "day",
  day,
  rows,
});
let sent = 0;
const send = (u: Uploader, install: string, blocks: CounterBlock[], sentAt = t.clock.now() + ++sent) =>
  u.send(envelope(t, { install, sentAt, counters: blocks }));
async function ok(res: Response) {
  expect(res.status).toBe(200);
}
const close = (at: string) => {
  t.clock.set(at);
  return closeDaysPass({ db: t.db, clock: t.clock });
};
const totalsText = async (u: Uploader) =>
  (await t.request(`/v1/stats/totals?profile=${PROFILE}`, { headers: u.auth })).text();
type Lifetime = { value: number; days: { first: string; last: string } | null };
const lifetimeOf = async (u: Uploader, key: string) =>
  (JSON.parse(await totalsText(u)) as { profile: { keys: { key: string; lifetime: Lifetime }[] } }).profile.keys.find(
    (k) => k.key === key,
  )?.lifetime;
const chartsText = async (u: Uploader, from = "2026-05-01", to = "2026-06-30") =>
  JSON.stringify([
    ...(await chartSeries({ db: t.db, catalogue: t.catalogue }, u.uuid, [PROFILE, ACCOUNT], from, to)).get(PROFILE)!,
  ]);
const markOf = async (uuid: string) =>
  (await t.db.select().from(counterMarks).where(eq(counterMarks.uuid, uuid)))[0]?.closedThrough ?? null;
const rollupsOf = (uuid: string) =>
  t.db
    .select()
    .from(counterRollups)
    .where(eq(counterRollups.uuid, uuid))
    .orderBy(asc(counterRollups.profileId), asc(counterRollups.key));
const rollupOf = async (uuid: string, key: string) =>
  (
    await t.db
      .select()
      .from(counterRollups)
      .where(and(eq(counterRollups.uuid, uuid), eq(counterRollups.key, key)))
  )[0];

/** The stored rollups equal a rebuild from the closed day rows (the rebuild is rolled back). */
async function expectInvariant(uuid: string) {
  const stored = await rollupsOf(uuid);
  const keys = [
    ...new Set(
      (await t.db.select({ key: counterDays.key }).from(counterDays).where(eq(counterDays.uuid, uuid))).map(
        (r) => r.key,
      ),
    ),
  ];
  let rebuilt: typeof stored = [];
  await t.db
    .transaction(async (tx) => {
      await recomputeRollups(tx, uuid, keys);
      rebuilt = await tx
        .select()
        .from(counterRollups)
        .where(eq(counterRollups.uuid, uuid))
        .orderBy(asc(counterRollups.profileId), asc(counterRollups.key));
      throw new Error("rollback");
    })
    .catch((e: Error) => expect(e.message).toBe("rollback"));
  // What each key's kind reads must match (a count's max, or the install of a sealed day's last
  // reading, is never read and may differ, as the seal and the uploads move rollups by what changed);
  // a stale rollup's max and min wait for the read that rebuilds them.
  const kinds = new Map((await t.db.select().from(counterKeys)).map((k) => [k.key, k.kind]));
  const comparable = (list: typeof stored, staleOf: (i: number) => boolean) =>
    list.map((r, i) => {
      const kind = kinds.get(r.key);
      const stale = staleOf(i);
      return {
        key: `${r.profileId} ${r.key}`,
        days: [r.firstDay, r.lastDay],
        read:
          kind === "count"
            ? [r.sum, r.pos, r.neg]
            : kind === "max"
              ? [stale ? 0 : r.max]
              : kind === "min"
                ? [stale ? 0 : r.min]
                : [r.lastValue, r.lastSentAt],
      };
    });
  expect(comparable(stored, (i) => stored[i]!.stale)).toEqual(comparable(rebuilt, (i) => stored[i]?.stale ?? false));
  // The calendar's counts hold each closed day's distinct keys per profile (issue 40).
  const mark = await markOf(uuid);
  const counted = await t.db
    .select({ profileId: counterDays.profileId, day: counterDays.day, keys: countDistinct(counterDays.key) })
    .from(counterDays)
    .where(and(eq(counterDays.uuid, uuid), lte(counterDays.day, mark ?? "0001-01-01")))
    .groupBy(counterDays.profileId, counterDays.day)
    .orderBy(asc(counterDays.profileId), asc(counterDays.day));
  const kept = await t.db
    .select({ profileId: counterDayKeys.profileId, day: counterDayKeys.day, keys: counterDayKeys.keys })
    .from(counterDayKeys)
    .where(eq(counterDayKeys.uuid, uuid))
    .orderBy(asc(counterDayKeys.profileId), asc(counterDayKeys.day));
  expect(kept).toEqual(counted);
}

describe("a new account", () => {
  test("is closed through its today minus 2 at its first upload; open days move no rollup and are folded when read", async () => {
    t.clock.set(NOW);
    const u = await uploader(t);
    await ok(
      await send(u, INSTALL_A, [
        block("2026-06-05", [
          { k: "mining.open.count", v: 10, m: "count" },
          { k: "mining.open.gauge", v: 100, m: "gauge" },
        ]),
      ]),
    );
    expect(await markOf(u.uuid)).toBe("2026-06-08");
    await ok(
      await send(u, INSTALL_A, [
        block("2026-06-10", [
          { k: "mining.open.count", v: 5 },
          { k: "mining.open.gauge", v: 70 },
        ]),
        block("2026-06-09", [{ k: "mining.open.fresh", v: 3, m: "count" }]),
      ]),
    );
    expect(await rollupOf(u.uuid, "mining.open.count")).toMatchObject({
      sum: 10,
      firstDay: "2026-06-05",
      lastDay: "2026-06-05",
    });
    expect(await rollupOf(u.uuid, "mining.open.gauge")).toMatchObject({ lastValue: 100, lastDay: "2026-06-05" });
    expect(await rollupOf(u.uuid, "mining.open.fresh")).toBeUndefined();
    expect(await lifetimeOf(u, "mining.open.count")).toMatchObject({
      value: 15,
      days: { first: "2026-06-05", last: "2026-06-10" },
    });
    expect(await lifetimeOf(u, "mining.open.gauge")).toMatchObject({
      value: 70,
      days: { first: "2026-06-05", last: "2026-06-10" },
    });
    // A key with open days only still shows, in the totals and the charts.
    expect(await lifetimeOf(u, "mining.open.fresh")).toMatchObject({
      value: 3,
      days: { first: "2026-06-09", last: "2026-06-09" },
    });
    const charts = await chartsText(u);
    expect(JSON.parse(charts)).toContainEqual(["mining.open.fresh", [{ day: "2026-06-09", value: 3 }]]);
    expect(JSON.parse(charts)).toContainEqual([
      "mining.open.count",
      [
        { day: "2026-06-05", value: 10 },
        { day: "2026-06-10", value: 5 },
      ],
    ]);
    await expectInvariant(u.uuid);

    // Two days later the job closes them: the rollups take them in, and nothing read changes.
    const totals = await totalsText(u);
    const result = await close("2026-06-12T12:00:00Z");
    expect(result.accounts).toBeGreaterThanOrEqual(1);
    expect(await markOf(u.uuid)).toBe("2026-06-10");
    expect(await rollupOf(u.uuid, "mining.open.count")).toMatchObject({ sum: 15, pos: 15, lastDay: "2026-06-10" });
    expect(await rollupOf(u.uuid, "mining.open.fresh")).toMatchObject({ sum: 3, firstDay: "2026-06-09" });
    expect(await rollupOf(u.uuid, "mining.open.gauge")).toMatchObject({ lastValue: 70, lastDay: "2026-06-10", sum: 0 });
    expect(await totalsText(u)).toBe(totals);
    expect(await chartsText(u)).toBe(charts);
    await expectInvariant(u.uuid);

    // Run again with the same clock: nothing to do, nothing moves.
    const rollups = await rollupsOf(u.uuid);
    expect(await closeDaysPass({ db: t.db, clock: t.clock })).toEqual({ accounts: 0, rollups: 0, skipped: 0 });
    expect(await rollupsOf(u.uuid)).toEqual(rollups);
    expect(await markOf(u.uuid)).toBe("2026-06-10");
  });
});

describe("ingest across the mark", () => {
  test("a late upload to a closed day moves the rollups; an upload to an open day does not", async () => {
    t.clock.set(NOW);
    const u = await uploader(t);
    const k = "mining.late.count";
    await ok(await send(u, INSTALL_A, [block("2026-06-05", [{ k, v: 10, m: "count" }])]));
    expect(await rollupOf(u.uuid, k)).toMatchObject({ sum: 10 });
    await ok(await send(u, INSTALL_A, [block("2026-06-05", [{ k, v: 12 }])]));
    await ok(await send(u, INSTALL_B, [block("2026-06-07", [{ k, v: 1 }])]));
    expect(await rollupOf(u.uuid, k)).toMatchObject({ sum: 13, lastDay: "2026-06-07" });
    await ok(await send(u, INSTALL_A, [block("2026-06-10", [{ k, v: 4 }])]));
    expect(await rollupOf(u.uuid, k)).toMatchObject({ sum: 13, lastDay: "2026-06-07" });
    expect((await lifetimeOf(u, k))?.value).toBe(17);
    await expectInvariant(u.uuid);
  });

  test("a gauge reads the latest reading by day, then sentAt, then install, across the mark", async () => {
    t.clock.set(NOW);
    const u = await uploader(t);
    const k = "mining.late.gauge";
    const base = t.clock.now();
    // The closed day's reading was sent later than the open day's: the later day still wins.
    await ok(await send(u, INSTALL_A, [block("2026-06-07", [{ k, v: 1, m: "gauge" }])], base + 500));
    await ok(await send(u, INSTALL_A, [block("2026-06-09", [{ k, v: 2 }])], base + 100));
    expect((await lifetimeOf(u, k))?.value).toBe(2);
    // Two installs on the open day: the later sentAt wins, then the greater install on a tie.
    await ok(await send(u, INSTALL_B, [block("2026-06-09", [{ k, v: 3 }])], base + 200));
    expect((await lifetimeOf(u, k))?.value).toBe(3);
    await ok(await send(u, INSTALL_A, [block("2026-06-09", [{ k, v: 4 }])], base + 200));
    expect((await lifetimeOf(u, k))?.value).toBe(3);
    const totals = await totalsText(u);
    await close("2026-06-12T12:00:00Z");
    expect(await rollupOf(u.uuid, k)).toMatchObject({ lastValue: 3, lastDay: "2026-06-09", lastInstall: INSTALL_B });
    expect(await totalsText(u)).toBe(totals);
    await expectInvariant(u.uuid);
  });

  test("a max key lowered on an open day, then closed; a max lowered on a closed day is rebuilt from closed days only", async () => {
    t.clock.set(NOW);
    const u = await uploader(t);
    const k = "mining.late.max";
    const m = "mining.late.min";
    await ok(
      await send(u, INSTALL_A, [
        block("2026-06-06", [
          { k, v: 30, m: "max" },
          { k: m, v: 30, m: "min" },
        ]),
        block("2026-06-09", [
          { k, v: 50 },
          { k: m, v: 10 },
        ]),
      ]),
    );
    expect((await lifetimeOf(u, k))?.value).toBe(50);
    expect((await lifetimeOf(u, m))?.value).toBe(10);
    await ok(
      await send(u, INSTALL_A, [
        block("2026-06-09", [
          { k, v: 20 },
          { k: m, v: 40 },
        ]),
      ]),
    );
    // Open days never mark a rollup stale: the closed days' rollup was right all along.
    expect(await rollupOf(u.uuid, k)).toMatchObject({ max: 30, stale: false });
    expect((await lifetimeOf(u, k))?.value).toBe(30);
    expect((await lifetimeOf(u, m))?.value).toBe(30);
    // Lowering the closed day marks it stale; the read rebuilds it from closed days only.
    await ok(
      await send(u, INSTALL_A, [
        block("2026-06-06", [
          { k, v: 5 },
          { k: m, v: 60 },
        ]),
      ]),
    );
    expect(await rollupOf(u.uuid, k)).toMatchObject({ stale: true });
    expect((await lifetimeOf(u, k))?.value).toBe(20);
    expect((await lifetimeOf(u, m))?.value).toBe(40);
    expect(await rollupOf(u.uuid, k)).toMatchObject({ max: 5, stale: false, lastDay: "2026-06-06" });
    await expectInvariant(u.uuid);
    const totals = await totalsText(u);
    await close("2026-06-12T12:00:00Z");
    expect(await rollupOf(u.uuid, k)).toMatchObject({ max: 20, min: 5, lastDay: "2026-06-09" });
    expect(await totalsText(u)).toBe(totals);
    await expectInvariant(u.uuid);
  });

  test("a count past the safe range over closed and open days together, or open days alone, is refused; nothing is stored", async () => {
    t.clock.set(NOW);
    const u = await uploader(t);
    const k = "mining.late.edge";
    await ok(await send(u, INSTALL_A, [block("2026-06-05", [{ k, v: MAX - 5, m: "count" }])]));
    await ok(await send(u, INSTALL_B, [block("2026-06-10", [{ k, v: 5 }])]));
    expect((await lifetimeOf(u, k))?.value).toBe(MAX);
    const before = await storedState(t.db, u.uuid);
    const refused = await send(u, "c".repeat(32), [block("2026-06-09", [{ k, v: 1 }])]);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("total_out_of_range");
    expect(await storedState(t.db, u.uuid)).toEqual(before);

    const o = "mining.late.open_edge";
    await ok(await send(u, INSTALL_A, [block("2026-06-10", [{ k: o, v: -MAX, m: "count" }])]));
    const again = await send(u, INSTALL_B, [block("2026-06-09", [{ k: o, v: -1 }])]);
    expect(again.status).toBe(422);
    // At the limit the job closes them without breaking the rollup's check.
    await close("2026-06-12T12:00:00Z");
    expect(await rollupOf(u.uuid, o)).toMatchObject({ sum: -MAX, neg: -MAX });
    expect(await rollupOf(u.uuid, k)).toMatchObject({ sum: MAX, pos: MAX });
    await expectInvariant(u.uuid);
  });
});

describe("the stats.rollups pass", () => {
  test("works only on accounts with days to close: one with none keeps its mark, and a day written after it is closed by the next run", async () => {
    t.clock.set("2026-06-10T12:00:00Z");
    const u = await uploader(t);
    await ok(await send(u, INSTALL_A, [block("2026-06-05", [{ k: "mining.idle.count", v: 4, m: "count" }])]));
    expect(await markOf(u.uuid)).toBe("2026-06-08");
    // Days later nothing of this account lies after its mark: the pass leaves it as it is.
    await close("2026-06-20T12:00:00Z");
    expect(await markOf(u.uuid)).toBe("2026-06-08");
    const totals = await totalsText(u);
    // A catch-up upload writes a day after the mark (now closed by the clock): the next run closes it.
    await ok(await send(u, INSTALL_A, [block("2026-06-15", [{ k: "mining.idle.count", v: 6 }])]));
    expect(await lifetimeOf(u, "mining.idle.count")).toMatchObject({ value: 10 });
    expect(await totalsText(u)).not.toBe(totals);
    await close("2026-06-20T13:00:00Z");
    expect(await markOf(u.uuid)).toBe("2026-06-18");
    expect(await rollupOf(u.uuid, "mining.idle.count")).toMatchObject({ sum: 10, lastDay: "2026-06-15" });
    await expectInvariant(u.uuid);
  });

  test("closes under the account's stats lock, and uploads racing it leave the rollups exact", async () => {
    t.clock.set(NOW);
    const u = await uploader(t);
    const k = "mining.race.count";
    await ok(
      await send(u, INSTALL_A, [block("2026-06-07", [{ k, v: 1, m: "count" }]), block("2026-06-09", [{ k, v: 2 }])]),
    );
    t.clock.set("2026-06-12T12:00:00Z");
    if (backend === "postgres") {
      // While an upload holds the account's lock, the pass waits for it.
      let done = false;
      let pass: Promise<unknown> = Promise.resolve();
      await t.db.transaction(async (tx) => {
        await lockAccountStats(tx, u.uuid);
        pass = closeDaysPass({ db: t.db, clock: t.clock }).then(() => (done = true));
        await Bun.sleep(300);
        expect(done).toBe(false);
        expect(await markOf(u.uuid)).toBe("2026-06-08");
      });
      await pass;
      expect(done).toBe(true);
      expect(await markOf(u.uuid)).toBe("2026-06-10");
    }
    // Uploads to days on both sides of the moving mark, concurrent with passes.
    const days = ["2026-06-08", "2026-06-09", "2026-06-10", "2026-06-11", "2026-06-12"];
    await Promise.all([
      ...days.map((day, i) => send(u, i % 2 ? INSTALL_A : INSTALL_B, [block(day, [{ k, v: 10 + i }])]).then(ok)),
      closeDaysPass({ db: t.db, clock: t.clock }),
      closeDaysPass({ db: t.db, clock: t.clock }),
    ]);
    expect(await markOf(u.uuid)).toBe("2026-06-10");
    // Install A's 06-09 value 2 was replaced by 11.
    expect((await lifetimeOf(u, k))?.value).toBe(1 + 10 + 11 + 12 + 13 + 14);
    await expectInvariant(u.uuid);
  });

  test("the seal and retention keep the rollups to the closed days; totals do not change", async () => {
    t.clock.set(NOW);
    const u = await uploader(t);
    const keys = [
      ["mining.life.count", "count"],
      ["mining.life.max", "max"],
      ["mining.life.gauge", "gauge"],
    ] as const;
    for (const [i, day] of ["2026-06-01", "2026-06-06", "2026-06-09", "2026-06-10"].entries()) {
      await ok(
        await send(u, INSTALL_A, [
          block(
            day,
            keys.map(([k, m], j) => ({ k, v: 10 * i + j + 1, m })),
          ),
        ]),
      );
      await ok(
        await send(u, INSTALL_B, [
          block(
            day,
            keys.map(([k], j) => ({ k, v: 5 * i + j })),
          ),
        ]),
      );
    }
    // Read through the module (a token would not outlive the clock's jumps).
    const lifetimes = async () =>
      JSON.stringify(await keysWithLifetime({ db: t.db, catalogue: t.catalogue }, u.uuid, PROFILE));
    const before = await lifetimes();
    expect(before).toContain("mining.life.gauge");
    const charts = await chartsText(u);
    // 125 days on: the seal collapses every day (open ones too, the job has not run), then the job.
    t.clock.set("2026-10-13T12:00:00Z");
    const sealed = await sealPass({ db: t.db, clock: t.clock });
    expect(sealed.rowsRemoved).toBeGreaterThan(0);
    expect(await markOf(u.uuid)).toBe("2026-06-08");
    expect(await lifetimes()).toEqual(before);
    expect(await chartsText(u)).toBe(charts);
    await expectInvariant(u.uuid);
    await closeDaysPass({ db: t.db, clock: t.clock });
    expect(await lifetimes()).toEqual(before);
    await expectInvariant(u.uuid);
    // Past the 730-day retention every day is folded into the seal baseline and deleted.
    t.clock.set("2028-07-01T12:00:00Z");
    await retentionPass({ db: t.db, clock: t.clock });
    expect(await rollupsOf(u.uuid)).toEqual([]);
    // The days are a seal baseline now: the same values, said as a baseline.
    const values = (text: string) =>
      (JSON.parse(text) as { key: string; lifetime: { value: number } }[]).map((k) => [k.key, k.lifetime.value]);
    expect(values(await lifetimes())).toEqual(values(before));
    await expectInvariant(u.uuid);
  });

  test("erasing the account's data removes its mark; the next upload starts a new one", async () => {
    t.clock.set(NOW);
    const u = await uploader(t);
    await ok(await send(u, INSTALL_A, [block("2026-06-09", [{ k: "mining.erase.count", v: 1, m: "count" }])]));
    expect(await markOf(u.uuid)).toBe("2026-06-08");
    expect((await t.request("/v1/stats/data", { method: "DELETE", headers: u.auth })).status).toBe(200);
    expect(await markOf(u.uuid)).toBeNull();
    t.clock.set("2026-06-20T12:00:00Z");
    await ok(await send(u, INSTALL_A, [block("2026-06-20", [{ k: "mining.erase.count", v: 1 }])]));
    expect(await markOf(u.uuid)).toBe("2026-06-18");
  });
});

test("the migration closes each existing account through its latest day, so its rollups hold exactly the closed days", async () => {
  const database = await emptyDatabase();
  try {
    const at = migrations.findIndex((m) => m.tag.endsWith("_open_days"));
    expect(at).toBeGreaterThan(0);
    await migrate(database.db, migrations.slice(0, at));
    const row = (uuid: string, day: string) => ({
      uuid,
      profileId: PROFILE,
      key: "mining.m.count",
      day,
      installId: INSTALL_A,
      value: 1,
      sentAt: 0,
    });
    await database.db
      .insert(counterDays)
      .values([
        row("a".repeat(32), "2026-05-01"),
        row("a".repeat(32), "2026-06-11"),
        row("b".repeat(32), "2025-01-01"),
      ]);
    await migrate(database.db);
    expect(
      await database.db
        .select({ uuid: counterMarks.uuid, closedThrough: counterMarks.closedThrough })
        .from(counterMarks)
        .orderBy(asc(counterMarks.uuid)),
    ).toEqual([
      { uuid: "a".repeat(32), closedThrough: "2026-06-11" },
      { uuid: "b".repeat(32), closedThrough: "2025-01-01" },
    ]);
  } finally {
    await database.close();
  }
});

test("a new account's mark is its today minus 2 in its own zone", async () => {
  t.clock.set("2026-06-10T23:30:00Z"); // already 2026-06-11 in Berlin
  const u = await uploader(t);
  await ok(await send(u, INSTALL_A, [block("2026-06-11", [{ k: "mining.zone.count", v: 1, m: "count" }])]));
  expect(await markOf(u.uuid)).toBe(addDays("2026-06-11", -2));
});
