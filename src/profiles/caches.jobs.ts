// The caches job: forgets cached copies of other players' public data past CACHE_MAX_AGE_HOURS.
import type { Job } from "../job.ts";
import type { Config } from "../config.ts";
import { purgeCaches, type CachesDeps } from "./caches.ts";

export function cachesJobs(
  deps: CachesDeps & { config: Pick<Config, "jobCachesPurgeEnabled" | "jobCachesPurgeIntervalMs"> },
): Job[] {
  return [
    {
      name: "caches.purge",
      enabled: deps.config.jobCachesPurgeEnabled,
      intervalMs: deps.config.jobCachesPurgeIntervalMs,
      run: () => purgeCaches(deps),
    },
  ];
}
