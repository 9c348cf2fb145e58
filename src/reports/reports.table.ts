// Bug intake: one row per problem (a fingerprint), a few recent scrubbed samples of it, and the
// chat outbox (problems whose chat thread is behind their count). Only scrubbed text is stored.
import { pgTable, text, bigint, integer, index, primaryKey } from "drizzle-orm/pg-core";

export const reportProblems = pgTable(
  "report_problems",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    /** The number maintainers see and type (1, 2, 3 ... without gaps; `id` skips on repeats). */
    number: integer("number").notNull().unique(),
    fingerprint: text("fingerprint").notNull().unique(),
    tool: text("tool").notNull(),
    /** "frames": type and in-app frames; "message": a parameterised message. */
    kind: text("kind").notNull(),
    exceptionType: text("exception_type"),
    /** What the fingerprint hashes, readable (frames or a parameterised message). */
    signature: text("signature").notNull(),
    /** The first report's scrubbed title. */
    title: text("title").notNull(),
    count: integer("count").notNull(),
    firstSeenAt: bigint("first_seen_at", { mode: "number" }).notNull(),
    lastSeenAt: bigint("last_seen_at", { mode: "number" }).notNull(),
    minVersion: text("min_version").notNull(),
    maxVersion: text("max_version").notNull(),
    lastMinecraft: text("last_minecraft").notNull(),
    /** The chat thread (Discord: the thread's channel id) and its starter message, once created. */
    chatThreadId: text("chat_thread_id"),
    chatMessageId: text("chat_message_id"),
    /** When a post about this problem (a new thread, a reply) was sent and its answer never came:
     * it may be in the chat or not. Nothing is posted for it again before CHAT_UNCERTAIN_PAUSE_MS. */
    chatUncertainAt: bigint("chat_uncertain_at", { mode: "number" }),
    /** The count the starter message shows. */
    chatCount: integer("chat_count").notNull().default(0),
    /** The highest reply threshold already announced in the thread. */
    chatThreshold: integer("chat_threshold").notNull().default(0),
    /** "open", "resolved" (in `resolvedIn`) or "muted" (counted, never posted). */
    state: text("state").notNull().default("open"),
    resolvedIn: text("resolved_in"),
    /** The version that brought a resolved problem back (cleared by the next resolve). */
    regressedIn: text("regressed_in"),
    /** The newest state change (report_events.id); the chat has announced up to `chatEventSeen`. */
    eventSeq: integer("event_seq").notNull().default(0),
    chatEventSeen: integer("chat_event_seen").notNull().default(0),
  },
  (t) => [index("report_problems_count_idx").on(t.count)],
);

export const reportSamples = pgTable(
  "report_samples",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    problemId: integer("problem_id")
      .notNull()
      .references(() => reportProblems.id, { onDelete: "cascade" }),
    receivedAt: bigint("received_at", { mode: "number" }).notNull(),
    modVersion: text("mod_version").notNull(),
    minecraft: text("minecraft").notNull(),
    loader: text("loader"),
    title: text("title").notNull(),
    message: text("message"),
    steps: text("steps"),
    stackTrace: text("stack_trace"),
  },
  (t) => [index("report_samples_problem_idx").on(t.problemId, t.id)],
);

export const reportOutbox = pgTable(
  "report_outbox",
  {
    problemId: integer("problem_id")
      .primaryKey()
      .references(() => reportProblems.id, { onDelete: "cascade" }),
    /** Bumped by every report of the problem; the drain deletes the row only if it did not move. */
    seq: integer("seq").notNull(),
    dueAt: bigint("due_at", { mode: "number" }).notNull(),
    /** Failures in a row (the backoff doubles with each). */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [index("report_outbox_due_idx").on(t.dueAt)],
);

/** Every state change of a problem, with its time and version (the audit list). */
export const reportEvents = pgTable(
  "report_events",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    problemId: integer("problem_id")
      .notNull()
      .references(() => reportProblems.id, { onDelete: "cascade" }),
    at: bigint("at", { mode: "number" }).notNull(),
    /** "resolved", "reopened", "muted" or "regressed". */
    action: text("action").notNull(),
    /** resolved: the fixing version; regressed: the version that brought it back. */
    version: text("version"),
    /** Who: "cli", "admin" (routes and page) or "intake" (a regression). */
    actor: text("actor").notNull(),
  },
  (t) => [index("report_events_problem_idx").on(t.problemId, t.id)],
);

/** Reports per problem and UTC day (the daily counts and sparklines). */
export const reportDays = pgTable(
  "report_days",
  {
    problemId: integer("problem_id")
      .notNull()
      .references(() => reportProblems.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.problemId, t.day] })],
);

/** Reports per problem and mod version (versions seen; the page's version filter). */
export const reportVersions = pgTable(
  "report_versions",
  {
    problemId: integer("problem_id")
      .notNull()
      .references(() => reportProblems.id, { onDelete: "cascade" }),
    version: text("version").notNull(),
    count: integer("count").notNull(),
    lastSeenAt: bigint("last_seen_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.problemId, t.version] }), index("report_versions_version_idx").on(t.version)],
);

/** What the chat said about the webhook itself (deleted: 404 Unknown Webhook), by webhook. */
export const reportChatStatus = pgTable("report_chat_status", {
  /** SHA-256 of the webhook URL: a new CHAT_WEBHOOK_URL starts clean. */
  webhookKey: text("webhook_key").primaryKey(),
  /** "webhook_gone" (posting stopped) or "tag_required" (new threads refused until tags are set). */
  status: text("status").notNull(),
  since: bigint("since", { mode: "number" }).notNull(),
  detail: text("detail").notNull(),
});

/**
 * The maintainers' page's sessions, one row per sign-in: the cookie holds a random token, the row
 * its SHA-256. Signing out deletes the row, so a copied cookie stops working on every instance.
 */
export const adminSessions = pgTable(
  "admin_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    /** HMAC of a constant under the ADMIN_TOKEN that signed it in: a new ADMIN_TOKEN ends every session. */
    adminKey: text("admin_key").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("admin_sessions_expires_idx").on(t.expiresAt)],
);
