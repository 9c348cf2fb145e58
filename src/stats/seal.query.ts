// The seal (contract 3) and the retention seal (2.6), one batch of keys of one account at a time.
import { forgetDaysBefore } from "./calendar.query.ts";
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import {
  closedThrough,
  dayFold,
  foldByKind,
  latestReading,
  mergedBackfill,
  overPair,
  overRows,
} from "./counters.query.ts";
import { recomputeRollups } from "./rollup.query.ts";

/** The install id of a day row that holds the folded value of a sealed day's installs. */
export const SEALED_INSTALL = "";

const p = sql.param;

/** Of these days, those the account already has sealed: a collapsed row (the seal) or inside a retention baseline. */
export async function sealedAmong(db: Db, uuid: string, days: string[]): Promise<string[]> {
  if (days.length === 0) return [];
  const found = await rows<{ day: string }>(
    db,
    sql`select d.day from unnest(${p(days)}::text[]) as d(day)
        where exists (select 1 from counter_days c where c.uuid = ${uuid} and c.day = d.day::date and c.install_id = ${SEALED_INSTALL})
           or exists (select 1 from counter_seals s where s.uuid = ${uuid} and s.day >= d.day::date)`,
  );
  return found.map((r) => r.day);
}

/**
 * The accounts that may have rows for a pass, each with the day it reads from: per-install rows
 * before `bound` (`collapsible`: the seal; from counter_marks.unsealed_from) or any row before it
 * (retention; counter_marks.first_day). One range read of that column's index: the cost follows
 * the accounts with something old enough, never the number of accounts or of rows. `bound` lies on
 * or after every account's horizon; the caller keeps those before their own.
 */
export async function dueAccounts(db: Db, bound: string, collapsible: boolean): Promise<Map<string, string>> {
  const column = collapsible ? sql`unsealed_from` : sql`first_day`;
  const found = await rows<{ uuid: string; from: string }>(
    db,
    sql`select uuid, ${column}::text as from from counter_marks where ${column} < ${bound}::date order by uuid`,
  );
  return new Map(found.map((r) => [r.uuid, r.from]));
}

/**
 * Sets the account's seal mark from what is stored, under its stats lock once the pass collapsed
 * what was before its horizon: its first per-install day (null: none). Read from `from`, the mark
 * the pass read, or from the mark now if an upload lowered it since (a clock stepped back let it
 * write below the horizon): no per-install row is before either, so the read passes over only the
 * days just sealed, and a row written meanwhile is found and sealed by the next pass.
 */
export async function setSealMark(tx: Db, uuid: string, from: string | null) {
  await tx.execute(sql`update counter_marks m set unsealed_from = (
      select d.day from counter_days d where d.uuid = ${uuid} and d.install_id <> ${SEALED_INSTALL}
        and d.day >= coalesce(least(${from}::date, m.unsealed_from), '-infinity'::date)
      order by d.day limit 1)
    where m.uuid = ${uuid}`);
}

/**
 * Once retention deleted the rows before its horizon (under the account's stats lock): the
 * account's first and last day, and its seal mark, from what is left. The first and last are the
 * ends of the (uuid, day) index; the mark is read from where it was (only deleted days lie between).
 */
export async function setRetainedMarks(tx: Db, uuid: string) {
  await tx.execute(sql`update counter_marks m set
      first_day = (select d.day from counter_days d where d.uuid = ${uuid} order by d.day limit 1),
      last_day = (select d.day from counter_days d where d.uuid = ${uuid} order by d.day desc limit 1),
      unsealed_from = (
        select d.day from counter_days d where d.uuid = ${uuid} and d.install_id <> ${SEALED_INSTALL}
          and d.day >= coalesce(m.unsealed_from, 'infinity'::date)
        order by d.day limit 1)
    where m.uuid = ${uuid}`);
}

/** Days in [`from`, `before`) (`from` null: every day before `before`). */
const daysIn = (from: string | null, before: string, alias = "") =>
  sql`${sql.raw(alias)}day < ${before}::date${from === null ? sql`` : sql` and ${sql.raw(alias)}day >= ${from}::date`}`;

/**
 * Keys of the account with rows in days in [`from`, `before`); `collapsible` limits to days with
 * install rows.
 */
export async function keysBefore(
  db: Db,
  uuid: string,
  before: string,
  collapsible: boolean,
  from: string | null = null,
): Promise<string[]> {
  const found = await rows<{ key: string }>(
    db,
    sql`select distinct key from counter_days
        where uuid = ${uuid} and ${daysIn(from, before)} ${collapsible ? sql`and install_id <> ${SEALED_INSTALL}` : sql``}
        order by key`,
  );
  return found.map((r) => r.key);
}

