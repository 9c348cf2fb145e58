// A small account for the tests of the lifetime figures kept in the database (issue 40).
import { expect } from "bun:test";
import { testApp, type TestApp } from "./app.ts";
import { envelope, uploader, PROFILE, type Uploader } from "./uploads.ts";
import { lifetimeMemo } from "../../src/stats/lifetime-memo.ts";

/** Uploads 5 keys of one day, values from `v`. */
export const send = async (t: TestApp, p: Uploader, v: number) => {
  const rows = Array.from({ length: 5 }, (_, i) => ({ k: `mining.copy.k${i}`, v: v + i }));
  const res = await p.send(
    envelope(t, { zone: { id: "UTC" }, counters: [{ profileId: PROFILE, scope: "day", day: "2026-06-10", rows }] }),
  );
  expect(res.status).toBe(200);
  t.clock.advance(1_000);
};

/** An account with 5 keys uploaded, its fold, and a memo as a new process makes it (`memo()`). */
export async function copiesAccount() {
  const t = await testApp({ settings: { devSignin: true }, now: "2026-06-10T12:00:00Z" });
  const p = await uploader(t, { zone: "UTC" });
  await send(t, p, 10);
  const fold = { db: t.db, catalogue: t.catalogue };
  /** A memo as a new process makes it: copies of sets of `minKeys` keys or more, written at once. */
  const memo = (ttlMs = 600_000, minKeys = 5) =>
    lifetimeMemo({
      maxFigures: 100,
      ttlMs,
      clock: t.clock,
      incremental: true,
      snapshotMinKeys: minKeys,
      besideDelayMs: 0,
    });
  const labels = `${t.catalogue.version}|none`;
  return { t, p, fold, memo, labels };
}

export type CopiesAccount = Awaited<ReturnType<typeof copiesAccount>>;
