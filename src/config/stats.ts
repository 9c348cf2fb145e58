// Settings: Statistics: retention, uploads, exports and imports (src/stats/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting, Millis, Bytes } from "./setting.ts";

/** Contract 3 and 8: a day row is sealed 120 days back; no retention may be shorter. */
export const SEAL_HORIZON_DAYS = 120;

export const statsSettings = {
  retentionOptionsDays: setting({
    env: "RETENTION_OPTIONS_DAYS",
    schema: T.Array(T.Integer({ minimum: SEAL_HORIZON_DAYS, maximum: 36_500 }), { minItems: 1, maxItems: 20 }),
    default: "120,365,730,1825",
    doc: `Retention periods a player may choose, in days (each at least the ${SEAL_HORIZON_DAYS}-day seal horizon).`,
  }),
  retentionDefaultDays: setting({
    env: "RETENTION_DEFAULT_DAYS",
    schema: T.Integer({ minimum: SEAL_HORIZON_DAYS, maximum: 36_500 }),
    default: "730",
    doc: "Retention of a new account, in days; must be one of RETENTION_OPTIONS_DAYS.",
  }),
  ingestMaxRows: setting({
    env: "INGEST_MAX_ROWS",
    schema: T.Integer({ minimum: 100, maximum: 1_000_000 }),
    default: "50000",
    doc: "Most counter rows one upload may carry (more is refused too_many_rows; the mod splits).",
  }),
  statsMaxKeysPerProfile: setting({
    env: "STATS_MAX_KEYS_PER_PROFILE",
    schema: T.Integer({ minimum: 10, maximum: 1_000_000 }),
    default: "10000",
    doc: "Most distinct counter keys one profile (and the account scope) may hold; rows of further new keys are refused too_many_keys in the upload's answer, the rest of the upload is stored.",
  }),
  statsMaxProfilesPerAccount: setting({
    env: "STATS_MAX_PROFILES_PER_ACCOUNT",
    schema: T.Integer({ minimum: 1, maximum: 100_000 }),
    default: "100",
    doc: "Most game profiles one account's statistics may hold (a player has a handful at a time); an upload for one more is refused too_many_profiles and stores nothing. Bounds what an account's pages list and read.",
  }),
  clockSkewWarnMs: setting({
    env: "INGEST_CLOCK_SKEW_WARN_MS",
    schema: Millis(1_000, 86_400_000),
    default: "300000",
    doc: "An upload whose sentAt is further than this from the service's clock gets a clock_skew warning (never a refusal).",
  }),
  exportsMaxRunning: setting({
    env: "EXPORTS_MAX_RUNNING",
    schema: T.Integer({ minimum: 1, maximum: 1000 }),
    default: "4",
    doc: "Exports (JSON and CSV) one instance streams at once, one per account; beyond, 503 server_busy with Retry-After.",
  }),
  exportPageRows: setting({
    env: "EXPORT_PAGE_ROWS",
    schema: T.Integer({ minimum: 10, maximum: 50_000 }),
    default: "1000",
    doc: "Stored rows an export reads per statement (a keyset page); between pages other requests are served.",
  }),
  importMaxBytes: setting({
    env: "IMPORT_MAX_BYTES",
    schema: Bytes(64 * 1024, 16 * 1024 * 1024 * 1024),
    default: String(512 * 1024 * 1024),
    doc: "Largest export file an import (POST /v1/stats/import, tally import) takes, decoded; it is read as it streams (never held whole), so this bounds time, not memory. More is refused body_too_large and stores nothing.",
  }),
  importMaxWireBytes: setting({
    env: "IMPORT_MAX_WIRE_BYTES",
    schema: Bytes(8192, 1024 * 1024 * 1024),
    default: String(64 * 1024 * 1024),
    doc: "Largest gzip body POST /v1/stats/import accepts as sent; it is held, and counted in the large bodies' pool (BODY_DECODE_BUDGET_BYTES), while the file is read twice (checked, then applied); one file per account at a time.",
  }),
  importBatchRows: setting({
    env: "IMPORT_BATCH_ROWS",
    schema: T.Integer({ minimum: 10, maximum: 50_000 }),
    default: "5000",
    doc: "Rows of an import file written per statement; between batches other requests get a turn of the event loop.",
  }),
} as const;
