// The day rows and backfills of one upload (counter_days, counter_marks, counter_backfills), each
// one unnest(...) statement (design.md 3), inside the upload's transaction. A row is never
// overwritten by an upload sent earlier than the one that set it, so uploads delivered out of order
// fold to the same rows.
import { sql, type SQL } from "drizzle-orm";
import { isEmbedded, rows, type Db } from "../db/database.ts";
import { integerArray, textArray } from "../db/array-param.ts";
import { SAFE_LIMIT } from "../wire/safe-integer.ts";
import { closedThrough, rollupMerge } from "./counters.query.ts";

const LIMIT = sql.raw(String(SAFE_LIMIT));
const NEG_LIMIT = sql.raw(String(-SAFE_LIMIT));
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
  ...[tx, uuid, installId, sentAt, list]: Parameters<typeof upsertDays>
): ReturnType<typeof upsertDays> {
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
