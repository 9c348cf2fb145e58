// The scheduler: named jobs with an off switch, a log line per run with counts, never two runs of a
// job at once, a clean stop that waits for a running job; on Postgres, one instance at a time.
import { afterAll, describe, expect, test } from "bun:test";
import { createScheduler } from "../../src/jobs/scheduler.ts";
import type { Job } from "../../src/job.ts";
import { advisoryJobLock, jobLockKey, jobLocksHeld, singleProcessJobLock } from "../../src/jobs/job-lock.ts";
import { sql } from "drizzle-orm";
import { memoryLog } from "../../src/log.ts";
import { testDatabase, postgresUrl } from "../support/db.ts";

const database = await testDatabase();
afterAll(() => database.close());

/** A job whose runs wait until the test lets them finish. */
function gatedJob(name: string, enabled = true) {
  const gate = {
    runs: 0,
    aborted: false,
    started: Promise.withResolvers<void>(),
    release: Promise.withResolvers<void>(),
  };
  const job: Job = {
    name,
    enabled,
    intervalMs: 3_600_000,
    async run(signal) {
      gate.runs++;
      gate.started.resolve();
      await gate.release.promise;
      gate.aborted = signal.aborted;
      return { sent: 2, failed: 0 };
    },
  };
  return { job, gate };
}

