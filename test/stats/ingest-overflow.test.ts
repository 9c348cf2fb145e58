// Totals past the safe integer range (issue 4, found by the fuzzer): an upload that would push a
// count key's stored day values past ±(2^53 - 1) is refused whole, 422 total_out_of_range, with the
// key and the path of its first row; nothing of it is stored and its batchId stays free. Other
// kinds never add. Baselines can still add past the range: the read clamps and says so, and the
// retention job skips (never fails on) a key whose seal would leave the range.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, INSTALL_A, INSTALL_B, PROFILE, type Uploader } from "../support/uploads.ts";
import { storedState } from "../support/stored.ts";
import { counterDays, counterRollups, counterSeals } from "../../src/stats/counters.table.ts";
import { retentionPass } from "../../src/stats/seal.ts";
import { closeDaysPass } from "../../src/stats/rollups.ts";
import { addDays } from "../../src/wire/day.ts";
import type { CounterBlock } from "../../src/wire/envelope.ts";

const MAX = Number.MAX_SAFE_INTEGER;
const TODAY = "2026-06-10";
let t: TestApp;
beforeAll(async () => (t = await testApp({ settings: { devSignin: true }, now: `${TODAY}T12:00:00Z` })));
afterAll(() => t.close());

const install = (i: number) => i.toString(16).padStart(2, "0").repeat(16);
const block = (day: string, rows: CounterBlock["rows"], scope: "day" | "backfill" = "day"): CounterBlock => ({
  profileId: PROFILE,
  scope,
  day,
  rows,
});
/** The 120 days ending today, each with one row. */
const days120 = (k: string, v: number, m?: "count" | "max" | "min" | "gauge") =>
  Array.from({ length: 120 }, (_, i) => block(addDays(TODAY, -119 + i), [{ k, v, ...(m ? { m } : {}) }]));
let sent = 0;
const env = (installId: string, counters: CounterBlock[], batchId?: string) =>
  envelope(t, { install: installId, sentAt: t.clock.now() + ++sent, counters, ...(batchId ? { batchId } : {}) });
type Refusal = { status: number; code: string; message: string; path?: string };
const refusalOf = async (res: Response): Promise<Refusal> => ({
  status: res.status,
  ...((await res.json()) as { error: Omit<Refusal, "status"> }).error,
});
const ok = async (res: Response) => {
  expect(res.status).toBe(200);
  return (await res.json()) as { duplicate: boolean; applied: { rows: number } };
};
/**
 * The key's rollup once every day through TODAY is closed (as the stats.rollups job closes them two
 * days later; the clock is put back, so later uploads of the test write to closed days).
 */
const rollupOf = async (u: Uploader, key: string) => {
  const now = t.clock.now();
  t.clock.set(`${addDays(TODAY, 2)}T12:00:00Z`);
  await closeDaysPass({ db: t.db, clock: t.clock });
  t.clock.set(now);
  return (
    await t.db
      .select()
      .from(counterRollups)
      .where(and(eq(counterRollups.uuid, u.uuid), eq(counterRollups.key, key)))
  )[0];
};
type Lifetime = { value: number; baseline: { value: number } | null; clamped?: true };
const lifetimeOf = async (u: Uploader, key: string) => {
  const res = await t.request(`/v1/stats/totals?profile=${PROFILE}`, { headers: u.auth });
  expect(res.status).toBe(200);
  return ((await res.json()) as { profile: { keys: { key: string; lifetime: Lifetime }[] } }).profile.keys.find(
    (k) => k.key === key,
  )!.lifetime;
};
const seriesOf = async (u: Uploader, key: string) =>
  (
    (await (
      await t.request(`/v1/stats/series?profile=${PROFILE}&key=${key}&from=${addDays(TODAY, -119)}&to=${TODAY}`, {
        headers: u.auth,
      })
    ).json()) as { days: { day: string; value: number }[] }
  ).days;

