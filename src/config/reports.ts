// Settings: Bug reports, release health and the maintainers' chat (src/reports/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting, OptionalUrl, Millis, Bytes } from "./setting.ts";

export const reportsSettings = {
  reportTools: setting({
    env: "REPORT_TOOLS",
    schema: T.Array(T.String({ pattern: "^[a-z][a-z0-9_-]{0,31}$", maxLength: 32 }), { maxItems: 64 }),
    default: "general",
    doc: "The mod's features that may send bug reports (POST /v1/reports/<tool>); another tool answers 404.",
  }),
  reportRateLimit: setting({
    env: "REPORT_RATE_LIMIT_PER_HOUR",
    schema: T.Integer({ minimum: 0, maximum: 1_000_000 }),
    default: "30",
    doc: "Bug reports one client address may send per hour. 0: no limit.",
  }),
  reportMaxBodyBytes: setting({
    env: "REPORT_MAX_BODY_BYTES",
    schema: Bytes(4096, 1024 * 1024),
    default: "65536",
    doc: "Largest bug report body after gunzip, in bytes.",
  }),
  reportSamplesKept: setting({
    env: "REPORT_SAMPLES_KEPT",
    schema: T.Integer({ minimum: 1, maximum: 100 }),
    default: "5",
    doc: "How many recent scrubbed reports each problem keeps.",
  }),
  reportRegressionMinAccounts: setting({
    env: "REPORT_REGRESSION_MIN_ACCOUNTS",
    schema: T.Integer({ minimum: 0, maximum: 1000 }),
    default: "1",
    doc: "A bug report reopens a resolved problem only when at least this many signed-in accounts upload from its mod version (a stranger cannot claim a version nobody runs). 0: any version may (a service that takes no uploads).",
  }),
  reportAppPackages: setting({
    env: "REPORT_APP_PACKAGES",
    schema: T.Array(T.String({ pattern: "^[A-Za-z_][A-Za-z0-9_.$]{0,127}$", maxLength: 128 }), { maxItems: 32 }),
    default: "",
    doc: "Java package prefixes of the mod's own code (stack frames that group problems). Empty: every frame outside the JDK, the game, its loaders and common libraries.",
  }),
  releaseHealthDays: setting({
    env: "RELEASE_HEALTH_DAYS",
    schema: T.Integer({ minimum: 7, maximum: 3650 }),
    default: "180",
    doc: "How many days of release health (active installs with statistics on and bug reports, per mod version and UTC day) are kept.",
  }),
  releaseSummaryMinInstalls: setting({
    env: "RELEASE_SUMMARY_MIN_INSTALLS",
    schema: T.Integer({ minimum: 1, maximum: 100_000_000 }),
    default: "50",
    doc: "Active installs (with statistics on) a new mod version must reach in one UTC day before the chat gets its release summary (posted that day and once more a week later).",
  }),
  chatWebhookUrl: setting({
    env: "CHAT_WEBHOOK_URL",
    schema: OptionalUrl,
    default: "",
    doc: "Maintainers' chat webhook for bug threads. Empty: reports are stored and counted only.",
    secret: true,
  }),
  chatReplyThresholds: setting({
    env: "CHAT_REPLY_THRESHOLDS",
    schema: T.Array(T.Integer({ minimum: 2, maximum: 1_000_000_000 }), { maxItems: 32 }),
    default: "10,100,1000,10000",
    doc: "Counts at which a problem's chat thread gets a reply (the starter message's count is edited on every repeat).",
  }),
  chatForumTagIds: setting({
    env: "CHAT_FORUM_TAG_IDS",
    schema: T.Array(T.String({ pattern: "^[0-9]{1,20}$", maxLength: 20 }), { maxItems: 5 }),
    default: "",
    doc: "Ids of the forum tags to apply to each new bug thread (comma-separated, at most 5); needed when the forum requires a tag. Empty: no tags.",
  }),
  chatRetryBaseMs: setting({
    env: "CHAT_RETRY_BASE_MS",
    schema: Millis(100, 3_600_000),
    default: "5000",
    doc: "First wait before retrying the chat after a failure; it doubles on each failure in a row.",
  }),
  chatRetryMaxMs: setting({
    env: "CHAT_RETRY_MAX_MS",
    schema: Millis(1000, 86_400_000),
    default: "600000",
    doc: "Longest wait between chat retries.",
  }),
  chatTimeoutMs: setting({
    env: "CHAT_TIMEOUT_MS",
    schema: Millis(100, 600_000),
    default: "60000",
    doc: "How long one call of the chat outbox (a background job nobody waits on) may take, its whole answer included. A new thread or reply whose answer does not come within it may be in the chat or not: see CHAT_UNCERTAIN_PAUSE_MS.",
  }),
  chatUncertainPauseMs: setting({
    env: "CHAT_UNCERTAIN_PAUSE_MS",
    schema: Millis(1000, 86_400_000),
    default: "900000",
    doc: "How long a problem waits before its thread (or reply) is posted once more when the chat never answered the first post; the new thread says an earlier one may exist. Other problems keep being posted meanwhile.",
  }),
} as const;
