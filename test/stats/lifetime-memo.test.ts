// The lifetime figures kept between one account's page renders (issue 40): kept for the account's
// state, for at most their time to live, within a bound on figures held, and read once by
// concurrent asks.
import { afterEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE } from "../support/uploads.ts";
import { lifetimeMemo } from "../../src/stats/lifetime-memo.ts";
import { keysWithLifetime } from "../../src/stats/fold.ts";
import { activeDays } from "../../src/stats/periods.ts";
import { retentionPass } from "../../src/stats/seal.ts";

const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

async function withKeys(n: number) {
  const t = await testApp({ settings: { devSignin: true }, now: "2026-06-10T12:00:00Z" });
  opened.push(t);
  const p = await uploader(t, { zone: "UTC" });
  const rows = Array.from({ length: n }, (_, i) => ({ k: `mining.memo.k${i}`, v: i + 1 }));
  const res = await p.send(
    envelope(t, { zone: { id: "UTC" }, counters: [{ profileId: PROFILE, scope: "day", day: "2026-06-10", rows }] }),
  );
  expect(res.status).toBe(200);
  return { t, uuid: p.uuid, fold: { db: t.db, catalogue: t.catalogue } };
}

describe("lifetime figures kept between renders", () => {
  test("are the same figures keysWithLifetime reads, kept for the state and their time to live", async () => {
    const { t, uuid, fold } = await withKeys(5);
    const memo = lifetimeMemo({ maxFigures: 100, ttlMs: 30_000, clock: t.clock });
    const first = await memo.figures(fold, uuid, PROFILE, "s1");
    expect([...first]).toEqual(await keysWithLifetime(fold, uuid, PROFILE));
    expect(first).toHaveLength(5);
    // Kept: the very same figures answer again, and they cannot be changed by a reader.
    expect(await memo.figures(fold, uuid, PROFILE, "s1")).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // Another state (an upload since) is read again.
    expect(await memo.figures(fold, uuid, PROFILE, "s2")).not.toBe(first);
    // Past the time to live, the kept set still answers at once, and is read whole beside the page:
    // the next ask gets that read.
    const s2 = await memo.figures(fold, uuid, PROFILE, "s2");
    t.clock.advance(30_000);
    expect(await memo.figures(fold, uuid, PROFILE, "s2")).toBe(s2);
    await memo.settled();
    const reread = await memo.figures(fold, uuid, PROFILE, "s2");
    expect(reread).not.toBe(s2);
    expect([...reread]).toEqual([...s2]);
  });

  test("hold at most maxFigures in all, least recently used first, and share one read between concurrent asks", async () => {
    const { t, uuid, fold } = await withKeys(4);
    const memo = lifetimeMemo({ maxFigures: 8, ttlMs: 60_000, clock: t.clock });
    const a = await memo.figures(fold, uuid, PROFILE, "a");
    const b = await memo.figures(fold, "f".repeat(32), PROFILE, "b"); // no figures: holds nothing
    expect(b).toHaveLength(0);
    const other = await memo.figures(fold, uuid, "1".repeat(32), "c"); // another profile: none either
    expect(other).toHaveLength(0);
    expect(await memo.figures(fold, uuid, PROFILE, "a")).toBe(a);
    // Too many to keep at all: every ask reads.
    const small = lifetimeMemo({ maxFigures: 3, ttlMs: 60_000, clock: t.clock });
    const x = await small.figures(fold, uuid, PROFILE, "a");
    expect(await small.figures(fold, uuid, PROFILE, "a")).not.toBe(x);
    // Concurrent asks for one set get one answer.
    const fresh = lifetimeMemo({ maxFigures: 0, ttlMs: 60_000, clock: t.clock });
    const [p, q] = await Promise.all([
      fresh.figures(fold, uuid, PROFILE, "a"),
      fresh.figures(fold, uuid, PROFILE, "a"),
    ]);
    expect(p).toBe(q);
  });

  test("keep one calendar an account, for its state and time to live, as activeDays counts it", async () => {
    const { t, uuid, fold } = await withKeys(6);
    const memo = lifetimeMemo({ maxFigures: 100, ttlMs: 30_000, clock: t.clock });
    const span = { from: "2026-01-01", to: "2026-06-10" };
    const first = await memo.calendar(fold, uuid, [PROFILE], span, "s1");
    expect([...first]).toEqual(await activeDays(fold, uuid, [PROFILE], span.from, span.to));
    expect(first).toEqual([{ day: "2026-06-10", keys: 6 }]);
    expect(await memo.calendar(fold, uuid, [PROFILE], span, "s1")).toBe(first);
    // Another state, or past the time to live, is counted again.
    const s2 = await memo.calendar(fold, uuid, [PROFILE], span, "s2");
    expect(s2).not.toBe(first);
    t.clock.advance(30_000);
    expect(await memo.calendar(fold, uuid, [PROFILE], span, "s2")).not.toBe(s2);
    // Nothing kept when the memo keeps nothing.
    const none = lifetimeMemo({ maxFigures: 0, ttlMs: 30_000, clock: t.clock });
    expect(await none.calendar(fold, uuid, [PROFILE], span, "s1")).not.toBe(
      await none.calendar(fold, uuid, [PROFILE], span, "s1"),
    );
  });

  test("a read shared with a request whose transaction fails is read again for the one that joined it", async () => {
    const { t, uuid, fold } = await withKeys(3);
    const memo = lifetimeMemo({ maxFigures: 100, ttlMs: 60_000, clock: t.clock });
    const span = { from: "2026-06-01", to: "2026-06-10" };
    const joined: Promise<unknown>[] = [];
    // The first request reads through its own transaction, which fails (as a statement timeout
    // cancels it on Postgres); a second request asks for the same set meanwhile and joins that read.
    const first = await t.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1/0`).catch(() => {});
        const theirs = { ...fold, db: tx as unknown as typeof fold.db };
        const figures = memo.figures(theirs, uuid, PROFILE, "s1");
        const calendar = memo.calendar(theirs, uuid, [PROFILE], span, "s1");
        joined.push(memo.figures(fold, uuid, PROFILE, "s1"), memo.calendar(fold, uuid, [PROFILE], span, "s1"));
        const settled = await Promise.allSettled([figures, calendar]);
        throw new Error(settled.map((r) => r.status).join(","));
      })
      .catch((e: Error) => e.message);
    expect(first).toBe("rejected,rejected");
    // The one that joined gets its answer all the same, read through its own handle.
    const [figures, calendar] = await Promise.all(joined);
    expect([...(figures as unknown[])]).toEqual(await keysWithLifetime(fold, uuid, PROFILE));
    expect(calendar).toEqual([{ day: "2026-06-10", keys: 3 }]);
  });
});

describe("lifetime figures brought up to date by what was written (the embedded database's writes)", () => {
  test("after random uploads, each heard, are the figures a whole read gives", async () => {
    const t = await testApp({ settings: { devSignin: true }, now: "2026-06-10T12:00:00Z" });
    opened.push(t);
    const p = await uploader(t, { zone: "UTC" });
    const fold = { db: t.db, catalogue: t.catalogue };
    const memo = lifetimeMemo({ maxFigures: 10_000, ttlMs: 600_000, clock: t.clock, incremental: true });
    const OTHER = "1".repeat(32);
    const kinds = ["count", "max", "min", "gauge"] as const;
    // Keys of every kind, some of them sharing a label (distinctLabels tells them apart once whole).
    const keyOf = (i: number) => (i % 9 === 0 ? `mining.same.k${i % 4}` : `mining.rand.k${i}`);
    const kindOf = (key: string) => kinds[Number(key.replace(/\D/g, "")) % kinds.length]!;
    const rng = (() => {
      let x = 12345;
      return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    })();
    let state = 0;
    for (let round = 0; round < 12; round++) {
      const profile = rng() < 0.25 ? OTHER : PROFILE;
      const day = ["2026-06-08", "2026-06-09", "2026-06-10"][Math.floor(rng() * 3)]!;
      const keys = [...new Set(Array.from({ length: 1 + Math.floor(rng() * 6) }, () => keyOf(Math.floor(rng() * 40))))];
      const rows = keys.map((k) => ({ k, v: Math.floor(rng() * 1000) - 100, m: kindOf(k) }));
      t.clock.advance(60_000);
      const res = await p.send(
        envelope(t, {
          zone: { id: "UTC" },
          profile: { id: profile, cuteName: "Kiwi" },
          counters: [{ profileId: profile, scope: "day", day, rows }],
        }),
      );
      expect(res.status).toBe(200);
      // What ingest tells the app's memo, told to this one.
      memo.wrote(p.uuid, new Map([[profile, keys]]));
      state++;
      for (const id of [PROFILE, OTHER])
        expect({ round, id, figures: [...(await memo.figures(fold, p.uuid, id, `s${state}`))] }).toEqual({
          round,
          id,
          figures: await keysWithLifetime(fold, p.uuid, id),
        });
    }
  });

  test("are read whole when the state moved without a write heard, or after an erasure", async () => {
    const { t, uuid, fold } = await withKeys(5);
    const memo = lifetimeMemo({ maxFigures: 100, ttlMs: 600_000, clock: t.clock, incremental: true });
    const first = await memo.figures(fold, uuid, PROFILE, "s1");
    // A write nobody told the memo of (another instance): the new state is read whole.
    const p = { uuid };
    const again = await memo.figures(fold, p.uuid, PROFILE, "s2");
    expect(again).not.toBe(first);
    expect([...again]).toEqual([...first]);
    // A write heard for another profile: the same figures, kept for the new state.
    memo.wrote(uuid, new Map([["1".repeat(32), ["mining.memo.k0"]]]));
    expect(await memo.figures(fold, uuid, PROFILE, "s3")).toBe(again);
    // An erasure ("anything of the account"): read whole.
    memo.wrote(uuid, null);
    expect(await memo.figures(fold, uuid, PROFILE, "s4")).not.toBe(again);
  });

  test("follow retention's move of a baseline's date at once, for every profile, with no upload", async () => {
    const t = await testApp({ settings: { devSignin: true }, now: "2026-06-10T12:00:00Z" });
    opened.push(t);
    const p = await uploader(t, { zone: "UTC" });
    const OTHER = "1".repeat(32);
    for (const [profile, day] of [
      [PROFILE, "2026-06-08"],
      [OTHER, "2026-06-09"],
      [PROFILE, "2026-06-10"],
    ] as const) {
      const res = await p.send(
        envelope(t, {
          zone: { id: "UTC" },
          profile: { id: profile, cuteName: "Kiwi" },
          counters: [{ profileId: profile, scope: "day", day, rows: [{ k: "mining.memo.kept", v: 7 }] }],
        }),
      );
      expect(res.status).toBe(200);
    }
    const fold = { db: t.db, catalogue: t.catalogue };
    // A time to live far past the test: only the retention's word can bring the sets up to date.
    const told = lifetimeMemo({ maxFigures: 100, ttlMs: 10 ** 9, clock: t.clock, incremental: true });
    const untold = lifetimeMemo({ maxFigures: 100, ttlMs: 10 ** 9, clock: t.clock, incremental: true });
    const before = {
      p: await told.figures(fold, p.uuid, PROFILE, "s"),
      o: await told.figures(fold, p.uuid, OTHER, "s"),
    };
    const stale = await untold.figures(fold, p.uuid, PROFILE, "s");
    expect(before.p[0]!.lifetime.baseline).toBeNull();
    // Past the account's retention every day is folded into the seal baseline: the figure's value
    // stays, its baseline now says through which day.
    t.clock.set("2028-07-01T12:00:00Z");
    await retentionPass({ db: t.db, clock: t.clock, wrote: told.wrote });
    for (const [id, was] of [
      [PROFILE, before.p],
      [OTHER, before.o],
    ] as const) {
      const now = [...(await told.figures(fold, p.uuid, id, "s"))];
      expect(now).toEqual(await keysWithLifetime(fold, p.uuid, id));
      expect(now[0]!.lifetime.value).toBe(was[0]!.lifetime.value);
      expect(now[0]!.lifetime.baseline?.seal?.day).toBeString();
    }
    // A memo nobody told keeps the older baseline for its time to live: the word is what moved it.
    expect(await untold.figures(fold, p.uuid, PROFILE, "s")).toBe(stale);
  });
});
