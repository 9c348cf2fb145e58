// The writes of one upload, each one unnest(...) statement (design.md 3), inside the upload's
// transaction. A row is never overwritten by an upload sent earlier than the one that set it, so
// uploads delivered out of order fold to the same rows.
import { sql, type SQL } from "drizzle-orm";
import { isEmbedded, rows, type Db } from "../db/database.ts";
import { integerArray, textArray } from "../db/array-param.ts";
import type { Amount } from "./activity.table.ts";
import { SAFE_LIMIT } from "../wire/safe-integer.ts";
import { closedThrough, rollupMerge, statsLock } from "./counters.query.ts";

const LIMIT = sql.raw(String(SAFE_LIMIT));
const NEG_LIMIT = sql.raw(String(-SAFE_LIMIT));

/**
 * Takes the account's stats lock (see lockAccountStats) and claims the batchId in one statement: true
 * if the batchId is new (or its last use is older than `windowStart`). Either order of the two is
 * safe: a concurrent copy of the batch waits on the claimed row or on the lock, never both ways.
 *
 * An account without a counter_marks row (its first upload) gets one closing through `firstMark`
 * (its today minus 2), so its early history goes through the rollups, with its parts' bounds at 0
 * (it has no day rows: the mark is written before any, and erasure deletes both); an existing mark
 * is left alone. The mark's row is written only once the lock is held (it reads the lock's CTE), so the
 * rollups job, which writes marks under the same lock, never waits on it the other way round.
 * The mark is not read here: this statement's snapshot is older than the lock it waited for.
 */
export async function lockAndClaimBatch(
  tx: Db,
  uuid: string,
  batchId: string,
  now: number,
  windowStart: number,
  firstMark: string,
): Promise<boolean> {
  const [row] = await rows<{ claimed: number }>(
    tx,
    sql`with claim as (
        insert into ingest_batches (uuid, batch_id, received_at) values (${uuid}, ${batchId}, ${now})
        on conflict (uuid, batch_id) do update set received_at = excluded.received_at, answer = null
        where ingest_batches.received_at < ${windowStart}
        returning batch_id
      ),
      locked as (select ${statsLock(uuid)}::text as locked),
      marked as (
        insert into counter_marks (uuid, closed_through, pos_bound, neg_bound) select ${uuid}, ${firstMark}::date, 0, 0 from locked
        on conflict (uuid) do nothing
      )
      select (select count(*) from claim)::int as claimed, (select locked from locked) as locked`,
  );
  return row!.claimed === 1;
}

export async function storedAnswer(tx: Db, uuid: string, batchId: string): Promise<string | null> {
  const [row] = await rows<{ answer: string | null }>(
    tx,
    sql`select answer from ingest_batches where uuid = ${uuid} and batch_id = ${batchId}`,
  );
  return row?.answer ?? null;
}

export async function purgeBatches(db: Db, before: number): Promise<number> {
  return (await rows(db, sql`delete from ingest_batches where received_at < ${before} returning 1`)).length;
}

/**
 * Ends an applied upload in one statement: stores its answer for duplicates of its batchId and,
 * when `profile` is given, notes the profile and its display name as of the upload's sentAt
 * (display only: a profile is never found by its name). The name of the latest-sent upload wins,
 * whatever the arrival order. A profile new to an account that holds `maxProfiles` already is not
 * noted: answers false, and the caller refuses the upload (issue 40).
 */
