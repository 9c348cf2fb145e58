// The writes of an import (import.ts), one batch of one section a statement, each merging by its
// rule (docs/decisions.md "Import: the merge rule") and answering, per row it wrote, whether it
// added or replaced one (a row not answered was skipped: the stored copy is as new); and the
// account's derived rows (rollups, the calendar's counts, its marks) rebuilt from what is stored.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { integerArray, textArray } from "../db/array-param.ts";
import { closeDays } from "./rollup.query.ts";
import { SEALED_INSTALL } from "./seal.query.ts";
import { writeSessions } from "./ingest-activity.query.ts";
import type { ImportRow } from "./import-format.ts";

/** What a batch's write did: rows added and rows replaced (the rest of the batch was skipped). */
export type Written = { added: number; replaced: number };

/** `returning` of an upsert: whether the row was inserted (no row version before it), counted. */
const outcome = sql`returning (xmax::text = '0') as added`;

/** Runs an upsert ending in `outcome` and counts its rows in the statement (one row back, not one per row). */
async function counted(tx: Db, query: ReturnType<typeof sql>): Promise<Written> {
  const [row] = await rows<{ added: number; n: number }>(
    tx,
    sql`with up as (${query}) select (count(*) filter (where added))::int as added, count(*)::int as n from up`,
  );
  return { added: row!.added, replaced: row!.n - row!.added };
}

/** A profile keeps its earliest first sighting and latest last; its name is the one last seen. */
export function upsertProfiles(tx: Db, uuid: string, list: ImportRow<"profiles">[]) {
  return counted(
    tx,
    sql`insert into stat_profiles as s (uuid, profile_id, cute_name, first_seen_at, last_seen_at)
    select ${uuid}, t.profile_id, t.cute_name, t.first_seen_at, t.last_seen_at
    from unnest(${textArray(list.map((r) => r.profileId))}::text[], ${textArray(list.map((r) => r.cuteName))}::text[],
      ${integerArray(list.map((r) => r.firstSeenAt))}::bigint[], ${integerArray(list.map((r) => r.lastSeenAt))}::bigint[])
      as t(profile_id, cute_name, first_seen_at, last_seen_at)
    on conflict (uuid, profile_id) do update set
      cute_name = case when excluded.last_seen_at > s.last_seen_at then excluded.cute_name else s.cute_name end,
      first_seen_at = least(s.first_seen_at, excluded.first_seen_at),
      last_seen_at = greatest(s.last_seen_at, excluded.last_seen_at)
    where excluded.first_seen_at < s.first_seen_at or excluded.last_seen_at > s.last_seen_at
    ${outcome}`,
  );
}

/** A day row of the same install is replaced only by one sent later (a greater sentAt). */
export function upsertDayRows(tx: Db, uuid: string, list: ImportRow<"dayRows">[]) {
  return counted(
    tx,
    sql`insert into counter_days as c (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
    select ${uuid}, t.profile_id, t.key, t.day::date, t.install_id, t.value, t.low, t.high, t.sent_at
    from unnest(${textArray(list.map((r) => r.profileId))}::text[], ${textArray(list.map((r) => r.key))}::text[],
      ${textArray(list.map((r) => r.day))}::text[], ${textArray(list.map((r) => r.installId))}::text[],
      ${integerArray(list.map((r) => r.value))}::bigint[], ${integerArray(list.map((r) => r.low))}::bigint[],
      ${integerArray(list.map((r) => r.high))}::bigint[], ${integerArray(list.map((r) => r.sentAt))}::bigint[])
      as t(profile_id, key, day, install_id, value, low, high, sent_at)
    on conflict (uuid, profile_id, key, day, install_id) do update set
      value = excluded.value, low = excluded.low, high = excluded.high, sent_at = excluded.sent_at, replaced_value = null
    where excluded.sent_at > c.sent_at
    ${outcome}`,
  );
}

