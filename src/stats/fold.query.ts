// Folding on read (contract 2.3, 2.6): installs fold per day by kind (count: sum, max: maximum,
// min: minimum, gauge: the reading with the latest sentAt, ties by installId, with the day's low
// and high); days fold by kind (gauge: the last day's). Each read is one query, ordered, so two
// replays of the same uploads answer the same bytes.
import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";

/** The installs of each (key, day) folded into one value, for the keys and days `where` admits. */
const dayFold = (where: SQL) => sql`
  select d.key, d.day::text as day, k.kind,
    case k.kind
      when 'count' then sum(d.value)
      when 'max' then max(d.value)
      when 'min' then min(d.value)
      else (array_agg(d.value order by d.sent_at desc, d.install_id desc))[1]
    end as value,
    min(d.low) as low, max(d.high) as high
  from counter_days d join counter_keys k on k.key = d.key
  where ${where}
  group by d.key, d.day, k.kind`;

export type LifetimeRow = {
  key: string;
  kind: string;
  unit: string;
  category: string;
  backfill_day: string | null;
  backfill_value: number | null;
  seal_day: string | null;
  seal_value: number | null;
  days: number;
  first_day: string | null;
  last_day: string | null;
  days_value: number | null;
};

/**
 * Per key of one profile: its merged backfill baseline (installs merged by maximum: for a min key
 * the smallest, for a gauge the latest), its seal baseline, and the fold of every day after both.
 */
export function lifetimeRows(db: Db, uuid: string, profileId: string) {
  return rows<LifetimeRow>(
    db,
    sql`with backfill as (
      select distinct on (b.key) b.key, b.day, b.value
      from counter_backfills b join counter_keys k on k.key = b.key
      where b.uuid = ${uuid} and b.profile_id = ${profileId}
      order by b.key,
        case when k.kind = 'min' then b.value end asc nulls last,
        case when k.kind in ('count', 'max') then b.value end desc nulls last,
        b.day desc, b.sent_at desc, b.install_id desc
    ),
    seal as (select key, day, value from counter_seals where uuid = ${uuid} and profile_id = ${profileId}),
    base as (
      select coalesce(b.key, s.key) as key, b.day as backfill_day, b.value as backfill_value, s.day as seal_day, s.value as seal_value
      from backfill b full join seal s on s.key = b.key
    ),
    folded as (${dayFold(sql`d.uuid = ${uuid} and d.profile_id = ${profileId}`)}),
    span as (
      select f.key, count(*)::int as days, min(f.day) as first_day, max(f.day) as last_day,
        case min(f.kind)
          when 'count' then sum(f.value)
          when 'max' then max(f.value)
          when 'min' then min(f.value)
          else (array_agg(f.value order by f.day desc))[1]
        end as days_value
      from folded f left join base on base.key = f.key
      where f.day::date > coalesce(greatest(base.backfill_day, base.seal_day), '0001-01-01'::date)
      group by f.key
    ),
    keys as (select key from base union select key from span)
    select keys.key, k.kind, k.unit, k.category,
      base.backfill_day::text as backfill_day, base.backfill_value, base.seal_day::text as seal_day, base.seal_value,
      coalesce(span.days, 0) as days, span.first_day, span.last_day, span.days_value
    from keys
      join counter_keys k on k.key = keys.key
      left join base on base.key = keys.key
      left join span on span.key = keys.key
    order by keys.key`,
  );
}

export type DayValueRow = { key: string; day: string; kind: string; value: number; low: number | null; high: number | null };

/** One key's folded value per day in [from, to]; a day without observation is absent, not zero. */
export function seriesRows(db: Db, uuid: string, profileId: string, key: string, from: string, to: string) {
  return rows<DayValueRow>(
    db,
    sql`${dayFold(sql`d.uuid = ${uuid} and d.profile_id = ${profileId} and d.key = ${key} and d.day between ${from}::date and ${to}::date`)}
    order by day`,
  );
}

/** Every key's folded value per day in [from, to], by day then key. */
export function dayRows(db: Db, uuid: string, profileId: string, from: string, to: string) {
  return rows<DayValueRow>(
    db,
    sql`${dayFold(sql`d.uuid = ${uuid} and d.profile_id = ${profileId} and d.day between ${from}::date and ${to}::date`)}
    order by day, key`,
  );
}

export type ProfileRow = { profile_id: string; cute_name: string; first_seen_at: number; last_seen_at: number };

export function profilesOf(db: Db, uuid: string) {
  return rows<ProfileRow>(db, sql`select profile_id, cute_name, first_seen_at, last_seen_at from stat_profiles where uuid = ${uuid} order by first_seen_at, profile_id`);
}