export async function finishUpload(
  tx: Db,
  uuid: string,
  batchId: string,
  answer: string,
  profile?: { profileId: string; cuteName: string; sentAt: number; maxProfiles: number },
): Promise<boolean> {
  const store = sql`update ingest_batches set answer = ${answer} where uuid = ${uuid} and batch_id = ${batchId}`;
  if (!profile) {
    await tx.execute(store);
    return true;
  }
  const { profileId, cuteName, sentAt, maxProfiles } = profile;
  const [row] = await rows<{ noted: number }>(
    tx,
    sql`with held as (
      select count(*) < ${maxProfiles} or coalesce(bool_or(profile_id = ${profileId}), false) as room
      from stat_profiles where uuid = ${uuid}
    ),
    touched as (
      insert into stat_profiles (uuid, profile_id, cute_name, first_seen_at, last_seen_at)
      select ${uuid}, ${profileId}, ${cuteName}, ${sentAt}, ${sentAt} from held where room
      on conflict (uuid, profile_id) do update set
        cute_name = case when excluded.last_seen_at >= stat_profiles.last_seen_at then excluded.cute_name else stat_profiles.cute_name end,
        first_seen_at = least(stat_profiles.first_seen_at, excluded.first_seen_at),
        last_seen_at = greatest(stat_profiles.last_seen_at, excluded.last_seen_at)
      returning 1
    ),
    stored as (${store} returning 1)
    select (select count(*) from touched)::int as noted`,
  );
  return row!.noted === 1;
}

export type KeyPin = { key: string; kind: string; unit: string; category: string };

/**
 * Pins the keys not seen before and answers the pinned kind, unit and category of each key given.
 * When every key is new (the insert wrote them all, as given) nothing is read back; otherwise the
 * pins are read, so a key pinned before (or by an upload that committed meanwhile) keeps its pin.
 * The insert answers only its count: 10 000 pins read back as rows cost the embedded database
 * 50 ms of a 130 ms write.
 */
export async function pinKeys(tx: Db, pins: KeyPin[], now: number): Promise<KeyPin[]> {
  if (pins.length === 0) return [];
  const keys = pins.map((x) => x.key);
  const [row] = await rows<{ n: number }>(
    tx,
    sql`with pinned as (
      insert into counter_keys (key, kind, unit, category, first_seen_at)
      select t.key, t.kind, t.unit, t.category, ${now}
      from unnest(${textArray(keys)}::text[], ${textArray(pins.map((x) => x.kind))}::text[], ${textArray(pins.map((x) => x.unit))}::text[], ${textArray(pins.map((x) => x.category))}::text[])
        as t(key, kind, unit, category)
      on conflict (key) do nothing
      returning 1
    )
    select count(*)::int as n from pinned`,
  );
  if (row!.n === pins.length) return pins;
  return rows<KeyPin>(
    tx,
    sql`select key, kind, unit, category from counter_keys where key = any(${textArray(keys)}::text[])`,
  );
}

export type DayRow = { profileId: string; key: string; day: string; value: number; kind: string };

/**
 * The insert of day rows, for a statement to return from: a row already stored takes the value of
 * the later-sent upload, keeps the value it replaced, and widens a gauge's low and high. A profile
 * or day that every row shares (the live upload: one profile, today) is one parameter rather than an
 * array element per row, and a list without gauges sends no bounds: fewer bytes to send and parse.
 */
function dayRowsInsert(uuid: string, installId: string, sentAt: number, list: DayRow[]) {
  const arrays: SQL[] = [
    sql`${textArray(list.map((r) => r.key))}::text[]`,
    sql`${integerArray(list.map((r) => r.value))}::bigint[]`,
  ];
  const names = ["key", "value"];
  // The array literal is built only when the values differ (a scalar is the usual case).
  const column = <T extends string | number | null>(
    name: string,
    values: T[],
    array: (xs: T[]) => SQL,
    type: string,
  ) => {
    if (values.length > 0 && values.every((v) => v === values[0])) return sql`${values[0]}::${sql.raw(type)}`;
    arrays.push(sql`${array(values)}::${sql.raw(type)}[]`);
    names.push(name);
    return sql.raw(`t.${name}`);
  };
  const profile = column(
    "profile_id",
    list.map((r) => r.profileId),
    textArray,
    "text",
  );
  const day = column(
    "day",
    list.map((r) => r.day),
    textArray,
    "date",
  );
  const bound = column(
    "bound",
    list.map((r) => (r.kind === "gauge" ? r.value : null)),
    integerArray,
    "bigint",
  );
  return sql`insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at, replaced_value)
      select ${uuid}, ${profile}, t.key, ${day}, ${installId}, t.value, ${bound}, ${bound}, ${sentAt}, null
      from unnest(${sql.join(arrays, sql`, `)}) as t(${sql.raw(names.join(", "))})
      on conflict (uuid, profile_id, key, day, install_id) do update set
        replaced_value = counter_days.value,
        value = case when excluded.sent_at >= counter_days.sent_at then excluded.value else counter_days.value end,
        sent_at = greatest(counter_days.sent_at, excluded.sent_at),
        low = least(counter_days.low, excluded.low),
        high = greatest(counter_days.high, excluded.high)`;
}

