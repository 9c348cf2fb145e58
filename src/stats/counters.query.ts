// The counters' shared SQL vocabulary, used by ingest, the fold on read, the seal and retention,
// and the rollups job: the account's stats lock, its mark (which days are closed), the one
// fold-by-kind rule, a day's installs folded, the backfill baselines merged, the fold of closed
// days into rollups, and the merge of more days into a rollup.
import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { textArray } from "../db/array-param.ts";

/**
 * Serialises the writers of one account's statistics (ingest, the seal, retention) until the
 * transaction ends: rollup deltas are computed from the values being replaced, which two
 * concurrent uploads of one account would otherwise both read. Other accounts are not held up.
 */
export async function lockAccountStats(tx: Db, uuid: string) {
  await tx.execute(sql`select ${statsLock(uuid)}`);
}

export const statsLock = (uuid: string) => sql`pg_advisory_xact_lock(hashtextextended(${`tally.stats.${uuid}`}, 0))`;

/** The account's mark as SQL: its closed_through, or -infinity when nothing is closed yet. */
export const closedThrough = (uuid: string) =>
  sql`coalesce((select m.closed_through from counter_marks m where m.uuid = ${uuid}), '-infinity'::date)`;

/**
 * The account's open days (after its mark), every profile's, as a row source `d` through the
 * (uuid, day) index (issue 40). Written as `uuid = and day > mark and profile_id =`, the planner
 * without statistics (the embedded database, a fresh Postgres) reads them through the primary
 * key's (uuid, profile_id) range and filters the days: every row the profile ever kept, so a
 * profile of 10 000 keys x 100 days read a million index entries for its two open days. `offset 0`
 * keeps the subquery whole, so its only conditions are the (uuid, day) index's; callers filter the
 * profile (and keys) outside it. A read of one key or a few (a badge, a board) reads them by the
 * primary key instead: that range is one key's.
 */
export const openDays = (uuid: string) =>
  sql`(select * from counter_days where uuid = ${uuid} and day > ${closedThrough(uuid)} offset 0)`;

export type AccountMark = {
  /** The day the account's days are closed through (YYYY-MM-DD). */
  closedThrough: string;
  /** Bounds of every count key's parts (null: not known; as text, since they may pass 2^53); see upsertDays. */
  posBound: string | null;
  negBound: string | null;
  /** The digest of the key set the account last held whole (key-cap.ts). */
  heldKeys: string | null;
};

/**
 * The account's mark as an upload reads it, under the account's stats lock (a statement of its own,
 * after the one that took the lock, so it sees what the last upload or job wrote); null before the
 * account's first upload has claimed its batch.
 */
export async function readMark(db: Db, uuid: string): Promise<AccountMark | null> {
  const [row] = await rows<AccountMark>(
    db,
    sql`select closed_through::text as "closedThrough", pos_bound::text as "posBound", neg_bound::text as "negBound", held_keys as "heldKeys"
    from counter_marks where uuid = ${uuid}`,
  );
  return row ?? null;
}

/** A gauge's latest reading among rows `d` of one day: the later sentAt, ties by the greater installId. */
export const latestReading = sql`d.sent_at desc, d.install_id desc`;
/** A gauge's latest reading among rows `d` of several days: the last day's (latestReading). */
export const latestDayReading = sql`d.day desc, ${latestReading}`;

/** How values are folded where a fold is written: their sum, greatest, least, and latest reading. */
export type Folds = { sum: SQL; max: SQL; min: SQL; latest: SQL };

/**
 * The fold-by-kind rule, the one place it is written (contract 2.3): a count sums, a max keeps the
 * greatest, a min the least, a gauge its latest reading. `f` says how each is taken there.
 */
export const foldByKind = (kind: SQL, f: Folds) => sql`case ${kind}
    when 'count' then ${f.sum}
    when 'max' then ${f.max}
    when 'min' then ${f.min}
    else ${f.latest}
  end`;

/**
 * The folds of many rows' `value`, as aggregates; `latestFirst` orders the latest reading first.
 * The gauge's ordered aggregate only reads the rows `isGauge` admits, so other kinds never pay for
 * its sort.
 */
export const overRows = (value: SQL, latestFirst: SQL, isGauge: SQL): Folds => ({
  sum: sql`sum(${value})`,
  max: sql`max(${value})`,
  min: sql`min(${value})`,
  latest: sql`(array_agg(${value} order by ${latestFirst}) filter (where ${isGauge}))[1]`,
});

