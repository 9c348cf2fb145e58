// Rates per hour (issue 16): one profile's sessions of a range of days, per activity: how many,
// their summed length, and each gain's and cost's summed amount (a session belongs to the day it
// began: contract 2.1 rule 4).
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";

export type RateRow = {
  activity: string;
  /** null: the activity's own line (sessions and summed length); else a gain or a cost */
  side: "gain" | "cost" | null;
  key: string | null;
  amount: number | string;
  sessions: number | string;
};

export function rateRows(db: Db, uuid: string, profileId: string, from: string, to: string) {
  return rows<RateRow>(
    db,
    sql`with s as (
      select activity, ended_at - started_at as ms, gains, costs from sessions
      where uuid = ${uuid} and profile_id = ${profileId} and day between ${from}::date and ${to}::date
    )
    select * from (
    select activity, null::text as side, null::text as key, sum(ms) as amount, count(*) as sessions from s group by activity
    union all
    select s.activity, 'gain', a->>'k', sum((a->>'v')::numeric), count(*) from s cross join jsonb_array_elements(s.gains) a group by 1, 2, 3
    union all
    select s.activity, 'cost', a->>'k', sum((a->>'v')::numeric), count(*) from s cross join jsonb_array_elements(s.costs) a group by 1, 2, 3
    ) u order by u.activity collate "C", u.side collate "C" nulls first, u.key collate "C"`,
  );
}
