// The recaps job: storing each closed month's and year's recap (closeRecaps, which tests call directly).
import type { Job } from "../job.ts";
import type { Config } from "../config.ts";
import { closeRecaps, type RecapDeps } from "./recaps.ts";

type JobConfig = Pick<Config, "jobRecapsCloseEnabled" | "jobRecapsCloseIntervalMs">;

export function recapsJobs(deps: RecapDeps & { config: JobConfig }): Job[] {
  return [
    {
      name: "recaps.close",
      enabled: deps.config.jobRecapsCloseEnabled,
      intervalMs: deps.config.jobRecapsCloseIntervalMs,
      run: (signal) => closeRecaps(deps, { signal }),
    },
  ];
}
