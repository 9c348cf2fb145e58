// Reads for the CSV export: the account's day rows with their installs folded (counters.query.ts
// dayFold), with each key's kind and unit and the profile's display name, a page at a time in
// (profile, key, day) order (keyset pagination), so an account of any size streams in flat memory.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { dayFold } from "./counters.query.ts";

export type CsvRow = {
  profile_id: string;
  cute_name: string | null;
  key: string;
  kind: string;
  unit: string;
  day: string;
  value: number | string;
  low: number | string | null;
  high: number | string | null;
};

/** One page of folded day rows after (profile, key, day) `after`, or the first page. */
export function csvPage(db: Db, uuid: string, after: [string, string, string] | null, size: number) {
  const keyset = after ? sql` and (d.profile_id, d.key, d.day) > (${after[0]}, ${after[1]}, ${after[2]}::date)` : sql``;
  return rows<CsvRow>(
    db,
    sql`select f.profile_id, p.cute_name, f.key, f.kind, k.unit, f.day, f.value, f.low, f.high
    from (${dayFold(sql`d.uuid = ${uuid}${keyset}`)} order by d.profile_id, d.key, d.day limit ${size}) f
      join counter_keys k on k.key = f.key
      left join stat_profiles p on p.uuid = ${uuid} and p.profile_id = f.profile_id
    order by f.profile_id, f.key, f.day`,
  );
}