/** An install's backfill is replaced only by one sent later. */
export function upsertBackfills(tx: Db, uuid: string, list: ImportRow<"backfills">[]) {
  return counted(
    tx,
    sql`insert into counter_backfills as b (uuid, profile_id, key, install_id, day, value, sent_at)
    select ${uuid}, t.profile_id, t.key, t.install_id, t.day::date, t.value, t.sent_at
    from unnest(${textArray(list.map((r) => r.profileId))}::text[], ${textArray(list.map((r) => r.key))}::text[],
      ${textArray(list.map((r) => r.installId))}::text[], ${textArray(list.map((r) => r.day))}::text[],
      ${integerArray(list.map((r) => r.value))}::bigint[], ${integerArray(list.map((r) => r.sentAt))}::bigint[])
      as t(profile_id, key, install_id, day, value, sent_at)
    on conflict (uuid, profile_id, key, install_id) do update set day = excluded.day, value = excluded.value, sent_at = excluded.sent_at
    where excluded.sent_at > b.sent_at
    ${outcome}`,
  );
}

/** A key's retention seal is replaced only by one reaching a later day (it covers more of the history). */
export function upsertSeals(tx: Db, uuid: string, list: ImportRow<"seals">[]) {
  return counted(
    tx,
    sql`insert into counter_seals as s (uuid, profile_id, key, day, value)
    select ${uuid}, t.profile_id, t.key, t.day::date, t.value
    from unnest(${textArray(list.map((r) => r.profileId))}::text[], ${textArray(list.map((r) => r.key))}::text[],
      ${textArray(list.map((r) => r.day))}::text[], ${integerArray(list.map((r) => r.value))}::bigint[])
      as t(profile_id, key, day, value)
    on conflict (uuid, profile_id, key) do update set day = excluded.day, value = excluded.value
    where excluded.day > s.day
    ${outcome}`,
  );
}

/**
 * A session is replaced by id only by a copy that ended later (an equal end is the same session:
 * skipped, so a file imported twice changes nothing); the rates per hour move by the difference,
 * as ingest's upsertSessions moves them.
 */
export function upsertSessions(tx: Db, uuid: string, list: ImportRow<"sessions">[]): Promise<Written> {
  return writeSessions(tx, uuid, list, ">");
}

/** A timeline event is added once; a repeated id is skipped. */
export function insertEvents(tx: Db, uuid: string, list: ImportRow<"timelineEvents">[]) {
  return counted(
    tx,
    sql`insert into timeline_events (uuid, id, profile_id, install_id, kind, day, at, key, value)
    select ${uuid}, t.id, t.profile_id, t.install_id, t.kind, t.day::date, t.at, t.key, t.value
    from unnest(${textArray(list.map((e) => e.id))}::text[], ${textArray(list.map((e) => e.profileId))}::text[],
      ${textArray(list.map((e) => e.installId))}::text[], ${textArray(list.map((e) => e.kind))}::text[],
      ${textArray(list.map((e) => e.day))}::text[], ${integerArray(list.map((e) => e.at))}::bigint[],
      ${textArray(list.map((e) => e.key))}::text[], ${integerArray(list.map((e) => e.value))}::bigint[])
      as t(id, profile_id, install_id, kind, day, at, key, value)
    on conflict (uuid, id) do nothing
    ${outcome}`,
  );
}

/** A mirror section is replaced only by a newer observation. */
export function upsertMirror(tx: Db, uuid: string, list: ImportRow<"mirrorSections">[]) {
  return counted(
    tx,
    sql`insert into mirror_sections as m (uuid, profile_id, section, install_id, observed_at, values)
    select ${uuid}, t.profile_id, t.section, t.install_id, t.observed_at, t.values::jsonb
    from unnest(${textArray(list.map((m) => m.profileId))}::text[], ${textArray(list.map((m) => m.section))}::text[],
      ${textArray(list.map((m) => m.installId))}::text[], ${integerArray(list.map((m) => m.observedAt))}::bigint[],
      ${textArray(list.map((m) => JSON.stringify(m.values)))}::text[]) as t(profile_id, section, install_id, observed_at, values)
    on conflict (uuid, profile_id, section) do update set install_id = excluded.install_id, observed_at = excluded.observed_at, values = excluded.values
    where excluded.observed_at > m.observed_at
    ${outcome}`,
  );
}

