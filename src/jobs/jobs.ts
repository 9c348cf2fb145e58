// Every job of the service, for the scheduler main.ts starts. A module adds its jobs here.
import type { AppDeps } from "../app.ts";
import type { Job } from "../job.ts";
import { reportJobs } from "../reports/reports.jobs.ts";
import { statsJobs } from "../stats/stats.jobs.ts";
import { cachesJobs } from "../profiles/caches.jobs.ts";
import { itemsJobs } from "../items/items.jobs.ts";
import { recapsJobs } from "../recaps/recaps.jobs.ts";
import { builtInBoards } from "../boards/definitions.ts";
import { placementsOf } from "../boards/placements.ts";
import { boardsJobs } from "../boards/boards.jobs.ts";

export function serviceJobs(deps: AppDeps): Job[] {
  // A recap lists the player's board placements in its period (the boards module reads them).
  const boards = deps.boards ?? builtInBoards(deps.catalogue);
  const placements = (uuid: string, period: string) => placementsOf({ db: deps.db, boards }, uuid, period);
  return [
    ...reportJobs(deps),
    // Retention tells the pages' memo which keys' baselines it moved (lifetime-memo.ts).
    ...statsJobs({ ...deps, wrote: deps.lifetimes?.wrote }),
    ...cachesJobs(deps),
    ...itemsJobs(deps),
    ...recapsJobs({ ...deps, placements }),
    ...boardsJobs({ ...deps, boards }),
  ];
}