describe("the scheduler", () => {
  test("runs each job at start, logs one line per run with its counts, and stops cleanly", async () => {
    const log = memoryLog();
    const { job, gate } = gatedJob("test.counts");
    const scheduler = createScheduler({ log, lock: singleProcessJobLock, jobs: [job] });
    scheduler.start();
    await gate.started.promise;
    expect(log.lines.find((l) => l.msg === "job scheduled")).toMatchObject({
      job: "test.counts",
      intervalMs: 3_600_000,
    });
    gate.release.resolve();
    await scheduler.stop();
    expect(log.lines.find((l) => l.msg === "job run")).toMatchObject({ job: "test.counts", sent: 2, failed: 0 });
  });

  test("with a start delay (JOB_START_DELAY_MS) nothing runs at start, and a stop before it leaves nothing running", async () => {
    const log = memoryLog();
    const { job, gate } = gatedJob("test.delayed");
    const scheduler = createScheduler({ log, lock: singleProcessJobLock, jobs: [job], startDelayMs: 3_600_000 });
    scheduler.start();
    // Without a delay the first run starts inside start() (the test above); here it waits its timer.
    expect(gate.runs).toBe(0);
    expect(log.lines.find((l) => l.msg === "job scheduled")).toMatchObject({ job: "test.delayed" });
    await scheduler.stop();
    expect(gate.runs).toBe(0);
    expect(log.lines.filter((l) => l.msg === "job run")).toEqual([]);
  });

  test("after the start delay each job runs, and then every interval", async () => {
    const log = memoryLog();
    const { job, gate } = gatedJob("test.later");
    const scheduler = createScheduler({ log, lock: singleProcessJobLock, jobs: [job], startDelayMs: 20 });
    scheduler.start();
    expect(gate.runs).toBe(0);
    await gate.started.promise;
    expect(gate.runs).toBe(1);
    gate.release.resolve();
    await scheduler.stop();
    expect(log.lines.find((l) => l.msg === "job run")).toMatchObject({ job: "test.later", sent: 2 });
  });

  test("an idle run (all counts zero) logs at debug, a run that did something at info", async () => {
    const log = memoryLog();
    let counts = { sent: 0 };
    const job: Job = { name: "test.idle", enabled: true, intervalMs: 1000, run: async () => counts };
    const scheduler = createScheduler({ log, lock: singleProcessJobLock, jobs: [job] });
    await scheduler.run("test.idle");
    counts = { sent: 1 };
    await scheduler.run("test.idle");
    expect(log.lines.filter((l) => l.msg === "job run").map((l) => [l.level, l.sent])).toEqual([
      ["debug", 0],
      ["info", 1],
    ]);
  });

  test("a job switched off never runs", async () => {
    const log = memoryLog();
    const { job, gate } = gatedJob("test.off", false);
    const scheduler = createScheduler({ log, lock: singleProcessJobLock, jobs: [job] });
    scheduler.start();
    expect(await scheduler.run("test.off")).toEqual({ status: "off" });
    await scheduler.stop();
    expect(gate.runs).toBe(0);
    expect(log.lines.find((l) => l.msg === "job off")).toMatchObject({ job: "test.off" });
  });

  test("a job still running is not started again; stop asks it to finish and waits for it", async () => {
    const log = memoryLog();
    const { job, gate } = gatedJob("test.busy");
    const scheduler = createScheduler({ log, lock: singleProcessJobLock, jobs: [job] });
    const first = scheduler.run("test.busy");
    await gate.started.promise;
    expect(await scheduler.run("test.busy")).toEqual({ status: "busy" });
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    gate.release.resolve();
    await stopping;
    expect((await first).status).toBe("ran");
    expect(gate.aborted).toBe(true);
    expect(gate.runs).toBe(1);
    expect(await scheduler.run("test.busy")).toEqual({ status: "off" }); // nothing starts after stop
  });

  test("a failing run is logged and the next run still happens", async () => {
    const log = memoryLog();
    let calls = 0;
    const job: Job = {
      name: "test.fails",
      enabled: true,
      intervalMs: 1000,
      run: async () => (++calls === 1 ? Promise.reject(new Error("boom")) : { ok: 1 }),
    };
    const scheduler = createScheduler({ log, lock: singleProcessJobLock, jobs: [job] });
    expect(await scheduler.run("test.fails")).toEqual({ status: "failed" });
    expect(log.lines.find((l) => l.msg === "job failed")).toMatchObject({
      job: "test.fails",
      error: { message: "boom" },
    });
    expect((await scheduler.run("test.fails")).status).toBe("ran");
  });

  test("job lock keys are stable and differ by name", () => {
    expect(jobLockKey("reports.chat")).toBe(jobLockKey("reports.chat"));
    expect(jobLockKey("reports.chat")).not.toBe(jobLockKey("stats.retention"));
  });

  test.if(!!postgresUrl)("on Postgres, two instances never run one job at the same time (advisory lock)", async () => {
    const a = gatedJob("test.shared");
    const b = gatedJob("test.shared");
    const first = createScheduler({ log: memoryLog(), lock: advisoryJobLock(database.db), jobs: [a.job] });
    const second = createScheduler({ log: memoryLog(), lock: advisoryJobLock(database.db), jobs: [b.job] });
    const running = first.run("test.shared");
    await a.gate.started.promise;
    expect(await second.run("test.shared")).toEqual({ status: "locked" });
    expect(b.gate.runs).toBe(0);
    a.gate.release.resolve();
    expect((await running).status).toBe("ran");
    b.gate.release.resolve();
    expect((await second.run("test.shared")).status).toBe("ran"); // released with the first run
  });

  test.if(!!postgresUrl)(
    "on Postgres, more jobs due at once than pooled connections all run: each lock waits for a slot",
    async () => {
      // The test database's pool has 5 connections; each running job holds one for its lock and its
      // work needs another. Six jobs due at once once held all five and waited for ever.
      const jobs: Job[] = Array.from({ length: 6 }, (_, i) => ({
        name: `test.pool.${i}`,
        enabled: true,
        intervalMs: 3_600_000,
        async run() {
          await database.db.execute(sql`select pg_sleep(0.05)`);
          return { done: 1 };
        },
      }));
      const scheduler = createScheduler({
        log: memoryLog(),
        lock: advisoryJobLock(database.db, jobLocksHeld(5)),
        jobs,
      });
      const outcomes = await Promise.race([
        Promise.all(jobs.map((j) => scheduler.run(j.name))),
        Bun.sleep(10_000).then(() => "stuck" as const),
      ]);
      expect(outcomes).not.toBe("stuck");
      expect((outcomes as { status: string }[]).map((o) => o.status)).toEqual(Array(6).fill("ran"));
    },
  );
});
