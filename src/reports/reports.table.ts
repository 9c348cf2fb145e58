// Bug intake: one row per problem (a fingerprint), a few recent scrubbed samples of it, and the
// chat outbox (problems whose chat thread is behind their count). Only scrubbed text is stored.
import { pgTable, text, bigint, integer, index } from "drizzle-orm/pg-core";

export const reportProblems = pgTable(
  "report_problems",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
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
    /** The count the starter message shows. */
    chatCount: integer("chat_count").notNull().default(0),
    /** The highest reply threshold already announced in the thread. */
    chatThreshold: integer("chat_threshold").notNull().default(0),
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