/**
 * The days the account holds sealed before the import writes anything: those with a collapsed
 * row, and the last day a retention seal covers (every day up to it is inside a baseline).
 */
export async function sealedDays(tx: Db, uuid: string): Promise<{ days: Set<string>; through: string | null }> {
  const found = await rows<{ day: string }>(
    tx,
    sql`select distinct day::text as day from counter_days where uuid = ${uuid} and install_id = ${SEALED_INSTALL}`,
  );
  const [seal] = await rows<{ through: string | null }>(
    tx,
    sql`select max(day)::text as through from counter_seals where uuid = ${uuid}`,
  );
  return { days: new Set(found.map((r) => r.day)), through: seal?.through ?? null };
}

/**
 * Rebuilds what is derived from the account's rows: its rollups and the calendar's counts of its
 * closed days (closeDays from nothing up to `through`), and its marks from what is stored (first
 * and last day, the seal mark, the bounds of its count keys' parts; the key cap's digest forgotten).
 */
export async function rebuildDerived(tx: Db, uuid: string, through: string) {
  await tx.execute(sql`delete from counter_rollups where uuid = ${uuid}`);
  await tx.execute(sql`delete from counter_day_keys where uuid = ${uuid}`);
  await tx.execute(sql`delete from counter_marks where uuid = ${uuid}`);
  await closeDays(tx, uuid, null, through);
  // Each (profile, key)'s parts are added up first (one walk of the account's primary key, in its
  // order) and only the few hundred sums joined to the pins: joined first, a planner without
  // statistics of the rows just written looped over the pins reading the account's rows for each
  // (Postgres: 1.7 s of the bench's 92 400 rows, then an external sort).
  await tx.execute(sql`with sums as (
      select d.key, sum(greatest(d.value, 0)) as pos, sum(least(d.value, 0)) as neg
      from counter_days d where d.uuid = ${uuid} group by d.profile_id, d.key),
    parts as (select s.pos, s.neg from sums s join counter_keys k on k.key = s.key and k.kind = 'count')
    update counter_marks set
      first_day = (select d.day from counter_days d where d.uuid = ${uuid} order by d.day limit 1),
      last_day = (select d.day from counter_days d where d.uuid = ${uuid} order by d.day desc limit 1),
      unsealed_from = (select d.day from counter_days d where d.uuid = ${uuid} and d.install_id <> ${SEALED_INSTALL} order by d.day limit 1),
      pos_bound = coalesce((select max(pos) from parts), 0),
      neg_bound = coalesce((select min(neg) from parts), 0),
      held_keys = null
    where uuid = ${uuid}`);
}

/** The first profile of the account holding more distinct keys (day rows and baselines) than `max`, or none. */
export async function profileOverKeyCap(tx: Db, uuid: string, max: number): Promise<string | null> {
  const [row] = await rows<{ profile_id: string }>(
    tx,
    sql`select profile_id from (
        select profile_id, key from counter_days where uuid = ${uuid}
        union select profile_id, key from counter_backfills where uuid = ${uuid}
        union select profile_id, key from counter_seals where uuid = ${uuid}) k
      group by profile_id having count(*) > ${max} order by profile_id limit 1`,
  );
  return row?.profile_id ?? null;
}

/** How many profiles the account's statistics hold. */
export async function profileCount(tx: Db, uuid: string): Promise<number> {
  const [row] = await rows<{ n: number }>(tx, sql`select count(*)::int as n from stat_profiles where uuid = ${uuid}`);
  return row!.n;
}