/**
 * The account's mark takes in the upload's days (first_day, last_day, unsealed_from: see
 * counterMarks; least and greatest pass over a null) and the bounds `widened` (a relation of one row,
 * pos and neg). Written only when something moved: a live upload's days move it once a day.
 */
function markMoved(uuid: string, list: DayRow[], widened: SQL) {
  let first = list[0]!.day;
  let last = first;
  for (const r of list) {
    if (r.day < first) first = r.day;
    if (r.day > last) last = r.day;
  }
  return sql`update counter_marks set pos_bound = w.pos, neg_bound = w.neg,
        first_day = least(counter_marks.first_day, ${first}::date), last_day = greatest(counter_marks.last_day, ${last}::date),
        unsealed_from = least(counter_marks.unsealed_from, ${first}::date)
      from ${widened} w
      where counter_marks.uuid = ${uuid} and (w.pos is distinct from counter_marks.pos_bound or w.neg is distinct from counter_marks.neg_bound
        or not coalesce(counter_marks.first_day <= ${first}::date and counter_marks.last_day >= ${last}::date and counter_marks.unsealed_from <= ${first}::date, false))`;
}

/**
 * Writes an upload's day rows and, in the same statement, moves the rollups by what changed on the
 * account's closed days (those up to its counter_marks mark; open days are folded when read, so a
 * row written to one moves nothing): each (profile, key)'s sum by new minus old (each written row
 * returns the value it replaced), max and min, first and last day, the gauge's latest reading; a
 * max key going down or a min key going up on a closed day marks its rollup stale. `kind` is each
 * key's pinned kind. The mark is read here, by a statement that starts after the account's stats
 * lock is held, so a mark the rollups job moved meanwhile is seen.
 *
 * A count's positive and negative parts over all its stored days (rollup plus open days) must stay
 * within the safe integer range. A (profile, key) whose parts would leave it is answered: the caller
 * refuses the upload, and its transaction takes back the day rows and rollups this statement wrote.
 * The account's mark keeps bounds no key's parts pass (counter_marks.pos_bound, neg_bound); this
 * statement widens them by the largest change it makes to a key's parts. While they stay inside
 * the safe range no key can leave it, and nothing more is read. Otherwise (or unknown) each count
 * key whose parts grow reads its open days (and, without a closed row written, its rollup).
 * Answers nothing when every rollup moved, so the usual upload pays no extra statement.
 */
export async function upsertDays(
  tx: Db,
  uuid: string,
  installId: string,
  sentAt: number,
  list: DayRow[],
): Promise<{ profileId: string; key: string }[]> {
  if (list.length === 0) return [];
  // The embedded database keeps no statistics: it takes each CTE below for one row and joins them
  // by nested loops, once per key per key (an upload of 10 000 new keys took 5.5 s, issue 22).
  // Without nested loops it hashes them; the lateral read below has no other plan and keeps its own.
  const embedded = isEmbedded(tx);
  if (embedded) await tx.execute(sql`set local enable_nestloop = off`);
  try {
    return await upsertDaysOf(tx, uuid, installId, sentAt, list);
  } finally {
    if (embedded) await tx.execute(sql`set local enable_nestloop = on`);
  }
}

