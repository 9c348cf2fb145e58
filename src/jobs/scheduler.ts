// The scheduler: named jobs, each run every `intervalMs` (and once `startDelayMs` after start) unless switched off,
// never twice at once in one process, and on several instances only where the job lock is taken.
// Each run logs one line with its counts (at debug when it found nothing to do). Jobs are thin:
// they call module functions that tests call directly.
import type { Log } from "../log.ts";
import type { Job, JobCounts } from "../job.ts";
import type { JobLock } from "./job-lock.ts";
import type { Metrics } from "../metrics/metrics.ts";

export type RunOutcome =
  | { status: "ran"; counts: JobCounts; ms: number }
  | { status: "busy" | "locked" | "failed" | "off" };

export type Scheduler = {
  start(): void;
  /** Stops the timers, asks running jobs to finish and waits for them. */
  stop(): Promise<void>;
  /** Runs one job now (as a tick would). */
  run(name: string): Promise<RunOutcome>;
};

export function createScheduler(deps: {
  log: Log;
  lock: JobLock;
  jobs: Job[];
  metrics?: Metrics;
  /** JOB_START_DELAY_MS: the first runs wait this long, so start-up's first requests do not queue behind them. */
  startDelayMs?: number;
}): Scheduler {
  const running = new Map<string, Promise<RunOutcome>>();
  const timers: ReturnType<typeof setInterval>[] = [];
  const stopping = new AbortController();
  const byName = new Map(deps.jobs.map((j) => [j.name, j]));

  async function runJob(job: Job): Promise<RunOutcome> {
    const started = performance.now();
    try {
      const outcome = await deps.lock(job.name, () => job.run(stopping.signal));
      if (!outcome.ran) {
        deps.log.debug("job skipped: another instance is running it", { job: job.name });
        deps.metrics?.jobRuns.inc({ job: job.name, status: "locked" });
        return { status: "locked" };
      }
      const ms = Math.round(performance.now() - started);
      deps.metrics?.jobRuns.inc({ job: job.name, status: "ran" });
      deps.metrics?.jobDuration.observe({ job: job.name }, ms / 1000);
      // A run that found nothing to do logs at debug, so an idle service does not fill the log.
      const idle = Object.values(outcome.value).every((n) => n === 0);
      deps.log[idle ? "debug" : "info"]("job run", { job: job.name, ms, ...outcome.value });
      return { status: "ran", counts: outcome.value, ms };
    } catch (error) {
      deps.log.error("job failed", { job: job.name, error });
      deps.metrics?.jobRuns.inc({ job: job.name, status: "failed" });
      return { status: "failed" };
    }
  }

  function run(name: string): Promise<RunOutcome> {
    const job = byName.get(name);
    if (!job) throw new Error(`no job named ${name}`);
    if (!job.enabled) return Promise.resolve({ status: "off" });
    if (stopping.signal.aborted) return Promise.resolve({ status: "off" });
    if (running.has(name)) return Promise.resolve({ status: "busy" });
    const p = runJob(job).finally(() => running.delete(name));
    running.set(name, p);
    return p;
  }

  return {
    start() {
      for (const job of deps.jobs) {
        if (!job.enabled) {
          deps.log.info("job off", { job: job.name });
          continue;
        }
        deps.log.info("job scheduled", { job: job.name, intervalMs: job.intervalMs });
        const first = () => {
          void run(job.name);
          timers.push(setInterval(() => void run(job.name), job.intervalMs));
        };
        if (deps.startDelayMs) timers.push(setTimeout(first, deps.startDelayMs));
        else first();
      }
    },
    async stop() {
      for (const t of timers) clearTimeout(t);
      timers.length = 0;
      stopping.abort();
      await Promise.allSettled([...running.values()]);
    },
    run,
  };
}
