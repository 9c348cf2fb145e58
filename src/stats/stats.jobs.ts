// The statistics jobs: the seal, the retention seal, closing days into the rollups, and forgetting
// ingest answers older than the 7-day duplicate window. Each calls the module function tests call directly.
import type { Job } from "../job.ts";
import type { Config } from "../config.ts";
import { retentionPass, sealPass, type LifecycleDeps } from "./seal.ts";
import { closeDaysPass } from "./rollups.ts";
import { purgeBatches } from "./ingest.query.ts";
import { BATCH_WINDOW_MS } from "./horizons.ts";

type JobConfig = Pick<
  Config,
  | "jobStatsSealEnabled"
  | "jobStatsSealIntervalMs"
  | "jobStatsRetentionEnabled"
  | "jobStatsRetentionIntervalMs"
  | "jobStatsBatchesEnabled"
  | "jobStatsBatchesIntervalMs"
  | "jobStatsRollupsEnabled"
  | "jobStatsRollupsIntervalMs"
>;

export function statsJobs(deps: LifecycleDeps & { config: JobConfig }): Job[] {
  const { config } = deps;
  return [
    {
      name: "stats.seal",
      enabled: config.jobStatsSealEnabled,
      intervalMs: config.jobStatsSealIntervalMs,
      run: (signal) => sealPass(deps, { signal }),
    },
    {
      name: "stats.retention",
      enabled: config.jobStatsRetentionEnabled,
      intervalMs: config.jobStatsRetentionIntervalMs,
      run: (signal) => retentionPass(deps, { signal }),
    },
    {
      name: "stats.rollups",
      enabled: config.jobStatsRollupsEnabled,
      intervalMs: config.jobStatsRollupsIntervalMs,
      run: (signal) => closeDaysPass(deps, { signal }),
    },
    {
      name: "stats.batches",
      enabled: config.jobStatsBatchesEnabled,
      intervalMs: config.jobStatsBatchesIntervalMs,
      run: async () => ({ purged: await purgeBatches(deps.db, deps.clock.now() - BATCH_WINDOW_MS) }),
    },
  ];
}