/** The folds of an earlier value (null: none) and a later one: they add, widen, the later reading wins. */
export const overPair = (earlier: SQL, later: SQL): Folds => ({
  sum: sql`coalesce(${earlier}, 0) + ${later}`,
  max: sql`greatest(${earlier}, ${later})`,
  min: sql`least(${earlier}, ${later})`,
  latest: later,
});

/**
 * The installs of each (profile, key, day) folded into one value, for the rows `where` admits of
 * `rows` (counter_days, or a subquery of its rows with the same columns).
 */
export const dayFold = (where: SQL, rows: SQL = sql`counter_days`) => sql`
  select d.profile_id, d.key, d.day::text as day, k.kind,
    ${foldByKind(sql`k.kind`, overRows(sql`d.value`, latestReading, sql`k.kind = 'gauge'`))} as value,
    min(d.low) as low, max(d.high) as high
  from ${rows} d join counter_keys k on k.key = d.key
  where ${where}
  group by d.profile_id, d.key, d.day, k.kind`;

/**
 * Each (profile, key)'s backfill baseline, installs merged by maximum (count and max: the largest;
 * min: the smallest; gauge: the latest day), with the winning backfill's date.
 */
export const mergedBackfill = (where: SQL) => sql`
  select distinct on (b.profile_id, b.key) b.profile_id, b.key, b.day, b.value
  from counter_backfills b join counter_keys k on k.key = b.key
  where ${where}
  order by b.profile_id, b.key,
    case when k.kind = 'min' then b.value end asc nulls last,
    case when k.kind in ('count', 'max') then b.value end desc nulls last,
    b.day desc, b.sent_at desc, b.install_id desc`;

const newer = sql`(excluded.last_day, excluded.last_sent_at, excluded.last_install) >= (counter_rollups.last_day, counter_rollups.last_sent_at, counter_rollups.last_install)`;

/**
 * How a rollup row takes in the fold of more day rows (`excluded`): sums and parts add, max and
 * min widen, the span of days widens, the reading with the later (day, sentAt, install) wins, and
 * stale stays stale. The one merge for ingest's deltas and for closing days.
 */
export const rollupMerge = sql`
        sum = counter_rollups.sum + excluded.sum,
        pos = counter_rollups.pos + excluded.pos,
        neg = counter_rollups.neg + excluded.neg,
        max = greatest(counter_rollups.max, excluded.max),
        min = least(counter_rollups.min, excluded.min),
        first_day = least(counter_rollups.first_day, excluded.first_day),
        last_day = greatest(counter_rollups.last_day, excluded.last_day),
        last_value = case when ${newer} then excluded.last_value else counter_rollups.last_value end,
        last_sent_at = case when ${newer} then excluded.last_sent_at else counter_rollups.last_sent_at end,
        last_install = case when ${newer} then excluded.last_install else counter_rollups.last_install end,
        stale = counter_rollups.stale or excluded.stale`;

const latestOf = (column: string) => sql`(array_agg(d.${sql.raw(column)} order by ${latestDayReading}))[1]`;

/**
 * The closed-days fold: inserts, per (profile, key) of the day rows `d` that `where` admits, their
 * rollup (sums and parts of count keys only, see counterRollups; max, min, the span of days, the
 * latest reading). Rebuilding rollups and closing days both write it; a part past the safe range
 * breaks its check.
 */
export const foldIntoRollups = (
  where: SQL,
) => sql`insert into counter_rollups (uuid, profile_id, key, sum, pos, neg, max, min, first_day, last_day, last_value, last_sent_at, last_install, stale)
    select d.uuid, d.profile_id, d.key,
      coalesce(sum(d.value) filter (where k.kind = 'count'), 0),
      coalesce(sum(greatest(d.value, 0)) filter (where k.kind = 'count'), 0),
      coalesce(sum(least(d.value, 0)) filter (where k.kind = 'count'), 0),
      max(d.value), min(d.value), min(d.day), max(d.day), ${latestOf("value")}, ${latestOf("sent_at")}, ${latestOf("install_id")}, false
    from counter_days d join counter_keys k on k.key = d.key
    where ${where}
    group by d.uuid, d.profile_id, d.key`;

/** The condition on `alias`.key of a read of one key or a list of keys (none: every key). */
export const onlyKeys = (alias: string, only?: string | string[]) =>
  only === undefined
    ? sql``
    : typeof only === "string"
      ? sql` and ${sql.raw(alias)}.key = ${only}`
      : sql` and ${sql.raw(alias)}.key = any(${textArray(only)}::text[])`;
