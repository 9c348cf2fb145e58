// Rates per hour (issue 16): one profile's sessions of a range of days, per activity: how many,
// their summed length, and each gain's and cost's summed amount (a session belongs to the day it
// began: contract 2.1 rule 4). Read from session_rates, the lines each session write keeps, newest
// day first and at most `maxLines` of them, so a page costs the same however many sessions a day holds.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";

export type RateRow = {
  activity: string;
  /** null: the activity's own line (sessions and summed length); else a gain or a cost */
  side: "gain" | "cost" | null;
  key: string | null;
  amount: number | string;
  sessions: number | string;
  /** The first day counted: `from`, or a later day when the range held more than `maxLines` lines. */
  since: string;
};

export function rateRows(db: Db, uuid: string, profileId: string, from: string, to: string, maxLines: number) {
  // When the newest maxLines lines end inside a day, that day is left out whole: a day is counted
  // entirely or not at all, and the answer says from which day it counts.
  return rows<RateRow>(
    db,
    sql`with r as (
      select day, activity, side, key, amount, sessions from session_rates
      where uuid = ${uuid} and profile_id = ${profileId} and day between ${from}::date and ${to}::date
      order by day desc limit ${maxLines + 1}
    ),
    edge as (
      select case when count(*) > ${maxLines} then (min(day) + 1) else ${from}::date end as since from r
    )
    select r.activity, nullif(r.side, '') as side, nullif(r.key, '') as key, sum(r.amount) as amount,
      sum(r.sessions) as sessions, (select since::text from edge) as since
    from r where r.day >= (select since from edge)
    group by r.activity, r.side, r.key
    having sum(r.sessions) > 0
    order by r.activity collate "C", r.side collate "C", r.key collate "C"`,
  );
}
