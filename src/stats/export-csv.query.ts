// Reads for the CSV export: the account's day rows with their installs folded (counters.query.ts
// dayFold), with each key's kind and unit and the profile's display name, a page at a time in
// (profile, key, day) order. A page is bounded on the stored rows, not on the folded lines: its end
// is the (profile, key, day) of the page's last stored row in primary-key order, and the page folds
// each of the page's groups whole (so no group is split), and no other row. Folding first and
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
 * Every stored row of each of the `groups` (a lookup of the primary key per group). Ordered by
 * install as the primary key holds them, so no planner takes another index for it: without
 * statistics, the embedded database's read the (account, day) index and every key's row of the day.
 */
const groupRows = (uuid: string) => sql`(
  select r.* from groups g cross join lateral (
    select d.profile_id, d.key, d.day, d.install_id, d.value, d.low, d.high, d.sent_at from counter_days d
    where d.uuid = ${uuid} and d.profile_id = g.profile_id and d.key = g.key and d.day = g.day
    order by d.install_id
  ) r
)`;

/**
 * One page: the (profile, key, day) groups of the next `size` stored rows after `from` (null: from
 * the start), each folded whole (all its installs, also past the `size`-th row); `end` is the page's
 * last group (the next page starts after it), null when the page read fewer rows than `size` (the
 * last page). Each group is read by its own primary-key lookup (groupRows), so the page
 * reads exactly its groups' rows, whatever a planner or server version makes of a range's upper
 * bound.
 */
export function csvPage(
  db: Db,
  uuid: string,
  from: Group | null,
  size: number,
): Promise<{ rows: CsvRow[]; end: Group | null }> {
  return inKeyOrder(db, async (tx) => {
    const folded = await rows<CsvRow & { page_rows: number }>(
      tx,
      sql`with page as (
        select d.profile_id, d.key, d.day from counter_days d
        where d.uuid = ${uuid}${after(from)}
        order by d.profile_id, d.key, d.day, d.install_id limit ${size}
      ), groups as (select distinct profile_id, key, day from page)
      select f.profile_id, p.cute_name, f.key, f.kind, k.unit, f.day, f.value, f.low, f.high,
        (select count(*) from page)::int as page_rows
      from (${dayFold(sql`true`, groupRows(uuid))}) f
        join counter_keys k on k.key = f.key
        left join stat_profiles p on p.uuid = ${uuid} and p.profile_id = f.profile_id
      order by f.profile_id, f.key, f.day`,
    );
    const last = folded.at(-1);
    const full = last !== undefined && Number(last.page_rows) === size;
    return {
      rows: folded.map(({ page_rows: _, ...row }) => row),
      end: full ? [last.profile_id, last.key, last.day] : null,
    };
  });
}
