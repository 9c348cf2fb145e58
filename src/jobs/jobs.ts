// Every job of the service, for the scheduler main.ts starts. A module adds its jobs here.
import type { AppDeps } from "../app.ts";
import type { Job } from "../job.ts";
import { reportJobs } from "../reports/reports.jobs.ts";
import { statsJobs } from "../stats/stats.jobs.ts";
import { cachesJobs } from "../profiles/caches.jobs.ts";
import { itemsJobs } from "../items/items.jobs.ts";
import { recapsJobs } from "../recaps/recaps.jobs.ts";

export function serviceJobs(deps: AppDeps): Job[] {
  return [...reportJobs(deps), ...statsJobs(deps), ...cachesJobs(deps), ...itemsJobs(deps), ...recapsJobs(deps)];
}
