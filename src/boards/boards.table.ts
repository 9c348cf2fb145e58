// The boards' own tables (issue 35): who opted in to which board groups, each ranked player's score
// per board and window, and how many scores each value bucket of a board's window holds (the
// ranking's index: docs/decisions.md, "Boards: ranking by value buckets").
import { pgTable, text, bigint, integer, smallint, primaryKey, index } from "drizzle-orm/pg-core";

/** One row per account and board group it opted in to; `*` is every group. No row: on no board. */
export const boardOptins = pgTable(
  "board_optins",
  {
    uuid: text("uuid").notNull(),
    grp: text("grp").notNull(),
    at: bigint("at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.grp] })],
);

/**
 * A ranked figure: one account's (profile's, for a profile-scoped board) figure on one board in one
 * window (`week:2026-W47`, `month:2026-11`, `all`). `sortValue` orders best first in ascending order
 * (the value negated where higher is better), `bucket` is its quantised value (buckets.ts), and
 * `reachedAt` when the value was reached (ties: earlier first, then uuid and profile).
 */
export const boardScores = pgTable(
  "board_scores",
  {
    board: text("board").notNull(),
    window: text("window").notNull(),
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    value: bigint("value", { mode: "bigint" }).notNull(),
    sortValue: bigint("sort_value", { mode: "bigint" }).notNull(),
    bucket: integer("bucket").notNull(),
    reachedAt: bigint("reached_at", { mode: "number" }).notNull(),
    /** The profile's cute name as its upload gave it (the account's own data; shown beside the name). */
    cuteName: text("cute_name"),
  },
  (t) => [
    primaryKey({ columns: [t.uuid, t.board, t.window, t.profileId] }),
    index("board_scores_rank_idx").on(t.board, t.window, t.bucket, t.sortValue, t.reachedAt, t.uuid, t.profileId),
  ],
);

/**
 * How many scores of a board's window lie in each bucket (level 0) and in each group of 100
 * buckets (level 1, `bucket` = floor(bucket / 100)): a rank sums the better groups, then the better
 * buckets of its group, so a walk reads a few hundred rows however many buckets a board has.
 */
export const boardBuckets = pgTable(
  "board_buckets",
  {
    board: text("board").notNull(),
    window: text("window").notNull(),
    level: smallint("level").notNull(),
    bucket: integer("bucket").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.board, t.window, t.level, t.bucket] })],
);

/** Accounts the operator excluded from every board (`tally boards exclude <name>`). */
export const boardExclusions = pgTable("board_exclusions", {
  uuid: text("uuid").primaryKey(),
  at: bigint("at", { mode: "number" }).notNull(),
});

/**
 * Figures held out of the ranking for passing their board's plausibility bound, listed for the
 * operator (`tally boards held`); while an account has one on a board, none of its figures there
 * rank.
 */
export const boardHeld = pgTable(
  "board_held",
  {
    uuid: text("uuid").notNull(),
    board: text("board").notNull(),
    window: text("window").notNull(),
    profileId: text("profile_id").notNull(),
    value: bigint("value", { mode: "bigint" }).notNull(),
    at: bigint("at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.board, t.window, t.profileId] })],
);

/**
 * Scores an upload may have moved, waiting for the boards.refresh job (BOARDS_REFRESH_MS > 0): one
 * row per account, profile, board and window; `at` is the latest upload's time (the score's
 * `reachedAt`) and `cuteName` its profile's. Written only for an account that opted in.
 */
export const boardPending = pgTable(
  "board_pending",
  {
    uuid: text("uuid").notNull(),
    profileId: text("profile_id").notNull(),
    board: text("board").notNull(),
    window: text("window").notNull(),
    cuteName: text("cute_name"),
    at: bigint("at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.uuid, t.profileId, t.board, t.window] })],
);
