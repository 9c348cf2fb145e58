// What a fresh start leaves switched off. Each optional capability says the setting that turns it
// on and what a visitor meets meanwhile; `serve` logs the ones that are off in one line at start-up
// and `tally check-config` prints them, so a self-hoster learns why profile pages answer 503
// before a player tells them.
import type { Config } from "./config.ts";

export type Capability = {
  /** What it does, as the self-hoster would say it. */
  name: string;
  /** The setting that turns it on, and how. */
  turnOn: string;
  /** What happens while it is off. */
  whileOff: string;
  on: boolean;
};

export function capabilities(config: Config): Capability[] {
  const job = (name: string, on: boolean, setting: string, whileOff: string): Capability => ({
    name: `the ${name} job`,
    turnOn: `${setting}=true`,
    whileOff,
    on,
  });
  return [
    {
      name: "profile lookups and profile pages",
      turnOn: "GAME_API_KEY=<the project's game API key>",
      whileOff: "GET /v1/gamemode/profiles/<uuid> answers 503 no_upstream_key and /p/<name> answers 503",
      on: config.gameApiKey !== "",
    },
    {
      name: "the maintainers' pages and operator routes",
      turnOn: "ADMIN_TOKEN=<32+ characters>",
      whileOff: "no /admin/reports triage page, no /v1/admin routes, no `tally backup` while the service runs",
      on: config.adminToken !== "",
    },
    {
      name: "bug reports posted to the maintainers' chat",
      turnOn: "CHAT_WEBHOOK_URL=<webhook URL>",
      whileOff: "bug reports are stored and counted only (see `tally reports`)",
      on: config.chatWebhookUrl !== "",
    },
    {
      name: "the bug reports' second privacy layer (names no rule places)",
      turnOn: "PRIVACY_UNKNOWN_WORDS=true",
      whileOff:
        "only the name families' rules replace player names in bug reports; a name in a line of a shape they do not know reaches the stored report and the chat",
      on: config.privacyUnknownWords,
    },
    {
      name: "item images",
      turnOn: "ITEM_IMAGES_URL=<address of item images by id>",
      whileOff: "GET /v1/assets/item/<id>.png answers 404",
      on: config.itemImagesUrl !== "",
    },
    {
      name: "Prometheus metrics",
      turnOn: "METRICS_ENABLED=true",
      whileOff: "GET /metrics answers 404",
      on: config.metricsEnabled,
    },
    {
      name: "development sign-in (never in production)",
      turnOn: "DEV_SIGNIN=true",
      whileOff: "accounts sign in through the identity provider only",
      on: config.devSignin,
    },
    job("reports.chat", config.jobReportsChatEnabled, "JOB_REPORTS_CHAT_ENABLED", "the chat outbox keeps its messages"),
    job("stats.seal", config.jobStatsSealEnabled, "JOB_STATS_SEAL_ENABLED", "old days keep their installs apart"),
    job(
      "stats.retention",
      config.jobStatsRetentionEnabled,
      "JOB_STATS_RETENTION_ENABLED",
      "days past an account's retention are kept",
    ),
    job(
      "stats.rollups",
      config.jobStatsRollupsEnabled,
      "JOB_STATS_ROLLUPS_ENABLED",
      "open days pile up and uploads and reads slow down",
    ),
    job("stats.batches", config.jobStatsBatchesEnabled, "JOB_STATS_BATCHES_ENABLED", "ingest answers are kept"),
    job(
      "caches.purge",
      config.jobCachesPurgeEnabled,
      "JOB_CACHES_PURGE_ENABLED",
      "cached public data of other players is kept past CACHE_MAX_AGE_HOURS",
    ),
  ];
}

/** One line per capability that is off (check-config prints them). */
export function describeSwitchedOff(config: Config): string[] {
  return capabilities(config)
    .filter((c) => !c.on)
    .map((c) => `${c.name}: off (turn on with ${c.turnOn}); meanwhile ${c.whileOff}`);
}
