// Period totals (issue 16): each key's day rows folded over calendar windows (a day, a week, a
// month, a year and the one before each), by the one fold-by-kind rule of counters.query.ts (a
// count sums, a max keeps the greatest, a min the least, a gauge the last day's latest reading).
// One query, ordered.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { foldByKind, latestDayReading, overRows } from "./counters.query.ts";

/** A named window of days [from, to]. */
export type Window = { name: string; from: string; to: string };

export type WindowRow = { window: string; key: string; kind: string; unit: string; value: number | string };

/**
 * Per window and key of one profile: the fold of its observed days in the window (a key without
 * one is absent). Folding every install row of the window at once is the same as folding each
 * day's installs and then the days: sums add up either way, the extremes are the same, and a
 * gauge's latest reading by (day, sentAt, installId) is its last day's latest reading.
 */
export function windowRows(db: Db, uuid: string, profileId: string, windows: Window[]) {
  const list = sql.join(
    windows.map((w) => sql`(${w.name}, ${w.from}::date, ${w.to}::date)`),
    sql`, `,
  );
  const folds = overRows(sql`d.value`, latestDayReading, sql`k.kind = 'gauge'`);
  return rows<WindowRow>(
    db,
    sql`with w(name, lo, hi) as (values ${list})
    select w.name as window, d.key, k.kind, k.unit, ${foldByKind(sql`k.kind`, folds)} as value
    from w join counter_days d on d.uuid = ${uuid} and d.profile_id = ${profileId} and d.day between w.lo and w.hi
      join counter_keys k on k.key = d.key
    group by w.name, d.key, k.kind, k.unit
    order by d.key collate "C", w.name collate "C"`,
  );
}

export type ActiveDayRow = { day: string; keys: number };

/**
 * The days in [from, to] with any observation of the given profiles, and how many keys each has (a
 * key of both counts once; the distinct of text keys costs a fifth of a distinct of (profile, key)).
 */
export function activeDayRows(db: Db, uuid: string, profileIds: string[], from: string, to: string) {
  const ids = sql.join(
    profileIds.map((id) => sql`${id}`),
    sql`, `,
  );
  return rows<ActiveDayRow>(
    db,
    sql`select d.day::text as day, count(distinct d.key)::int as keys
    from counter_days d
    where d.uuid = ${uuid} and d.profile_id in (${ids}) and d.day between ${from}::date and ${to}::date
    group by d.day order by d.day`,
  );
}
