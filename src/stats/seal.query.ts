// The seal (contract 3) and the retention seal (2.6), one batch of keys of one account at a time.
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
 * Of these accounts (each with its horizon `before`), those with day rows before it that the pass
 * must fold: per-install rows (`collapsible`: the seal; only from the account's seal mark on) or
 * any row (retention, which deletes what it folds, so only due rows are left before its horizon).
 * One statement; each account one range read of the (uuid, day) index over what crossed its
 * horizon since the last pass (ordered by day, so the planner does not scan the primary key's
 * index of every day of the account for the day column instead).
 * Answers each due account's lower bound (null: from its first day), which is also its seal mark
 * as read here.
 */
export async function dueAccounts(
  db: Db,
  candidates: { uuid: string; before: string }[],
  collapsible: boolean,
): Promise<Map<string, string | null>> {
  if (candidates.length === 0) return new Map();
  const from = collapsible ? sql`m.sealed_before` : sql`null::date`;
  const found = await rows<{ uuid: string; from: string | null }>(
    db,
    sql`select a.uuid, f.day::text as from
        from unnest(${p(candidates.map((c) => c.uuid))}::text[], ${p(candidates.map((c) => c.before))}::text[]) as a(uuid, before)
          ${collapsible ? sql`left join counter_seal_marks m on m.uuid = a.uuid` : sql``}
          cross join lateral (select ${from} as day) f
        where (select d.day from counter_days d where d.uuid = a.uuid and d.day < a.before::date
          and d.day >= coalesce(f.day, '-infinity'::date)
          ${collapsible ? sql`and d.install_id <> ${SEALED_INSTALL}` : sql``}
          order by d.day limit 1) is not null`,
  );
  return new Map(found.map((r) => [r.uuid, r.from]));
}

/**
 * Notes that the account has no per-install rows before `before`. `read` is the mark the pass read
 * before it worked (null: none): if an upload lowered the mark since (lowerSealMark), it stays
 * lowered, so the next pass reads from there. Otherwise the mark never moves back.
 */
export async function setSealMark(db: Db, uuid: string, before: string, read: string | null) {
  await db.execute(sql`insert into counter_seal_marks (uuid, sealed_before) values (${uuid}, ${before}::date)
    on conflict (uuid) do update set sealed_before = greatest(counter_seal_marks.sealed_before, excluded.sealed_before)
    ${read === null ? sql`` : sql`where counter_seal_marks.sealed_before >= ${read}::date`}`);
}

/**
 * An upload wrote per-install rows on `day`, which a clock stepped back made writable again
 * below the account's seal mark: the next seal pass must read from there.
 */
export async function lowerSealMark(db: Db, uuid: string, day: string) {
  await db.execute(
    sql`update counter_seal_marks set sealed_before = ${day}::date where uuid = ${uuid} and sealed_before > ${day}::date`,
  );
}

/**
 * Gives a seal mark to these accounts where they have none: the pass found no per-install rows
 * before their horizon. One statement, writing only accounts seen for the first time, so an
 * account that never uploads again is not read back to its first day on every pass.
 */
export async function markUnsealedNone(db: Db, accounts: { uuid: string; before: string }[]) {
  if (accounts.length === 0) return;
  await db.execute(sql`insert into counter_seal_marks (uuid, sealed_before)
    select a.uuid, a.before::date
    from unnest(${p(accounts.map((a) => a.uuid))}::text[], ${p(accounts.map((a) => a.before))}::text[]) as a(uuid, before)
    on conflict (uuid) do nothing`);
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
  await recomputeRollups(tx, uuid, keys);
  return gone.length;
}
