// Recorded counters. Each (account, profile, key, day, install) is its own row holding the absolute
// value (contract 2.3 rule 3); installs are folded when read. Hot tables lead with the account uuid
// (the distribution column) and carry no foreign key: erasure deletes them explicitly.
import { pgTable, text, bigint, boolean, date, primaryKey, index } from "drizzle-orm/pg-core";

const epoch = (name: string) => bigint(name, { mode: "number" });

export const counterDays = pgTable(
  "counter_days",
  {
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    key: text("key").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    installId: text("install_id").notNull(),
    value: bigint("value", { mode: "number" }).notNull(),
    /** Gauges: the day's lowest and highest reading over every upload (null for other kinds). */
    low: bigint("low", { mode: "number" }),
    high: bigint("high", { mode: "number" }),
    /** The sentAt of the upload that set `value`; an older upload never overwrites a newer one. */
    sentAt: epoch("sent_at").notNull(),
    /**
     * The value this row held before its latest write (null when that write created it). The write
     * returns it, so the rollups move by the difference without a second read of the rows.
     */
    replacedValue: bigint("replaced_value", { mode: "number" }),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.profileId, t.key, t.day, t.installId] })],
);

/** An install's backfill baseline: its lifetime total of a key up to and including `day` (2.6). */
export const counterBackfills = pgTable(
  "counter_backfills",
  {
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    key: text("key").notNull(),
    installId: text("install_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    value: bigint("value", { mode: "number" }).notNull(),
    sentAt: epoch("sent_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.profileId, t.key, t.installId] })],
);

/** A key's kind, unit and category, pinned the first time the key reaches the service (2.3 rule 4). */
export const counterKeys = pgTable("counter_keys", {
  key: text("key").primaryKey(),
  kind: text("kind").notNull(),
  unit: text("unit").notNull(),
  category: text("category").notNull(),
  firstSeenAt: epoch("first_seen_at").notNull(),
});

/** Each upload's batchId and the answer it got, for 7 days (contract 4.1 idempotency). */
export const ingestBatches = pgTable(
  "ingest_batches",
  {
    uuid: text("uuid").notNull(),
    batchId: text("batch_id").notNull(),
    receivedAt: epoch("received_at").notNull(),
    answer: text("answer"),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.batchId] }), index("ingest_batches_received_idx").on(t.receivedAt)],
);

/** The game-mode profiles an account has uploaded for, with the display name last seen (2.1 rule 3). */
export const statProfiles = pgTable(
  "stat_profiles",
  {
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    cuteName: text("cute_name").notNull(),
    firstSeenAt: epoch("first_seen_at").notNull(),
    lastSeenAt: epoch("last_seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.profileId] })],
);

/**
 * The retention seal's baseline: day rows older than the account's retention, folded by kind
 * into one value per key "up to and including `day`", in the transaction that deletes them (2.6).
 */
export const counterSeals = pgTable(
  "counter_seals",
  {
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    key: text("key").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    value: bigint("value", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.profileId, t.key] })],
);

/**
 * A (profile, key)'s day rows folded once, kept current as rows are written, so a lifetime read
 * touches one row per key instead of every day (contract 2.3 folds, derived; never on the wire).
 * `sum`, `max`, `min` cover every day row; the gauge's reading is the greatest (day, sentAt,
 * install). `stale`: a max key's value went down or a min key's went up, so max or min must be
 * recomputed from the day rows before it is read.
 */
export const counterRollups = pgTable(
  "counter_rollups",
  {
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    key: text("key").notNull(),
    sum: bigint("sum", { mode: "number" }).notNull(),
    max: bigint("max", { mode: "number" }).notNull(),
    min: bigint("min", { mode: "number" }).notNull(),
    firstDay: date("first_day", { mode: "string" }).notNull(),
    lastDay: date("last_day", { mode: "string" }).notNull(),
    lastValue: bigint("last_value", { mode: "number" }).notNull(),
    lastSentAt: epoch("last_sent_at").notNull(),
    lastInstall: text("last_install").notNull(),
    stale: boolean("stale").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.profileId, t.key] })],
);