/**
 * Collapses, for these keys, each day in [`from`, `before`) into one row holding its installs' folded
 * value (and the day's low and high), then deletes the per-install rows. Answers rows removed.
 *
 * The rollups move by what the collapse changed in them, in the same statement as the fold, so the
 * seal costs the days it collapses, not every day of the keys: a count's day folded to its sum
 * keeps the key's sum but may shrink its positive and negative parts (installs of either sign), a
 * max or min key's day folds to its extreme, and a gauge's to its latest reading (the rollup's last
 * value and sentAt when it is the key's last day). Only closed days are in the rollups. What a kind
 * never reads (a count's max, say) may differ from a rebuild, as after an upload (upsertDays).
 */
export async function collapseDays(
  tx: Db,
  uuid: string,
  keys: string[],
  before: string,
  from: string | null = null,
): Promise<number> {
  await tx.execute(sql`with folded as (
      select d.profile_id, d.key, d.day, k.kind,
        ${foldByKind(sql`k.kind`, overRows(sql`d.value`, latestReading, sql`k.kind = 'gauge'`))} as value,
        min(d.low) as low, max(d.high) as high, max(d.sent_at) as sent_at,
        sum(greatest(d.value, 0)) as pos, sum(least(d.value, 0)) as neg
      from counter_days d join counter_keys k on k.key = d.key
      where d.uuid = ${uuid} and d.key = any(${p(keys)}::text[]) and ${daysIn(from, before, "d.")}
      group by d.profile_id, d.key, d.day, k.kind
      having bool_or(d.install_id <> ${SEALED_INSTALL})
    ),
    collapsed as (
      insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
      select ${uuid}, f.profile_id, f.key, f.day::date, ${SEALED_INSTALL}, f.value, f.low, f.high, f.sent_at from folded f
      on conflict (uuid, profile_id, key, day, install_id) do update set
        value = excluded.value, low = excluded.low, high = excluded.high, sent_at = excluded.sent_at
    ),
    parts as (
      select f.profile_id, f.key, sum(greatest(f.value, 0) - f.pos) as pos, sum(least(f.value, 0) - f.neg) as neg
      from folded f
      where f.kind = 'count' and f.day <= ${closedThrough(uuid)}
      group by f.profile_id, f.key
    )
    update counter_rollups r set pos = r.pos + x.pos, neg = r.neg + x.neg
    from parts x
    where r.uuid = ${uuid} and r.profile_id = x.profile_id and r.key = x.key and (x.pos <> 0 or x.neg <> 0)`);
  const gone = await rows(
    tx,
    sql`delete from counter_days where uuid = ${uuid} and key = any(${p(keys)}::text[]) and ${daysIn(from, before)} and install_id <> ${SEALED_INSTALL} returning 1`,
  );
  return gone.length;
}

/**
 * Folds, for these keys, the days before `before` that lie after each key's baseline into its seal
 * baseline (now covering up to `through`), then deletes every day row before `before`, in the
 * caller's transaction. Days inside the baseline are deleted without being added again.
 */
export async function sealIntoBaseline(
  tx: Db,
  uuid: string,
  keys: string[],
  before: string,
  through: string,
): Promise<number> {
  await tx.execute(sql`with backfill as (${mergedBackfill(sql`b.uuid = ${uuid} and b.key = any(${p(keys)}::text[])`)}),
    seal as (select profile_id, key, day, value from counter_seals where uuid = ${uuid} and key = any(${p(keys)}::text[])),
    folded as (${dayFold(sql`d.uuid = ${uuid} and d.key = any(${p(keys)}::text[]) and d.day < ${before}::date`)}),
    span as (
      select f.profile_id, f.key, min(f.kind) as kind, ${foldByKind(sql`min(f.kind)`, overRows(sql`f.value`, sql`f.day desc`, sql`f.kind = 'gauge'`))} as value
      from folded f
        left join backfill b on b.profile_id = f.profile_id and b.key = f.key
        left join seal s on s.profile_id = f.profile_id and s.key = f.key
      where f.day::date > coalesce(greatest(b.day, s.day), '0001-01-01'::date)
      group by f.profile_id, f.key
    )
    insert into counter_seals (uuid, profile_id, key, day, value)
    select ${uuid}, span.profile_id, span.key, greatest(s.day, ${through}::date), ${foldByKind(sql`span.kind`, overPair(sql`s.value`, sql`span.value`))}
    from span left join seal s on s.profile_id = span.profile_id and s.key = span.key
    on conflict (uuid, profile_id, key) do update set day = excluded.day, value = excluded.value`);
  const gone = await rows(
    tx,
    sql`delete from counter_days where uuid = ${uuid} and key = any(${p(keys)}::text[]) and day < ${before}::date returning 1`,
  );
  await forgetDaysBefore(tx, uuid, before);
  await recomputeRollups(tx, uuid, keys);
  return gone.length;
}
