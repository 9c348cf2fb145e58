// The statistics jobs run from the scheduler, through its lock, with counts in their log line.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { fixtureAccount, fixtureCatalogue, sendFixtures } from "../support/fixtures.ts";
import { createScheduler } from "../../src/jobs/scheduler.ts";
import { jobLockFor } from "../../src/jobs/job-lock.ts";
import { serviceJobs } from "../../src/jobs/jobs.ts";
import { storedState } from "../support/stored.ts";
import { lifetimeMemo } from "../../src/stats/lifetime-memo.ts";
import { keysWithLifetime, listProfiles } from "../../src/stats/fold.ts";

let t: TestApp;
beforeAll(
  async () =>
    (t = await testApp({
      settings: { devSignin: true, catalogueFile: fixtureCatalogue },
      now: fixtureAccount.signedInAt,
    })),
);
afterAll(() => t.close());
/** The account the first test uploads the fixtures for. */
let uuid = "";

test("stats.seal, stats.retention and stats.batches run as named jobs and report what they did", async () => {
  const { uploader } = await sendFixtures(t);
  uuid = uploader.uuid;
  const scheduler = createScheduler({ log: t.log, lock: jobLockFor(t.database.kind, t.db), jobs: serviceJobs(t) });
  t.clock.set("2026-10-15T12:00:00Z");
  const seal = await scheduler.run("stats.seal");
  if (seal.status !== "ran") throw new Error(`stats.seal did not run: ${seal.status}`);
  expect(seal.counts.accounts).toBe(1);
  expect(seal.counts.rowsRemoved).toBeGreaterThan(0);
  // Retention (730 days by default) has nothing to do yet; the 7-day-old batches are forgotten.
  expect(await scheduler.run("stats.retention")).toMatchObject({ status: "ran", counts: { rowsRemoved: 0 } });
  const batches = await scheduler.run("stats.batches");
  expect(batches).toMatchObject({ status: "ran", counts: { purged: 11 } });
  expect(t.log.lines.some((l) => l.msg === "job run" && l.job === "stats.seal" && (l.rowsRemoved as number) > 0)).toBe(
    true,
  );
  expect((await storedState(t.db, uploader.uuid)).days.every((d) => d.installId === "")).toBe(true);
  await scheduler.stop();
});

test("stats.retention tells the pages' memo the baselines it moved, so the next page shows them", async () => {
  const memo = lifetimeMemo({ maxFigures: 100_000, ttlMs: 10 ** 9, clock: t.clock, incremental: true });
  const scheduler = createScheduler({
    log: t.log,
    lock: jobLockFor(t.database.kind, t.db),
    jobs: serviceJobs({ ...t, lifetimes: memo }),
  });
  const fold = { db: t.db, catalogue: t.catalogue };
  const [profile] = await listProfiles(t.db, uuid);
  const before = await memo.figures(fold, uuid, profile!.id, "state");
  expect(before.length).toBeGreaterThan(0);
  // Past the 730-day retention every day is folded into its seal baseline: same values, new dates.
  t.clock.set("2029-01-15T12:00:00Z");
  expect(await scheduler.run("stats.retention")).toMatchObject({ status: "ran" });
  const after = await memo.figures(fold, uuid, profile!.id, "state");
  expect(after).not.toBe(before);
  expect([...after]).toEqual(await keysWithLifetime(fold, uuid, profile!.id));
  expect(after.map((f) => f.lifetime.value)).toEqual(before.map((f) => f.lifetime.value));
  await scheduler.stop();
});
