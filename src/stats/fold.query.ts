// Folding on read (contract 2.3, 2.6): installs fold per day by kind (count: sum, max: maximum,
// min: minimum, gauge: the reading with the latest sentAt, ties by installId, with the day's low
// and high); days fold by kind (gauge: the last day's). Each read is one query, ordered, so two
// replays of the same uploads answer the same bytes; text is ordered by bytes (collate "C"), so
// the order does not depend on the database's locale either.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import {
  closedThrough,
  dayFold,
  foldByKind,
  latestDayReading,
  latestReading,
  mergedBackfill,
  onlyKeys,
  openDays,
  overRows,
} from "./counters.query.ts";

export type LifetimeRow = {
  key: string;
  kind: string;
  unit: string;
  category: string;
  backfill_day: string | null;
  backfill_value: number | null;
  seal_day: string | null;
  seal_value: number | null;
  first_day: string | null;
  last_day: string | null;
  days_value: number | null;
};

/**
 * Per key of one profile (or only the key `only`): its merged backfill baseline (installs merged by maximum: for a min key
 * the smallest, for a gauge the latest), its seal baseline, and the fold of every day after both.
 */
export function lifetimeRows(db: Db, uuid: string, profileId: string, only?: string | string[]) {
  // Without statistics (the embedded database never gathers them; Postgres not before autovacuum
  // first analyzes a new or fast-grown table) the planner takes each of these CTEs for one row and
  // joins them by nested loops, reading every key once per key: quadratic in keys (issue 22; 10 000
  // keys took 15 s on a fresh Postgres). Without nested loops it hashes them, linear in keys, on both
  // backends; with statistics the two plans measured the same (600 and 10 000 keys).
  // One key (a badge) reads one index range per CTE: nested loops are its plan, and forbidding them
  // priced it past the JIT's threshold (9 s of compiling for a one-row answer, issue 40).
  // A short list of keys (a board's, issue 35) likewise: each CTE reads one index range per key.
  if (typeof only === "string" || (only !== undefined && only.length <= 64))
    return lifetimeRowsOf(db, uuid, profileId, only);
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_nestloop = off`);
    return lifetimeRowsOf(tx, uuid, profileId, only);
  });
}

function lifetimeRowsOf(db: Db, uuid: string, profileId: string, only?: string | string[]) {
  // One key only (a badge, issue 40): each read below is then one key's index range.
  const one = (alias: string) => onlyKeys(alias, only);
  // A few keys read their open days by key; the whole profile reads the account's open days (openDays).
  const few = only !== undefined;
  // Every fold of the open days, picked by kind once combined with the rollup's. A count's open days
  // add up as a numeric sum (no bigint overflow), like the exact fold.
  const open = overRows(sql`d.value`, latestDayReading, sql`k.kind = 'gauge'`);
  const openSum = sql`sum(d.value) filter (where k.kind = 'count')`;
  return rows<LifetimeRow>(
    db,
    sql`with backfill as (${mergedBackfill(sql`b.uuid = ${uuid} and b.profile_id = ${profileId}${one("b")}`)}),
    seal as (select key, day, value from counter_seals s where s.uuid = ${uuid} and s.profile_id = ${profileId}${one("s")}),
    base as (
      select coalesce(b.key, s.key) as key, b.day as backfill_day, b.value as backfill_value, s.day as seal_day, s.value as seal_value
      from backfill b full join seal s on s.key = b.key
    ),
    -- Each key's closed days, folded once into its rollup (sum, max, min, the gauge's latest
    -- reading), combined with the fold of its open days (after the account's mark, read here):
    -- every open day is later than every closed one, so the latest reading is the open days' if any.
    rolled as (
      select r.key, r.sum, r.max, r.min, r.first_day, r.last_day, r.last_value
      from counter_rollups r
      where r.uuid = ${uuid} and r.profile_id = ${profileId}${one("r")}
    ),
    opened as (
      select d.key, ${openSum} as sum, ${open.max} as max, ${open.min} as min, min(d.day) as first_day, max(d.day) as last_day,
        ${open.latest} as last_value
      from ${few ? sql`counter_days` : openDays(uuid)} d join counter_keys k on k.key = d.key
      where ${few ? sql`d.uuid = ${uuid} and d.day > ${closedThrough(uuid)} and ` : sql``}d.profile_id = ${profileId}${one("d")}
      group by d.key
    ),
    r as (
      select coalesce(c.key, o.key) as key, k.kind,
        case when o.key is null then c.sum when c.key is null then o.sum else c.sum + o.sum end as sum,
        greatest(c.max, o.max) as max, least(c.min, o.min) as min,
        least(c.first_day, o.first_day) as first_day, greatest(c.last_day, o.last_day) as last_day,
        case when o.key is null then c.last_value else o.last_value end as last_value
      from rolled c full join opened o on o.key = c.key
        join counter_keys k on k.key = coalesce(c.key, o.key)
    ),
    -- Keys whose rollup reaches into their baseline (a later backfill): their later days are
    -- folded exactly from the day rows instead.
    inside as (
      select r.key, greatest(base.backfill_day, base.seal_day) as through
      from r join base on base.key = r.key
      where r.first_day <= greatest(base.backfill_day, base.seal_day)
    ),
    exact as (
      select d.key, min(d.day)::text as first_day, max(d.day)::text as last_day,
        ${foldByKind(sql`min(k.kind)`, overRows(sql`d.value`, latestDayReading, sql`k.kind = 'gauge'`))} as days_value
      from inside
        join counter_days d on d.uuid = ${uuid} and d.profile_id = ${profileId} and d.key = inside.key and d.day > inside.through
        join counter_keys k on k.key = d.key
      group by d.key
    ),
    span as (
      select r.key, r.first_day::text as first_day, r.last_day::text as last_day,
        ${foldByKind(sql`r.kind`, { sum: sql`r.sum`, max: sql`r.max`, min: sql`r.min`, latest: sql`r.last_value` })} as days_value
      from r where not exists (select 1 from inside where inside.key = r.key)
      union all
      select key, first_day, last_day, days_value from exact
    ),
    keys as (select key from base union select key from span)
    select keys.key, k.kind, k.unit, k.category,
      base.backfill_day::text as backfill_day, base.backfill_value, base.seal_day::text as seal_day, base.seal_value,
      span.first_day, span.last_day, span.days_value
    from keys
      join counter_keys k on k.key = keys.key
      left join base on base.key = keys.key
      left join span on span.key = keys.key
    order by keys.key collate "C"`,
  );
}

export type DayValueRow = {
  key: string;
  day: string;
  kind: string;
  value: number;
  low: number | null;
  high: number | null;
};

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
    order by day, d.key collate "C"`,
  );
}