async function upsertDaysOf(
  tx: Db,
  uuid: string,
  installId: string,
  sentAt: number,
  list: DayRow[],
): Promise<{ profileId: string; key: string }[]> {
  const closed = sql`filter (where closed)`;
  const keys = textArray(list.map((r) => r.key));
  // Per key: sums are kept for count keys only (`counted`); the latest reading is the greatest
  // (day, sentAt) among the closed rows written, one max() over arrays instead of an ordered aggregate.
  // Reads in this statement see the rows as they were before it (its snapshot): open days' old parts.
  const over = await rows<{ profile_id: string; key: string }>(
    tx,
    sql`with mark as (
      select ${closedThrough(uuid)} as through,
        (select m.pos_bound from counter_marks m where m.uuid = ${uuid}) as pos_bound,
        (select m.neg_bound from counter_marks m where m.uuid = ${uuid}) as neg_bound
    ),
    kinds as (
      select distinct t.key, t.kind from unnest(${keys}::text[], ${textArray(list.map((r) => r.kind))}::text[]) as t(key, kind)
    ),
    written as (
      ${dayRowsInsert(uuid, installId, sentAt, list)}
      returning profile_id, key, day, value, sent_at, replaced_value, day <= (select through from mark) as closed
    ),
    deltas as (
      select profile_id, w.key, min(k.kind) = 'count' as counted, bool_or(closed) as any_closed,
        sum(value - coalesce(replaced_value, 0)) ${closed} as sum,
        sum(greatest(value, 0) - greatest(coalesce(replaced_value, 0), 0)) ${closed} as pos,
        sum(least(value, 0) - least(coalesce(replaced_value, 0), 0)) ${closed} as neg,
        sum(greatest(value, 0) - greatest(coalesce(replaced_value, 0), 0)) filter (where not closed) as open_pos,
        sum(least(value, 0) - least(coalesce(replaced_value, 0), 0)) filter (where not closed) as open_neg,
        max(value) ${closed} as max, min(value) ${closed} as min, min(day) ${closed} as first_day, max(day) ${closed} as last_day,
        max(array[(day - date '1970-01-01')::bigint, sent_at, value]) ${closed} as latest,
        (min(k.kind) = 'max' and coalesce(bool_or(value < replaced_value) ${closed}, false))
          or (min(k.kind) = 'min' and coalesce(bool_or(value > replaced_value) ${closed}, false)) as stale
      from written w join kinds k on k.key = w.key
      group by profile_id, w.key
    ),
    moved as (
      insert into counter_rollups (uuid, profile_id, key, sum, pos, neg, max, min, first_day, last_day, last_value, last_sent_at, last_install, stale)
      select ${uuid}, profile_id, key, case when counted then sum else 0 end, case when counted then pos else 0 end, case when counted then neg else 0 end,
        max, min, first_day, last_day, latest[3], latest[2], ${installId}, stale
      from deltas
      where any_closed and (not counted or (pos <= ${LIMIT} and neg >= ${NEG_LIMIT}))
      on conflict (uuid, profile_id, key) do update set ${rollupMerge}
      where counter_rollups.pos + excluded.pos <= ${LIMIT} and counter_rollups.neg + excluded.neg >= ${NEG_LIMIT}
      returning profile_id, key, pos, neg
    ),
    -- The bounds widened by the largest change of a count key's parts here: inside the safe range,
    -- no key can have left it (null: a bound not known, so each key is read below).
    widened as (
      select mark.pos_bound + coalesce(max(greatest(coalesce(g.pos, 0) + coalesce(g.open_pos, 0), 0)) filter (where g.counted), 0) as pos,
        mark.neg_bound + coalesce(min(least(coalesce(g.neg, 0) + coalesce(g.open_neg, 0), 0)) filter (where g.counted), 0) as neg
      from mark left join deltas g on true group by mark.pos_bound, mark.neg_bound
    ),
    -- The same row takes in the upload's days (markMoved).
    bounded as (${markMoved(uuid, list, sql`widened`)}),
    -- Count keys whose parts grow: their parts over every stored day after this upload. The rollup
    -- as moved above (else as it was: no closed row written), plus the open days as they were
    -- before this statement, plus what this upload changed on open days.
    parts as (
      select g.profile_id, g.key,
        coalesce(m.pos, r.pos, 0) + coalesce(o.pos, 0) + coalesce(g.open_pos, 0) as pos,
        coalesce(m.neg, r.neg, 0) + coalesce(o.neg, 0) + coalesce(g.open_neg, 0) as neg
      from deltas g
        left join moved m on m.profile_id = g.profile_id and m.key = g.key
        left join counter_rollups r on not g.any_closed and r.uuid = ${uuid} and r.profile_id = g.profile_id and r.key = g.key
        left join lateral (
          select sum(greatest(d.value, 0)) as pos, sum(least(d.value, 0)) as neg
          from counter_days d
          -- (key, day) as a row: a range of the primary key only, never every open row of the account per key
          where d.uuid = ${uuid} and d.profile_id = g.profile_id
            and (d.key, d.day) > (g.key, (select through from mark)) and (d.key, d.day) <= (g.key, 'infinity'::date)
        ) o on true
      where g.counted and (g.open_pos > 0 or g.open_neg < 0 or g.pos > 0 or g.neg < 0)
        -- One test for the whole statement (no column of a row): inside the bounds, no key is read.
        and not coalesce((select pos <= ${LIMIT} and neg >= ${NEG_LIMIT} from widened), false)
    )
    select d.profile_id, d.key from deltas d
    where exists (select 1 from parts o where o.profile_id = d.profile_id and o.key = d.key and (o.pos > ${LIMIT} or o.neg < ${NEG_LIMIT}))
      or (d.any_closed and not exists (select 1 from moved m where m.profile_id = d.profile_id and m.key = d.key))
    order by d.profile_id, d.key collate "C"`,
  );
  return over.map((r) => ({ profileId: r.profile_id, key: r.key }));
}

