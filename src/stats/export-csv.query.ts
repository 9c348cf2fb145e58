// Reads for the CSV export: the account's day rows with their installs folded (counters.query.ts
// dayFold), with each key's kind and unit and the profile's display name, a page at a time in
// (profile, key, day) order. A page is bounded on the stored rows, not on the folded lines: its end
// is the (profile, key, day) of the page's last stored row in primary-key order, and the page folds
// every row up to and including that group (so no group is split), and no other. Folding first and
// limiting after (as before issue 40) folded every later row of the account for each page.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { dayFold } from "./counters.query.ts";
import { inKeyOrder } from "./export.query.ts";

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

/** A (profile, key, day): one line of the CSV, the installs' rows folded. */
export type Group = [profileId: string, key: string, day: string];

const after = (group: Group | null) =>
  group ? sql` and (d.profile_id, d.key, d.day) > (${group[0]}, ${group[1]}, ${group[2]}::date)` : sql``;

/**
 * One page: the groups after `from` (null: from the start) up to the group of the `size`-th stored
 * row, folded; `end` is that group (the next page starts after it), null when fewer rows were left
 * (the last page).
 */
export function csvPage(
  db: Db,
  uuid: string,
  from: Group | null,
  size: number,
): Promise<{ rows: CsvRow[]; end: Group | null }> {
  return inKeyOrder(db, async (tx) => {
    const [last] = await rows<{ profile_id: string; key: string; day: string }>(
      tx,
      sql`select d.profile_id, d.key, d.day::text as day from counter_days d
      where d.uuid = ${uuid}${after(from)}
      order by d.profile_id, d.key, d.day, d.install_id offset ${size - 1} limit 1`,
    );
    const upTo = last
      ? sql` and (d.profile_id, d.key, d.day) <= (${last.profile_id}, ${last.key}, ${last.day}::date)`
      : sql``;
    const folded = await rows<CsvRow>(
      tx,
      sql`select f.profile_id, p.cute_name, f.key, f.kind, k.unit, f.day, f.value, f.low, f.high
      from (${dayFold(sql`d.uuid = ${uuid}${after(from)}${upTo}`)}) f
        join counter_keys k on k.key = f.key
        left join stat_profiles p on p.uuid = ${uuid} and p.profile_id = f.profile_id
      order by f.profile_id, f.key, f.day`,
    );
    return { rows: folded, end: last ? [last.profile_id, last.key, last.day] : null };
  });
}