describe("the fuzzer's uploads: MAX_SAFE_INTEGER on 120 days from several installs", () => {
  test("are refused 422 total_out_of_range naming the key and its first row; nothing is stored; earlier data stays; the key keeps working", async () => {
    const u = await uploader(t);
    const k = "mining.fuzz.total";
    await ok(
      await u.send(
        env(INSTALL_A, [
          block(TODAY, [
            { k: "mining.other", v: 3 },
            { k, v: 7 },
          ]),
        ]),
      ),
    );
    const before = await storedState(t.db, u.uuid);
    const rollupBefore = await rollupOf(u, k);
    for (let i = 1; i <= 9; i++) {
      const refusal = await refusalOf(
        await u.send(env(install(i), [block(addDays(TODAY, 1), [{ k: "mining.other", v: 1 }]), ...days120(k, MAX)])),
      );
      expect(refusal).toMatchObject({ status: 422, code: "total_out_of_range", path: "/counters/1/rows/0/v" });
      expect(refusal.message).toContain(k);
      expect(refusal.message).toContain("nothing of this upload was stored");
    }
    expect(await storedState(t.db, u.uuid)).toEqual(before);
    expect(await rollupOf(u, k)).toEqual(rollupBefore);
    expect((await lifetimeOf(u, k)).value).toBe(7);
    // The next ordinary upload of that key applies.
    await ok(await u.send(env(INSTALL_B, [block(TODAY, [{ k, v: 5 }])])));
    expect((await lifetimeOf(u, k)).value).toBe(12);
    expect(await rollupOf(u, k)).toMatchObject({ sum: 12, pos: 12, neg: 0 });
  });

  test("the refused upload's batchId is not spent: corrected, the same batchId applies", async () => {
    const u = await uploader(t);
    const k = "mining.fuzz.retry";
    const refused = env(INSTALL_A, days120(k, MAX));
    expect(await refusalOf(await u.send(refused, { gzip: true }))).toMatchObject({
      code: "total_out_of_range",
      path: "/counters/0/rows/0/v",
    });
    const fixed = env(INSTALL_A, days120(k, 1000), refused.batchId);
    expect(await ok(await u.send(fixed, { gzip: true }))).toMatchObject({ duplicate: false, applied: { rows: 120 } });
    expect((await lifetimeOf(u, k)).value).toBe(120_000);
  });
});

describe("the limit itself", () => {
  test("a total exactly at 2^53 - 1 is accepted and read exactly; one more is refused; lowering a value makes room again", async () => {
    const u = await uploader(t);
    const k = "mining.edge.total";
    await ok(await u.send(env(INSTALL_A, [block(addDays(TODAY, -1), [{ k, v: MAX - 5 }])])));
    await ok(await u.send(env(INSTALL_B, [block(TODAY, [{ k, v: 5 }])])));
    expect(await lifetimeOf(u, k)).toEqual({
      value: MAX,
      baseline: null,
      days: { first: addDays(TODAY, -1), last: TODAY },
    } as never);
    expect(await rollupOf(u, k)).toMatchObject({ sum: MAX, pos: MAX });

    const before = await storedState(t.db, u.uuid);
    expect(await refusalOf(await u.send(env(install(3), [block(TODAY, [{ k, v: 1 }])])))).toMatchObject({
      status: 422,
      code: "total_out_of_range",
    });
    expect(await storedState(t.db, u.uuid)).toEqual(before);

    // Values are absolute: install A's lower value replaces its old one, and the room is there.
    await ok(await u.send(env(INSTALL_A, [block(addDays(TODAY, -1), [{ k, v: MAX - 6 }])])));
    await ok(await u.send(env(install(3), [block(TODAY, [{ k, v: 1 }])])));
    expect((await lifetimeOf(u, k)).value).toBe(MAX);
    expect((await seriesOf(u, k)).map((d) => d.value)).toEqual([MAX - 6, 6]);
  });

  test("the negative direction: counts adding below -(2^53 - 1) are refused; at the limit they are accepted", async () => {
    const u = await uploader(t);
    const k = "mining.edge.negative";
    await ok(await u.send(env(INSTALL_A, [block(TODAY, [{ k, v: -MAX }])])));
    expect((await lifetimeOf(u, k)).value).toBe(-MAX);
    expect(await refusalOf(await u.send(env(INSTALL_B, [block(addDays(TODAY, -1), [{ k, v: -1 }])])))).toMatchObject({
      code: "total_out_of_range",
      path: "/counters/0/rows/0/v",
    });
    expect(await rollupOf(u, k)).toMatchObject({ sum: -MAX, neg: -MAX, pos: 0 });
  });

  test("positive and negative parts are bounded apart, so no day's installs can add past the range either", async () => {
    const u = await uploader(t);
    const k = "mining.edge.mixed";
    await ok(await u.send(env(INSTALL_A, [block(TODAY, [{ k, v: MAX }])])));
    await ok(await u.send(env(INSTALL_B, [block(addDays(TODAY, -1), [{ k, v: -MAX }])])));
    expect((await lifetimeOf(u, k)).value).toBe(0);
    // The total would be 1, but today's two installs would add to MAX + 1.
    expect(await refusalOf(await u.send(env(install(3), [block(TODAY, [{ k, v: 1 }])])))).toMatchObject({
      code: "total_out_of_range",
    });
    expect((await seriesOf(u, k)).map((d) => d.value)).toEqual([-MAX, MAX]);
  });

  test.each(["max", "min", "gauge"] as const)(
    "a %s key never adds: MAX_SAFE_INTEGER on 120 days from three installs is accepted",
    async (kind) => {
      const u = await uploader(t);
      const k = `mining.edge.${kind}`;
      for (const i of [1, 2, 3])
        await ok(
          await u.send(env(install(i), days120(k, kind === "min" ? -MAX : MAX, kind), undefined), { gzip: true }),
        );
      expect((await lifetimeOf(u, k)).value).toBe(kind === "min" ? -MAX : MAX);
      expect(await rollupOf(u, k)).toMatchObject({ sum: 0, pos: 0, neg: 0 });
    },
  );
});

