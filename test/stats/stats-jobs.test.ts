// The statistics jobs run from the scheduler, through its lock, with counts in their log line.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { fixtureAccount, fixtureCatalogue, sendFixtures } from "../support/fixtures.ts";
import { createScheduler } from "../../src/jobs/scheduler.ts";
import { jobLockFor } from "../../src/jobs/job-lock.ts";
import { serviceJobs } from "../../src/jobs/jobs.ts";
import { storedState } from "../support/stored.ts";

let t: TestApp;
beforeAll(
  async () =>
    (t = await testApp({
      settings: { devSignin: true, catalogueFile: fixtureCatalogue },
      now: fixtureAccount.signedInAt,
    })),
);
afterAll(() => t.close());

test("stats.seal, stats.retention and stats.batches run as named jobs and report what they did", async () => {
  const { uploader } = await sendFixtures(t);
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