/**
 * The day rows of an upload that lie on open days only (after the account's mark: nothing of them is
 * in a rollup, they are folded when read) and whose count keys cannot leave the safe range whatever
 * they replace (the caller's check, openDaysOnly in ingest.ts): the mod's live upload. The rows are
 * written with nothing read back but the count rows' replaced values, and the mark's bounds widen by
 * `daysPerKey` (the most rows one key has here) times the largest change of one count row's parts,
 * which is at least what any key's parts changed by (upsertDays widens by exactly that, per key).
 */
export async function upsertOpenDays(
  tx: Db,
  uuid: string,
  installId: string,
  sentAt: number,
  list: DayRow[],
  daysPerKey: number,
): Promise<void> {
  const counts = list.filter((r) => r.kind === "count");
  const others = list.filter((r) => r.kind !== "count");
  // Two inserts into counter_days in one statement write disjoint rows (a key has one kind).
  await tx.execute(sql`with ${others.length ? sql`others as (${dayRowsInsert(uuid, installId, sentAt, others)}),` : sql``}
    counted as (${dayRowsInsert(uuid, installId, sentAt, counts)} returning value, replaced_value),
    widened as (
      select m.pos_bound + ${daysPerKey}::bigint * greatest(coalesce(max(greatest(c.value, 0) - greatest(coalesce(c.replaced_value, 0), 0)), 0), 0) as pos,
        m.neg_bound + ${daysPerKey}::bigint * least(coalesce(min(least(c.value, 0) - least(coalesce(c.replaced_value, 0), 0)), 0), 0) as neg
      from counter_marks m left join counted c on true
      where m.uuid = ${uuid}
      group by m.pos_bound, m.neg_bound
    )
    ${markMoved(uuid, list, sql`widened`)}`);
}