describe("the account's bounds of its keys' parts (upsertDays reads no key while they stay in the range)", () => {
  test("each upload widens them, so a key brought near the limit is refused one upload later", async () => {
    const u = await uploader(t);
    const k = "mining.bound.near";
    // Far below the limit, then a large step: the bounds have followed every change.
    await ok(await u.send(env(INSTALL_A, [block(addDays(TODAY, -2), [{ k, v: 10 }])])));
    await ok(await u.send(env(INSTALL_A, [block(addDays(TODAY, -1), [{ k, v: MAX - 30 }])])));
    expect(await refusalOf(await u.send(env(INSTALL_A, [block(TODAY, [{ k, v: 21 }])])))).toMatchObject({
      status: 422,
      code: "total_out_of_range",
    });
    await ok(await u.send(env(INSTALL_A, [block(TODAY, [{ k, v: 20 }])])));
    expect((await lifetimeOf(u, k)).value).toBe(MAX);
  });

  test("bounds past the range fall back to each key's own parts: other keys are still taken, the full key refused", async () => {
    const u = await uploader(t);
    await ok(await u.send(env(INSTALL_A, [block(TODAY, [{ k: "mining.bound.a", v: MAX }])])));
    // The bounds are now past the range for any growth; each key is then read on its own.
    await ok(await u.send(env(INSTALL_A, [block(TODAY, [{ k: "mining.bound.b", v: MAX }])])));
    await ok(await u.send(env(INSTALL_B, [block(addDays(TODAY, -1), [{ k: "mining.bound.c", v: 5 }])])));
    expect(
      await refusalOf(await u.send(env(INSTALL_B, [block(addDays(TODAY, -1), [{ k: "mining.bound.b", v: 1 }])]))),
    ).toMatchObject({ status: 422, code: "total_out_of_range" });
    // Closed days too: the rollup's parts are read.
    await rollupOf(u, "mining.bound.a");
    expect(
      await refusalOf(await u.send(env(install(3), [block(addDays(TODAY, -3), [{ k: "mining.bound.a", v: 1 }])]))),
    ).toMatchObject({ status: 422, code: "total_out_of_range" });
    expect((await lifetimeOf(u, "mining.bound.c")).value).toBe(5);
  });
});

