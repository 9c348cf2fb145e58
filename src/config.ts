// Every setting of the service, parsed once at start; a bad value stops start-up with a message
// naming the variable and what it accepts. This is the only file that reads the environment.
//
// Where the settings live: one file per capability in src/config/ (database, server, bodies,
// upstreams, auth, tokens, stats, profiles, assets, pages, boards, items, reports, privacy, jobs,
// operator), each a table of environment name, default, one-line doc and schema. A new setting
// goes in its capability's file (a new capability gets a new file, spread into `settings` below),
// with a line in the README's settings table. src/config/setting.ts holds the shared schemas,
// src/config/parse.ts the conversion and check.
import type { Static } from "@sinclair/typebox";
import { accepts, check, convert } from "./config/parse.ts";
import type { Setting } from "./config/setting.ts";
import { databaseSettings } from "./config/database.ts";
import { serverSettings } from "./config/server.ts";
import { bodiesSettings } from "./config/bodies.ts";
import { upstreamsSettings } from "./config/upstreams.ts";
import { authSettings } from "./config/auth.ts";
import { tokensSettings } from "./config/tokens.ts";
import { statsSettings } from "./config/stats.ts";
import { profilesSettings } from "./config/profiles.ts";
import { assetsSettings } from "./config/assets.ts";
import { pagesSettings } from "./config/pages.ts";
import { boardsSettings } from "./config/boards.ts";
import { itemsSettings } from "./config/items.ts";
import { reportsSettings } from "./config/reports.ts";
import { privacySettings } from "./config/privacy.ts";
import { jobsSettings } from "./config/jobs.ts";
import { operatorSettings } from "./config/operator.ts";

export { SEAL_HORIZON_DAYS } from "./config/stats.ts";
export { EMBEDDED_SHARED_BUFFERS_MB } from "./config/database.ts";

/** Every setting, by capability (the order of --help and check-config). */
export const settings = {
  ...databaseSettings,
  ...serverSettings,
  ...bodiesSettings,
  ...upstreamsSettings,
  ...authSettings,
  ...tokensSettings,
  ...statsSettings,
  ...profilesSettings,
  ...assetsSettings,
  ...pagesSettings,
  ...boardsSettings,
  ...itemsSettings,
  ...reportsSettings,
  ...privacySettings,
  ...jobsSettings,
  ...operatorSettings,
} as const;

export type SettingName = keyof typeof settings;
export type Config = { readonly [K in SettingName]: Static<(typeof settings)[K]["schema"]> };

export class ConfigError extends Error {
  constructor(readonly faults: string[]) {
    super(`invalid settings:\n  ${faults.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

/** Base URLs that paths are appended to: trimmed of trailing slashes here, once, so no caller does it. */
const BASE_URLS = [
  "gameApiUrl",
  "identityUrl",
  "namesUrl",
  "texturesUrl",
  "itemImagesUrl",
  "chatWebhookUrl",
] as const satisfies readonly SettingName[];
const trimSlashes = (url: string) => url.replace(/\/+$/, "");

/** Parses the environment into a Config, or throws ConfigError listing every bad setting. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const faults: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(settings) as [SettingName, Setting][]) {
    const raw = env[s.env] ?? s.default ?? "";
    const value = convert(s.schema, raw.trim());
    if (!check(s.schema, value)) {
      const shown = s.secret ? "(value hidden)" : JSON.stringify(raw);
      faults.push(`${s.env}=${shown}: expected ${accepts(s.schema)}${s.hint ? ` (${s.hint})` : ""}`);
      continue;
    }
    out[name] = value;
  }
  const retention = out as Pick<Config, "retentionOptionsDays" | "retentionDefaultDays">;
  if (
    retention.retentionOptionsDays &&
    retention.retentionDefaultDays &&
    !retention.retentionOptionsDays.includes(retention.retentionDefaultDays)
  ) {
    faults.push(
      `RETENTION_DEFAULT_DAYS=${retention.retentionDefaultDays}: expected one of RETENTION_OPTIONS_DAYS (${retention.retentionOptionsDays.join(", ")})`,
    );
  }
  const caches = out as Pick<Config, "cacheMaxAgeHours" | "profileCacheHours" | "nameCacheHours" | "assetCacheHours">;
  for (const [env, hours] of [
    ["PROFILE_CACHE_HOURS", caches.profileCacheHours],
    ["NAME_CACHE_HOURS", caches.nameCacheHours],
    ["ASSET_CACHE_HOURS", caches.assetCacheHours],
  ] as const) {
    if (caches.cacheMaxAgeHours && hours && hours > caches.cacheMaxAgeHours) {
      faults.push(`CACHE_MAX_AGE_HOURS=${caches.cacheMaxAgeHours}: expected at least ${env} (${hours})`);
    }
  }
  if (faults.length) throw new ConfigError(faults);
  const config = out as Config;
  const trimmed = Object.fromEntries(BASE_URLS.map((name) => [name, trimSlashes(config[name])]));
  return Object.freeze({
    ...config,
    ...trimmed,
    baseUrl: trimSlashes(config.baseUrl || `http://localhost:${config.port}`),
  });
}

/** The effective settings, secrets masked, one line each (for check-config). */
export function describeConfig(config: Config): string[] {
  return (Object.entries(settings) as [SettingName, Setting][]).map(([name, s]) => {
    const value = config[name];
    const shown =
      s.secret && value !== ""
        ? "******** (set)"
        : value === ""
          ? "(empty)"
          : Array.isArray(value)
            ? value.join(",")
            : String(value);
    return `${s.env.padEnd(24)} ${shown}`;
  });
}

/** Every setting with its default and doc (for --help). */
export function settingsHelp(): string[] {
  return (Object.values(settings) as Setting[]).map(
    (s) =>
      `  ${s.env.padEnd(24)} ${s.doc}\n  ${"".padEnd(24)} default: ${s.default === "" ? "(empty)" : s.default}; accepts ${accepts(s.schema)}`,
  );
}

/** The environment a test or child process needs, built from a partial config. */
export function envFor(overrides: Partial<Record<SettingName, string | number | boolean>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(overrides)) env[settings[name as SettingName].env] = String(value);
  return env;
}