export type ChartRow = {
  profile_id: string;
  key: string;
  days: string[];
  day_values: number[];
  /** Gauges only (null otherwise): each day's low and high over its installs' readings. */
  day_lows: number[] | null;
  day_highs: number[] | null;
};

/**
 * What the page's charts draw: per (profile, key) with a day in [from, to], its observed days and
 * each day's folded value, in day order (gaps absent, never zero), by profile then key.
 *
 * The keys come from their rollups (which know each key's first and last day of the closed days,
 * so a key without a day in the range is never read) and from the account's open days in the
 * range (after its mark: see counter_marks), and each key's days are one range of the primary key's index.
 * Rows arrive in day order, so counts, bests and smallests fold per day without a sort, and a
 * gauge's latest reading per day is a `distinct on` over the same range rather than an ordered
 * aggregate per day (the `k.kind` conditions are constant per key: the other branch never runs).
 * The same folds as `dayFold`, with a gauge's low and high (its band in the chart). The values
 * travel as JSON: a count's day is a numeric sum, and PGlite does not parse a numeric[].
 */
export function chartRows(db: Db, uuid: string, profileIds: string[], from: string, to: string, keys?: string[]) {
  // The (profile, key)s to chart. Given keys (every caller: a page charts what it shows), each
  // profile and key is probed by its own index range below, so the read costs the keys asked for,
  // not the profile's keys (a profile of 10 000 keys has 10 000 rows on each open day, issue 40).
  // Without keys: every key with a closed total or an open day in the range.
  const candidates = keys
    ? sql`select distinct ${uuid}::text as uuid, p.profile_id, k.key
      from unnest(${sql.param(profileIds)}::text[]) as p(profile_id) cross join unnest(${sql.param(keys)}::text[]) as k(key)`
    : sql`select r.uuid, r.profile_id, r.key from counter_rollups r
      where r.uuid = ${uuid} and r.profile_id = any(${sql.param(profileIds)}::text[]) and r.last_day >= ${from}::date and r.first_day <= ${to}::date
      union
      select distinct d.uuid, d.profile_id, d.key from ${openDays(uuid)} d
      where d.day between ${from}::date and ${to}::date
        and d.profile_id = any(${sql.param(profileIds)}::text[])`;
  // One range of the primary key's index per key: (key, day) compared as a row, which only that
  // index can read as a range. With separate conditions a plan through (uuid, day) reads every key's
  // rows of the range and filters all but one out, per key: quadratic in keys, and the plan the
  // embedded database (which has no statistics) picked (issue 22).
  const range = sql`d.uuid = r.uuid and d.profile_id = r.profile_id and (d.key, d.day) >= (r.key, ${from}::date) and (d.key, d.day) <= (r.key, ${to}::date)`;
  // Counts, bests and smallests per day; a gauge's day is the `distinct on` below, never this branch.
  const dayAggregates = { ...overRows(sql`d.value`, latestReading, sql`false`), latest: sql`null` };
  return rows<ChartRow>(
    db,
    sql`with r as (${candidates})
    select r.profile_id, r.key, s.days, s.day_values, s.day_lows, s.day_highs
    from r
      join counter_keys k on k.key = r.key
      cross join lateral (
        select array_agg(v.day::text order by v.day) as days, array_to_json(array_agg(v.value order by v.day)) as day_values,
          case when k.kind = 'gauge' then array_to_json(array_agg(v.low order by v.day)) end as day_lows,
          case when k.kind = 'gauge' then array_to_json(array_agg(v.high order by v.day)) end as day_highs
        from (
          select d.day, ${foldByKind(sql`k.kind`, dayAggregates)} as value, null::bigint as low, null::bigint as high
          from counter_days d
          where k.kind in ('count', 'max', 'min') and ${range}
          group by d.day
          union all
          (select distinct on (d.day) d.day, d.value,
            min(d.low) over (partition by d.day) as low, max(d.high) over (partition by d.day) as high
          from counter_days d
          where k.kind not in ('count', 'max', 'min') and ${range}
          order by d.day, ${latestReading})
        ) v
      ) s
    where s.days is not null
    order by r.profile_id collate "C", r.key collate "C"`,
  );
}

export type ProfileRow = { profile_id: string; cute_name: string; first_seen_at: number; last_seen_at: number };

export function profilesOf(db: Db, uuid: string) {
  return rows<ProfileRow>(
    db,
    sql`select profile_id, cute_name, first_seen_at, last_seen_at from stat_profiles where uuid = ${uuid} order by first_seen_at, profile_id`,
  );
}