export type BackfillRow = { profileId: string; key: string; day: string; value: number };

export async function upsertBackfills(tx: Db, uuid: string, installId: string, sentAt: number, list: BackfillRow[]) {
  if (list.length === 0) return;
  await tx.execute(sql`insert into counter_backfills (uuid, profile_id, key, install_id, day, value, sent_at)
    select ${uuid}, t.profile_id, t.key, ${installId}, t.day::date, t.value, ${sentAt}
    from unnest(${textArray(list.map((r) => r.profileId))}::text[], ${textArray(list.map((r) => r.key))}::text[], ${textArray(list.map((r) => r.day))}::text[],
                ${integerArray(list.map((r) => r.value))}::bigint[]) as t(profile_id, key, day, value)
    on conflict (uuid, profile_id, key, install_id) do update set
      day = case when excluded.sent_at >= counter_backfills.sent_at then excluded.day else counter_backfills.day end,
      value = case when excluded.sent_at >= counter_backfills.sent_at then excluded.value else counter_backfills.value end,
      sent_at = greatest(counter_backfills.sent_at, excluded.sent_at)`);
}

export type SessionRow = {
  id: string;
  profileId: string;
  activity: string;
  day: string;
  startedAt: number;
  endedAt: number;
  gains: Amount[];
  costs: Amount[];
};

/**
 * Answers how many sessions were written (a copy that ended earlier than the stored one is not).
 * The same statement moves session_rates by the difference each write makes (writeSessions).
 */
export async function upsertSessions(tx: Db, uuid: string, installId: string, list: SessionRow[]): Promise<number> {
  const written = await writeSessions(
    tx,
    uuid,
    list.map((s) => ({ ...s, installId })),
    ">=",
  );
  return written.added + written.replaced;
}

/**
 * Writes sessions by id, a stored one replaced by a copy whose end is `replaceWhen` its end (ingest:
 * no earlier; an import: later, so the same file twice changes nothing), and answers how many were
 * added and replaced. The same statement moves session_rates by the difference each write makes:
 * the written copy's lines added, the copy it replaced (read in this statement's snapshot, taken
 * under the account's stats lock, so no other upload of the account wrote it meanwhile) taken away.
 */
export async function writeSessions(
  tx: Db,
  uuid: string,
  list: (SessionRow & { installId: string })[],
  replaceWhen: ">=" | ">",
): Promise<{ added: number; replaced: number }> {
  if (list.length === 0) return { added: 0, replaced: 0 };
  const [row] = await rows<{ added: number; replaced: number }>(
    tx,
    sql`with t as (
      select * from unnest(${textArray(list.map((s) => s.id))}::text[], ${textArray(list.map((s) => s.profileId))}::text[],
                ${textArray(list.map((s) => s.installId))}::text[], ${textArray(list.map((s) => s.activity))}::text[],
                ${textArray(list.map((s) => s.day))}::text[], ${integerArray(list.map((s) => s.startedAt))}::bigint[], ${integerArray(list.map((s) => s.endedAt))}::bigint[],
                ${textArray(list.map((s) => JSON.stringify(s.gains)))}::text[], ${textArray(list.map((s) => JSON.stringify(s.costs)))}::text[])
        as t(id, profile_id, install_id, activity, day, started_at, ended_at, gains, costs)
    ),
    -- A probe of the primary key per session sent (lateral: never a scan of the account's sessions).
    old as (select o.* from t cross join lateral (select * from sessions s where s.uuid = ${uuid} and s.id = t.id) o),
    up as (
      insert into sessions (uuid, id, profile_id, install_id, activity, day, started_at, ended_at, gains, costs)
      select ${uuid}, t.id, t.profile_id, t.install_id, t.activity, t.day::date, t.started_at, t.ended_at, t.gains::jsonb, t.costs::jsonb from t
      on conflict (uuid, id) do update set
        profile_id = excluded.profile_id, install_id = excluded.install_id, activity = excluded.activity, day = excluded.day,
        started_at = excluded.started_at, ended_at = excluded.ended_at, gains = excluded.gains, costs = excluded.costs
      where excluded.ended_at ${sql.raw(replaceWhen)} sessions.ended_at
      returning id, profile_id, activity, day, ended_at - started_at as ms, gains, costs
    ),
    moved as (
      select 1 as sign, up.* from up
      union all
      select -1, o.id, o.profile_id, o.activity, o.day, o.ended_at - o.started_at, o.gains, o.costs from old o join up using (id)
    ),
    deltas as (
      select profile_id, day, activity, '' as side, '' as key, sum(sign * ms)::numeric as amount, sum(sign)::int as sessions
      from moved group by 1, 2, 3
      union all
      select profile_id, day, activity, 'gain', a->>'k', sum(sign * (a->>'v')::numeric), sum(sign)::int
      from moved cross join jsonb_array_elements(moved.gains) a group by 1, 2, 3, 4, 5
      union all
      select profile_id, day, activity, 'cost', a->>'k', sum(sign * (a->>'v')::numeric), sum(sign)::int
      from moved cross join jsonb_array_elements(moved.costs) a group by 1, 2, 3, 4, 5
    ),
    rated as (
      insert into session_rates as r (uuid, profile_id, day, activity, side, key, amount, sessions)
      select ${uuid}, profile_id, day, activity, side, key, amount, sessions from deltas
      on conflict (uuid, profile_id, day, activity, side, key) do update
        set amount = r.amount + excluded.amount, sessions = r.sessions + excluded.sessions
    )
    select (select count(*) from up where id not in (select id from old))::int as added,
      (select count(*) from up where id in (select id from old))::int as replaced`,
  );
  return row!;
}

