// What a module hands the scheduler: a named job with its off switch and schedule. Like the clock,
// a bottom-floor type: a module's `*.jobs.ts` describes its jobs without importing the scheduler.
export type JobCounts = Record<string, number>;

export type Job = {
  name: string;
  /** The job's off switch (a setting). */
  enabled: boolean;
  /** The job's schedule (a setting). */
  intervalMs: number;
  /** One run; it should return soon after `signal` aborts (the service is stopping). */
  run(signal: AbortSignal): Promise<JobCounts>;
};
