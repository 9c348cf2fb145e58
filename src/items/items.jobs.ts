// The item list job: fetches the game's item list when the stored one is older than
// ITEM_LIST_MAX_AGE_HOURS (so daily), retrying every interval while the upstream fails.
import type { Job } from "../job.ts";
import type { Config } from "../config.ts";
import { refreshItemList, type ItemsDeps } from "./item-names.ts";

export function itemsJobs(
  deps: ItemsDeps & { config: Pick<Config, "jobItemsRefreshEnabled" | "jobItemsRefreshIntervalMs"> },
): Job[] {
  return [
    {
      name: "items.refresh",
      enabled: deps.config.jobItemsRefreshEnabled,
      intervalMs: deps.config.jobItemsRefreshIntervalMs,
      run: () => refreshItemList(deps),
    },
  ];
}
