// Recorded counters. Each (account, profile, key, day, install) is its own row holding the absolute
// value (contract 2.3 rule 3); installs are folded when read. Hot tables lead with the account uuid
// (the distribution column) and carry no foreign key: erasure deletes them explicitly.
import { sql } from "drizzle-orm";
import { pgTable, text, bigint, boolean, date, numeric, primaryKey, index, check } from "drizzle-orm/pg-core";
import { SAFE_LIMIT } from "../wire/safe-integer.ts";

const safe = (column: string) => sql.raw(`"${column}" between -${SAFE_LIMIT} and ${SAFE_LIMIT}`);

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
  (t) => [
    primaryKey({ columns: [t.uuid, t.profileId, t.key, t.day, t.installId] }),
    // The account's open days (after its counter_marks row), read by lifetime, charts and the rollups job.
    index("counter_days_uuid_day_idx").on(t.uuid, t.day),
  ],
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
  // A count's seal grows by every retention run; past the safe range it could not be served exactly.
  (t) => [primaryKey({ columns: [t.uuid, t.profileId, t.key] }), check("counter_seals_value_safe", safe("value"))],
);

/**
 * A (profile, key)'s day rows folded once, kept current as rows are written, so a lifetime read
 * touches one row per key instead of every day (contract 2.3 folds, derived; never on the wire).
 * `sum`, `max`, `min` cover every day row; the gauge's reading is the greatest (day, sentAt,
 * install). `stale`: a max key's value went down or a min key's went up, so max or min must be
 * recomputed from the day rows before it is read.
 *
 * `sum`, `pos` and `neg` are kept for count keys only (0 for the other kinds, which never add):
 * `pos` is the sum of the positive day values, `neg` of the negative ones. Both stay within the
 * safe integer range (checked here), so every sum of any of the key's stored day rows does too:
 * the lifetime's days, a day's installs, a sealed day, a retention span (docs/decisions.md).
 */
export const counterRollups = pgTable(
  "counter_rollups",
  {
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    key: text("key").notNull(),
    sum: bigint("sum", { mode: "number" }).notNull(),
    pos: bigint("pos", { mode: "number" }).notNull().default(0),
    neg: bigint("neg", { mode: "number" }).notNull().default(0),
    max: bigint("max", { mode: "number" }).notNull(),
    min: bigint("min", { mode: "number" }).notNull(),
    firstDay: date("first_day", { mode: "string" }).notNull(),
    lastDay: date("last_day", { mode: "string" }).notNull(),
    lastValue: bigint("last_value", { mode: "number" }).notNull(),
    lastSentAt: epoch("last_sent_at").notNull(),
    lastInstall: text("last_install").notNull(),
    stale: boolean("stale").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.uuid, t.profileId, t.key] }),
    // Upper and lower bound only: an upsert's proposed row carries the deltas, which may go either way.
    check("counter_rollups_pos_safe", sql.raw(`"pos" <= ${SAFE_LIMIT}`)),
    check("counter_rollups_neg_safe", sql.raw(`"neg" >= -${SAFE_LIMIT}`)),
  ],
);

/**
 * Each account's closed days: counter_rollups holds exactly the fold of the account's day rows up
 * to and including `closed_through`; later days are open, written without moving any rollup and
 * folded when read. The stats.rollups job moves the mark forward (never back) to the account's
 * today minus 2, folding the days it closes into the rollups. No row: nothing is closed.
 *
 * The row also says where the account's day rows lie, so each job finds the accounts it has work
 * for by one range read of an index here, never by a probe of counter_days per account (issue 15):
 * an upload moves `first_day`, `last_day` and `unsealed_from` to take in its days, and the job that
 * removes rows sets them again from what is left, under the account's stats lock either way.
 */
export const counterMarks = pgTable(
  "counter_marks",
  {
    uuid: text("uuid").primaryKey(),
    closedThrough: date("closed_through", { mode: "string" }).notNull(),
    /**
     * The SHA-256 of the last (profile, key) set an upload of the account found held whole under the
     * key cap (key-cap.ts): the next upload of the same set skips the cap's probes. Gone with the row
     * on erasure. Null: none yet.
     */
    heldKeys: text("held_keys"),
    /**
     * Bounds of every count key's parts (positive and negative, over its rollup and open days): no
     * key's are beyond them. Each day write widens them by its largest change of a key's parts, so an
     * upload that keeps them inside the safe range needs no read of its keys' open days (upsertDays).
     * Null: not known (checked key by key); an account's first mark starts them at 0.
     */
    posBound: numeric("pos_bound"),
    negBound: numeric("neg_bound"),
    /** No day row is before it (retention's due accounts); null: the account has none. */
    firstDay: date("first_day", { mode: "string" }),
    /** No day row is after it (the rollups' due accounts: those with days after their mark). */
    lastDay: date("last_day", { mode: "string" }),
    /**
     * The seal mark: no per-install day row is before it (the seal's due accounts: those with one
     * before their horizon, read from here on); null: the account has none.
     */
    unsealedFrom: date("unsealed_from", { mode: "string" }),
  },
  (t) => [
    index("counter_marks_first_day_idx").on(t.firstDay),
    index("counter_marks_unsealed_from_idx").on(t.unsealedFrom),
    index("counter_marks_open_idx").on(t.uuid).where(sql`${t.lastDay} > ${t.closedThrough}`),
    // The accounts with days since a period began (recaps.close), a page at a time by (last day, uuid).
    index("counter_marks_last_day_idx").on(t.lastDay, t.uuid),
  ],
);