describe("a fault the day write did not foresee", () => {
  test("a rollup whose sum the write would carry past bigint is refused total_out_of_range, not a 500, and nothing of the upload stays", async () => {
    const u = await uploader(t);
    const k = "mining.bound.legacy";
    const closed = addDays(TODAY, -3);
    await ok(await u.send(env(INSTALL_A, [block(closed, [{ k, v: 5 }])])));
    await rollupOf(u, k);
    // No check holds the sum itself: a stored sum near bigint's end, as an older service could leave it.
    await t.db
      .update(counterRollups)
      .set({ sum: sql`9223372036854775000` })
      .where(and(eq(counterRollups.uuid, u.uuid), eq(counterRollups.key, k)));
    const before = await storedState(t.db, u.uuid);
    const res = await u.send(
      envelope(t, {
        install: INSTALL_A,
        sentAt: t.clock.now() + ++sent,
        counters: [block(closed, [{ k, v: 10_000 }])],
        sessions: [
          {
            id: "legacy-1",
            activity: "mining",
            day: closed,
            startedAt: t.clock.now() - 3_600_000,
            endedAt: t.clock.now(),
            gains: [{ k, v: 1 }],
            costs: [],
          },
        ],
      }),
    );
    expect(await refusalOf(res)).toMatchObject({ status: 422, code: "total_out_of_range" });
    // The session sent beside the rows went with them.
    expect(await storedState(t.db, u.uuid)).toEqual(before);
  });
});

describe("baselines add past the range", () => {
  test("a backfill plus later days past 2^53 - 1 reads as the limit with clamped: true, never a rounded number", async () => {
    const u = await uploader(t);
    const k = "mining.base.huge";
    await ok(
      await u.send(
        env(INSTALL_A, [block(addDays(TODAY, -5), [{ k, v: MAX }], "backfill"), block(TODAY, [{ k, v: 5 }])]),
      ),
    );
    expect(await lifetimeOf(u, k)).toMatchObject({ value: MAX, baseline: { value: MAX }, clamped: true });
    // Below the limit the flag is absent (answers keep their bytes).
    await ok(await u.send(env(INSTALL_A, [block(addDays(TODAY, -5), [{ k, v: MAX - 10 }], "backfill")])));
    const lifetime = await lifetimeOf(u, k);
    expect(lifetime.value).toBe(MAX - 5);
    expect("clamped" in lifetime).toBe(false);
  });

  test("retention skips a key whose seal would pass the range: its day rows stay, the other keys are sealed, the run ends normally", async () => {
    const u = await uploader(t);
    const [big, small] = ["mining.retain.big", "mining.retain.small"];
    await ok(
      await u.send(
        env(INSTALL_A, [
          block("2026-06-01", [
            { k: big, v: MAX - 1 },
            { k: small, v: 3 },
          ]),
        ]),
      ),
    );
    const current = (await (await t.request("/v1/stats/settings", { headers: u.auth })).json()) as {
      settingsVersion: number;
    };
    const patched = await t.request("/v1/stats/settings", {
      method: "PATCH",
      headers: { ...u.auth, "content-type": "application/json" },
      body: JSON.stringify({ settingsVersion: current.settingsVersion, retentionDays: 120 }),
    });
    expect(patched.status).toBe(200);
    const back = t.clock.now();
    try {
      t.clock.set("2026-10-15T12:00:00Z");
      expect(await retentionPass(t)).toMatchObject({ skipped: 0 });
      await ok(
        await u.send(
          env(INSTALL_A, [
            block("2026-07-01", [
              { k: big, v: 10 },
              { k: small, v: 4 },
            ]),
          ]),
        ),
      );
      t.clock.set("2026-11-15T12:00:00Z");
      const result = await retentionPass(t);
      expect(result).toMatchObject({ skipped: 1 });
      const seals = await t.db
        .select()
        .from(counterSeals)
        .where(eq(counterSeals.uuid, u.uuid))
        .orderBy(counterSeals.key);
      expect(seals.map((s) => [s.key, s.value, s.day])).toEqual([
        [big, MAX - 1, "2026-06-16"],
        [small, 7, "2026-07-17"],
      ]);
      const left = await t.db.select().from(counterDays).where(eq(counterDays.uuid, u.uuid));
      expect(left.map((d) => [d.key, d.day, d.value])).toEqual([[big, "2026-07-01", 10]]);
      expect(await lifetimeOf(u, big)).toMatchObject({ value: MAX, clamped: true });
      expect((await lifetimeOf(u, small)).value).toBe(7);
      // And again next run: still skipped, still nothing lost.
      expect(await retentionPass(t)).toMatchObject({ skipped: 1 });
      expect((await t.db.select().from(counterDays).where(eq(counterDays.uuid, u.uuid))).length).toBe(1);
    } finally {
      t.clock.set(new Date(back).toISOString());
    }
  });
});