export type EventRow = {
  id: string;
  profileId: string;
  kind: string;
  day: string;
  at: number;
  key: string | null;
  value: number | null;
};

/** Answers how many events were new (a repeated id is ignored). */
export async function insertEvents(tx: Db, uuid: string, installId: string, list: EventRow[]): Promise<number> {
  if (list.length === 0) return 0;
  const written = await rows(
    tx,
    sql`insert into timeline_events (uuid, id, profile_id, install_id, kind, day, at, key, value)
    select ${uuid}, t.id, t.profile_id, ${installId}, t.kind, t.day::date, t.at, t.key, t.value
    from unnest(${textArray(list.map((e) => e.id))}::text[], ${textArray(list.map((e) => e.profileId))}::text[], ${textArray(list.map((e) => e.kind))}::text[],
                ${textArray(list.map((e) => e.day))}::text[], ${integerArray(list.map((e) => e.at))}::bigint[], ${textArray(list.map((e) => e.key))}::text[],
                ${integerArray(list.map((e) => e.value))}::bigint[]) as t(id, profile_id, kind, day, at, key, value)
    on conflict (uuid, id) do nothing
    returning 1`,
  );
  return written.length;
}

export type MirrorRow = { section: string; values: Amount[] };

/** Answers how many sections were written (an observation not newer than the stored one is not). */
export async function upsertMirror(
  tx: Db,
  uuid: string,
  profileId: string,
  installId: string,
  observedAt: number,
  list: MirrorRow[],
): Promise<number> {
  if (list.length === 0) return 0;
  const written = await rows(
    tx,
    sql`insert into mirror_sections (uuid, profile_id, section, install_id, observed_at, values)
    select ${uuid}, ${profileId}, t.section, ${installId}, ${observedAt}, t.values::jsonb
    from unnest(${textArray(list.map((m) => m.section))}::text[], ${textArray(list.map((m) => JSON.stringify(m.values)))}::text[]) as t(section, values)
    on conflict (uuid, profile_id, section) do update set install_id = excluded.install_id, observed_at = excluded.observed_at, values = excluded.values
    where excluded.observed_at > mirror_sections.observed_at
    returning 1`,
  );
  return written.length;
}
