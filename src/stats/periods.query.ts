// Period totals (issue 16): each key's day rows folded over calendar windows (a day, a week, a
// month, a year and the one before each), by the one fold-by-kind rule of counters.query.ts (a
// count sums, a max keeps the greatest, a min the least, a gauge the last day's latest reading).
// One query, ordered.
import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { closedThrough, foldByKind, latestDayReading, overRows } from "./counters.query.ts";

/** A named window of days [from, to]. */
export type Window = { name: string; from: string; to: string };

export type WindowRow = { window: string; key: string; kind: string; unit: string; value: number | string };

/**
 * Per window and key of one profile: the fold of its observed days in the window (a key without
 * one is absent). Folding every install row of the window at once is the same as folding each
 * day's installs and then the days: sums add up either way, the extremes are the same, and a
 * gauge's latest reading by (day, sentAt, installId) is its last day's latest reading.
 */
export function windowRows(db: Db, uuid: string, profileId: string, windows: Window[], keys?: string[]) {
  const list = sql.join(
    windows.map((w) => sql`(${w.name}, ${w.from}::date, ${w.to}::date)`),
    sql`, `,
  );
  const folds = overRows(sql`d.value`, latestDayReading, sql`k.kind = 'gauge'`);
  // Given keys (the figures a page shows, issue 40), each key's days of each window are one range of
  // the primary key's index: a lateral subquery kept apart by `offset 0`, its (key, day) compared as
  // a row, which only that index reads as a range. Joined rather than lateral, or with the subquery
  // pulled up, or with separate conditions (which the (uuid, day) index takes, then filters every
  // key of the window), the embedded database read 4 300 to 30 000 rows for 72 keys of 1 000 over 30
  // days, where this reads the 1 008 it folds.
  const source = keys
    ? sql`unnest(${sql.param(keys)}::text[]) as s(key) cross join w
      cross join lateral (
        select d.key, d.day, d.value, d.sent_at, d.install_id from counter_days d
        where d.uuid = ${uuid} and d.profile_id = ${profileId} and (d.key, d.day) >= (s.key, w.lo) and (d.key, d.day) <= (s.key, w.hi)
        offset 0
      ) d`
    : sql`w join counter_days d on d.uuid = ${uuid} and d.profile_id = ${profileId} and d.day between w.lo and w.hi`;
  return rows<WindowRow>(
    db,
    sql`with w(name, lo, hi) as (values ${list})
    select w.name as window, d.key, k.kind, k.unit, ${foldByKind(sql`k.kind`, folds)} as value
    from ${source}
      join counter_keys k on k.key = d.key
    group by w.name, d.key, k.kind, k.unit
    order by d.key collate "C", w.name collate "C"`,
  );
}

/**
 * Up to `limit` keys of one profile with day rows that meet `range` (a condition on `key`), in the
 * key index's order (the database's collation: bytes on the embedded database, and for the key
 * grammar's ASCII on Postgres under C or C.UTF-8): its rollups' keys (closed days) and its open
 * days' keys, each read in that order from the key index and cut at `limit`. Ordered by a collation
 * other than the index's, the rollups' keys were all read and sorted first: a profile of 10 000 keys
 * read 10 000 to answer 70 (issue 40).
 */
async function profileKeysIn(db: Db, uuid: string, profileId: string, range: SQL, limit: number) {
  const found = await rows<{ key: string }>(
    db,
    sql`select key from (
      (select key from counter_rollups where uuid = ${uuid} and profile_id = ${profileId}${range} order by key limit ${limit})
      union
      (select key from counter_days where uuid = ${uuid} and profile_id = ${profileId} and day > ${closedThrough(uuid)}${range}
        group by key order by key limit ${limit})
    ) k order by key limit ${limit}`,
  );
  return found.map((r) => r.key);
}

/** Up to `limit` keys of one profile with day rows, in key order (bytes) after `after`. */
export function profileKeysAfter(db: Db, uuid: string, profileId: string, after: string | null, limit: number) {
  // The cursor compares in the order the keys are listed in (the index's collation).
  return profileKeysIn(db, uuid, profileId, after === null ? sql`` : sql` and key > ${after}`, limit);
}

/** Up to `limit` keys of one profile with day rows whose key starts with `prefix` (boards, issue 35). */
export function profileKeysWithPrefix(db: Db, uuid: string, profileId: string, prefix: string, limit: number) {
  // Keys from `prefix` up to the next string of its length: byte order (collate "C") holds them together.
  const last = prefix.charCodeAt(prefix.length - 1);
  const end = prefix.slice(0, -1) + String.fromCharCode(last + 1);
  return profileKeysIn(db, uuid, profileId, sql` and key >= ${prefix} collate "C" and key < ${end} collate "C"`, limit);
}
