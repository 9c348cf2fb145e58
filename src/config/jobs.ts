// Settings: The scheduler: when jobs start, and each job's switch and interval (src/jobs/ and each module's *.jobs.ts).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { setting, Millis, Bool } from "./setting.ts";

export const jobsSettings = {
  jobStartDelayMs: setting({
    env: "JOB_START_DELAY_MS",
    schema: Millis(0, 3_600_000),
    default: "2000",
    doc: "How long after start-up the jobs first run (then every interval): the first requests are answered before them.",
  }),
  jobReportsChatEnabled: setting({
    env: "JOB_REPORTS_CHAT_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off the job that posts bug reports to the chat (the outbox keeps them).",
  }),
  jobReportsChatIntervalMs: setting({
    env: "JOB_REPORTS_CHAT_INTERVAL_MS",
    schema: Millis(100, 86_400_000),
    default: "5000",
    doc: "How often the job that posts bug reports to the chat runs.",
  }),
  jobReleaseHealthEnabled: setting({
    env: "JOB_RELEASE_HEALTH_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off the job that counts the day's installs per mod version (release health), deletes their ids once the day is counted, and posts release summaries.",
  }),
  jobReleaseHealthIntervalMs: setting({
    env: "JOB_RELEASE_HEALTH_INTERVAL_MS",
    schema: Millis(1000, 86_400_000),
    default: "600000",
    doc: "How often the release-health job runs (today's counts on the pages are at most this old).",
  }),
  jobStatsSealEnabled: setting({
    env: "JOB_STATS_SEAL_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off the seal (collapsing each day's installs once it is older than the 120-day horizon).",
  }),
  jobStatsSealIntervalMs: setting({
    env: "JOB_STATS_SEAL_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "3600000",
    doc: "How often the job runs: the seal (collapsing each day's installs once it is older than the 120-day horizon).",
  }),
  jobStatsRetentionEnabled: setting({
    env: "JOB_STATS_RETENTION_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off the retention seal (folding days older than each account's retention into its baseline, then deleting them).",
  }),
  jobStatsRetentionIntervalMs: setting({
    env: "JOB_STATS_RETENTION_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "3600000",
    doc: "How often the job runs: the retention seal (folding days older than each account's retention into its baseline, then deleting them).",
  }),
  jobStatsRollupsEnabled: setting({
    env: "JOB_STATS_ROLLUPS_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off closing days into the rollups (each account's days up to its today minus 2; later days are folded when read). Leave it on: with it off, open days pile up and every upload and statistics read slows down with them.",
  }),
  jobStatsRollupsIntervalMs: setting({
    env: "JOB_STATS_ROLLUPS_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "600000",
    doc: "How often the job runs: closing days into the rollups (each account's days up to its today minus 2; later days are folded when read).",
  }),
  jobStatsBatchesEnabled: setting({
    env: "JOB_STATS_BATCHES_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off forgetting ingest answers older than the 7-day duplicate window.",
  }),
  jobStatsBatchesIntervalMs: setting({
    env: "JOB_STATS_BATCHES_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "3600000",
    doc: "How often the job runs: forgetting ingest answers older than the 7-day duplicate window.",
  }),
  jobRecapsCloseEnabled: setting({
    env: "JOB_RECAPS_CLOSE_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off storing each account's month and year recaps once the period has closed in its zone.",
  }),
  jobRecapsCloseIntervalMs: setting({
    env: "JOB_RECAPS_CLOSE_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "3600000",
    doc: "How often the job runs: storing the recaps of months and years closed in each account's zone (the day after the last is grace).",
  }),
  jobCachesPurgeEnabled: setting({
    env: "JOB_CACHES_PURGE_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off forgetting cached copies of other players' public data older than CACHE_MAX_AGE_HOURS (and unknown players after UNKNOWN_PLAYER_CACHE_MINUTES).",
  }),
  jobCachesPurgeIntervalMs: setting({
    env: "JOB_CACHES_PURGE_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "600000",
    doc: "How often the job runs: forgetting cached copies of other players' public data older than CACHE_MAX_AGE_HOURS.",
  }),
  jobItemsRefreshEnabled: setting({
    env: "JOB_ITEMS_REFRESH_ENABLED",
    schema: Bool,
    default: "true",
    doc: "false turns off fetching the game's public item list (item names on the pages; the last stored copy stays in use).",
  }),
  jobItemsRefreshIntervalMs: setting({
    env: "JOB_ITEMS_REFRESH_INTERVAL_MS",
    schema: Millis(1_000, 7 * 86_400_000),
    default: "3600000",
    doc: "How often the item list job looks at the stored list: it fetches a new one when the stored one is older than ITEM_LIST_MAX_AGE_HOURS, so a failed fetch is tried again at the next run.",
  }),
} as const;
