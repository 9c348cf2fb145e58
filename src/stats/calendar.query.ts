// The calendar's aggregate (calendar.table.ts): kept for the account's closed days by the writes
// that change them (closing days, an upload of closed days, retention, erasure), read with the open days
// counted from their day rows.
import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { textArray } from "../db/array-param.ts";
import { closedThrough, openDays } from "./counters.query.ts";

const p = sql.param;

/**
 * Counts again, from the day rows, the keys of the account's (profile, day)s that `where` admits (a
 * condition on `x.profile_id` and `x.day`): a (profile, day) left without rows has no row. The
 * caller holds the account's stats lock; the cost is the rows of those days.
 */
async function recount(tx: Db, uuid: string, where: (x: SQL) => SQL) {
  await tx.execute(sql`delete from counter_day_keys x where x.uuid = ${uuid} and ${where(sql`x`)}`);
  await tx.execute(sql`insert into counter_day_keys (uuid, profile_id, day, keys)
    select x.uuid, x.profile_id, x.day, count(distinct x.key)
    from counter_days x where x.uuid = ${uuid} and ${where(sql`x`)}
    group by x.uuid, x.profile_id, x.day`);
}

/** The account's days in (`from`, `through`] (`from` null: every day up to `through`), as they close. */
export function countClosingDays(tx: Db, uuid: string, from: string | null, through: string) {
  return recount(
    tx,
    uuid,
    (x) => sql`${x}.day <= ${through}::date ${from === null ? sql`` : sql`and ${x}.day > ${from}::date`}`,
  );
}

/** These (profile, day)s of the account, after an upload wrote rows on them (closed days only). */
export function countWrittenDays(tx: Db, uuid: string, days: { profileId: string; day: string }[]) {
  if (days.length === 0) return Promise.resolve();
  return recount(
    tx,
    uuid,
    (x) =>
      sql`(${x}.profile_id, ${x}.day) in (select * from unnest(${textArray(days.map((d) => d.profileId))}::text[], ${textArray(days.map((d) => d.day))}::date[]))`,
  );
}

/**
 * Forgets the account's days before `before`: retention deletes every day row before it, a batch of
 * keys at a time, within one pass (a key it skips keeps its rows but leaves the calendar).
 */
export async function forgetDaysBefore(tx: Db, uuid: string, before: string) {
  await tx.execute(sql`delete from counter_day_keys where uuid = ${uuid} and day < ${before}::date`);
}

export type ActiveDayRow = { day: string; keys: number };

/**
 * The days in [from, to] with any observation of the given profiles, and how many keys each has
 * (summed over the profiles: a key recorded in a profile and in the account scope on one day counts
 * in each): closed days from the aggregate (one row a profile and day), open days from their rows.
 */
export function activeDayRows(db: Db, uuid: string, profileIds: string[], from: string, to: string) {
  const ids = p(profileIds);
  return rows<ActiveDayRow>(
    db,
    sql`with mark as (select ${closedThrough(uuid)} as through)
    select day::text as day, sum(keys)::int as keys from (
      select c.day, c.keys from counter_day_keys c
      where c.uuid = ${uuid} and c.profile_id = any(${ids}::text[]) and c.day between ${from}::date and ${to}::date
        and c.day <= (select through from mark)
      union all
      select d.day, count(distinct d.key) as keys from ${openDays(uuid)} d
      where d.profile_id = any(${ids}::text[]) and d.day between ${from}::date and ${to}::date
      group by d.profile_id, d.day
    ) x
    group by day order by day`,
  );
}
