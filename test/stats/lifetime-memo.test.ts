// The lifetime figures kept between one account's page renders (issue 40): kept for the account's
// state, for at most their time to live, within a bound on figures held, and read once by
// concurrent asks.
import { afterEach, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE } from "../support/uploads.ts";
import { lifetimeMemo } from "../../src/stats/lifetime-memo.ts";
import { keysWithLifetime } from "../../src/stats/fold.ts";
import { activeDays } from "../../src/stats/periods.ts";

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
    // Past the time to live, read again.
    const s2 = await memo.figures(fold, uuid, PROFILE, "s2");
    t.clock.advance(30_000);
    expect(await memo.figures(fold, uuid, PROFILE, "s2")).not.toBe(s2);
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
});
