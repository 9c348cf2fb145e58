// The boards' job: moving the scores uploads noted (BOARDS_REFRESH_MS > 0; with 0 uploads move them
// themselves and the job is off). Each run's work is the accounts that uploaded since the last.
import type { Job } from "../job.ts";
import type { Config } from "../config.ts";
import { refreshBoards, type ScoreDeps } from "./scores.ts";

export function boardsJobs(deps: ScoreDeps & { config: Pick<Config, "boardsRefreshMs"> }): Job[] {
  return [
    {
      name: "boards.refresh",
      enabled: deps.config.boardsRefreshMs > 0,
      intervalMs: Math.max(1_000, deps.config.boardsRefreshMs),
      run: (signal) => refreshBoards({ ...deps, refreshMs: deps.config.boardsRefreshMs }, { signal }),
    },
  ];
}
