// The ranking's reads (docs/decisions.md, "Boards: ranking by value buckets"): a page is found by
// walking the bucket counts to its offset, then one index range inside board_scores_rank_idx; a
// rank is the better buckets' counts added up plus the better rows of its own bucket.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { textArray } from "../db/array-param.ts";
import { GROUP, groupOf, isExactBucket, SLOTS, slotKey, slotMs, slotOf, slotStart } from "./buckets.ts";

export type RankedRow = {
  uuid: string;
  profileId: string;
  value: string;
  sortValue: string;
  bucket: number;
  reachedAt: number;
  cuteName: string | null;
};

const columns = sql`s.uuid, s.profile_id as "profileId", s.value::text as value, s.sort_value::text as "sortValue",
  s.bucket, s.reached_at::float8 as "reachedAt", s.cute_name as "cuteName"`;
const order = sql`s.bucket, s.sort_value, s.reached_at, s.uuid, s.profile_id`;
const orderDesc = sql`s.bucket desc, s.sort_value desc, s.reached_at desc, s.uuid desc, s.profile_id desc`;
const place = (r: RankedRow) =>
  sql`(${r.bucket}, ${r.sortValue}::bigint, ${r.reachedAt}::bigint, ${r.uuid}, ${r.profileId})`;
const key = sql`(s.bucket, s.sort_value, s.reached_at, s.uuid, s.profile_id)`;

/**
 * How many scores a board's window holds, and `limit` of them from the `offset`-th (0: the best),
 * best first, in one statement: a walk of the group counts to the group the offset lies in, then of
 * that group's bucket counts to its bucket, then (an exact-value bucket) of its slot counts to its
 * slot; the page's first key found among index entries from there (the rows skipped are never
 * read), and the page one index range from it.
 */
export async function rankedPage(db: Db, board: string, window: string, offset: number, limit: number) {
  const where = sql`board = ${board} and "window" = ${window}`;
  const scores = sql`s.board = ${board} and s.window = ${window}`;
  const keyColumns = sql`s.bucket, s.sort_value, s.reached_at, s.uuid, s.profile_id`;
  const found = await rows<RankedRow & { total: number }>(
    db,
    sql`with g as (select bucket, n, sum(n) over (order by bucket) as cum from board_buckets where ${where} and level = 1),
      grp as materialized (select bucket, cum - n as before from g where cum > ${offset} order by bucket limit 1),
      -- The group's buckets as one index range (lateral: the group is found once, then its range read).
      f as (
        select b.bucket, b.n, grp.before + sum(b.n) over (order by b.bucket) as cum from grp
          cross join lateral (
            select bucket, n from board_buckets where ${where} and level = 0
              and bucket >= grp.bucket * ${GROUP} and bucket < (grp.bucket + 1) * ${GROUP} offset 0
          ) b
      ),
      start as materialized (select bucket, cum - n as before from f where cum > ${offset} order by bucket limit 1),
      total as (select coalesce(max(cum), 0)::float8 as total from g),
      -- An exact-value bucket's slots, walked to the one the offset lies in.
      sl as materialized (
        select c.key - start.bucket::bigint * ${SLOTS} as slot, start.before + c.cum - c.n as before from start
          cross join lateral (
            select bucket as key, n, sum(n) over (order by bucket) as cum from board_buckets where ${where} and level = 2
              and start.bucket > -1000 and start.bucket < 1000
              and bucket >= start.bucket::bigint * ${SLOTS} and bucket < (start.bucket + 1)::bigint * ${SLOTS} offset 0
          ) c
        where c.cum > ${offset} - start.before order by c.key limit 1
      ),
      k as (
        (select ${keyColumns} from board_scores s where ${scores} and not exists (select 1 from sl)
          and s.bucket >= (select bucket from start)
          order by ${order} offset (select (${offset} - before)::bigint from start) limit 1)
        union all
        (select ${keyColumns} from board_scores s where ${scores}
          and s.bucket = (select bucket from start) and s.sort_value = (select bucket from start)
          and s.reached_at >= (select case when slot = 0 then -9223372036854775807 else slot * ${slotMs(window)} end from sl)
          order by ${order} offset (select (${offset} - before)::bigint from sl) limit 1)
      )
    select total.total, ${columns} from total left join (k cross join lateral (
      select * from board_scores s where ${scores}
        and ${key} >= (k.bucket, k.sort_value, k.reached_at, k.uuid, k.profile_id)
      order by ${order} limit ${limit}
    ) s) on true order by ${order}`,
  );
  const total = found[0]?.total ?? 0;
  return { total, rows: found.filter((r) => r.uuid !== null) as RankedRow[] };
}

/** The account's scores on a board's window (one a profile). */
export function scoresOfAccount(db: Db, board: string, window: string, uuid: string) {
  return rows<RankedRow>(
    db,
    sql`select ${columns} from board_scores s where s.uuid = ${uuid} and s.board = ${board} and s.window = ${window}
    order by s.profile_id`,
  );
}

/**
 * The rank of a stored score, as an expression: 1 + the scores before it (the better groups', then
 * the better buckets of its group, then in an exact-value bucket the earlier slots', then the
 * better rows of its own bucket or slot).
 */
function rankSql(board: string, window: string, r: RankedRow) {
  const counts = (level: number, from: number, to: number) =>
    sql`coalesce((select sum(n) from board_buckets where board = ${board} and "window" = ${window} and level = ${level}
      and bucket >= ${from} and bucket < ${to}), 0)`;
  const group = groupOf(r.bucket) * GROUP;
  let slots = sql`0`;
  // Plain bounds and a filter, no row comparison: Postgres (before 18) ends a range scan at a row
  // comparison's first column only, so `(bucket, …) < (…)` would read on to the bucket's end.
  let from = sql`s.bucket = ${r.bucket} and s.sort_value <= ${r.sortValue}::bigint`;
  if (isExactBucket(r.bucket)) {
    const slot = slotOf(window, r.reachedAt);
    slots = counts(2, slotKey(r.bucket, 0), slotKey(r.bucket, slot));
    const begins = slotStart(window, slot);
    from = sql`s.bucket = ${r.bucket} and s.sort_value = ${r.sortValue}::bigint and s.reached_at <= ${r.reachedAt}::bigint`;
    if (begins !== null) from = sql`${from} and s.reached_at >= ${begins}::bigint`;
  }
  const before = sql`(s.sort_value < ${r.sortValue}::bigint or s.reached_at < ${r.reachedAt}::bigint
    or (s.reached_at = ${r.reachedAt}::bigint and (s.uuid, s.profile_id) < (${r.uuid}, ${r.profileId})))`;
  return sql`(1 + ${counts(1, -(2 ** 31), groupOf(r.bucket))} + ${counts(0, group, r.bucket)} + ${slots}
      + (select count(*) from board_scores s where s.board = ${board} and s.window = ${window} and ${from}
          and ${before}))::float8`;
}

/** The rank of a stored score. */
export async function rankOf(db: Db, board: string, window: string, r: RankedRow): Promise<number> {
  const [row] = await rows<{ rank: number }>(db, sql`select ${rankSql(board, window, r)} as rank`);
  return row!.rank;
}

const byKey = (a: RankedRow, b: RankedRow) =>
  a.bucket - b.bucket ||
  Number(BigInt(a.sortValue) - BigInt(b.sortValue)) ||
  a.reachedAt - b.reachedAt ||
  (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : a.profileId < b.profileId ? -1 : a.profileId > b.profileId ? 1 : 0);

/**
 * A stored score's rank and up to `n` scores just before (better than) and just after it, in one
 * statement.
 */
export async function around(db: Db, board: string, window: string, r: RankedRow, n: number) {
  const scores = sql`s.board = ${board} and s.window = ${window}`;
  const found = await rows<RankedRow & { side: number; rank: number | null }>(
    db,
    sql`select 0 as side, ${rankSql(board, window, r)} as rank, null::text as uuid, null::text as "profileId",
      null::text as value, null::text as "sortValue", null::int as bucket, null::float8 as "reachedAt", null::text as "cuteName"
    union all (select -1, null, ${columns} from board_scores s where ${scores} and ${key} < ${place(r)}
      order by ${orderDesc} limit ${n})
    union all (select 1, null, ${columns} from board_scores s where ${scores} and ${key} > ${place(r)}
      order by ${order} limit ${n})`,
  );
  const side = (k: number) =>
    found
      .filter((x) => x.side === k)
      .map(({ side: _, rank: __, ...x }) => x as RankedRow)
      .sort(byKey);
  return { rank: found.find((x) => x.side === 0)!.rank!, above: side(-1), below: side(1) };
}

/** Bulk insert for the bench: scores as they are, bucket counts recounted. */
export async function insertScoresBulk(db: Db, board: string, window: string, list: RankedRow[]) {
  const col = <K extends keyof RankedRow>(k: K) => list.map((s) => (s[k] === null ? null : String(s[k])));
  await db.execute(
    sql`insert into board_scores (board, "window", uuid, profile_id, value, sort_value, bucket, reached_at, cute_name)
    select ${board}, ${window}, * from unnest(${textArray(col("uuid"))}::text[], ${textArray(col("profileId"))}::text[],
      ${textArray(col("value"))}::bigint[], ${textArray(col("sortValue"))}::bigint[], ${textArray(col("bucket"))}::int[],
      ${textArray(col("reachedAt"))}::bigint[], ${textArray(col("cuteName"))}::text[])`,
  );
}

/** Recounts a board window's buckets and groups from its scores (the bench's bulk fill). */
export async function recountBuckets(db: Db, board: string, window: string) {
  await db.execute(sql`delete from board_buckets where board = ${board} and "window" = ${window}`);
  await db.execute(
    sql`insert into board_buckets (board, "window", level, bucket, n)
    select board, "window", 0, bucket, count(*) from board_scores where board = ${board} and "window" = ${window}
    group by board, "window", bucket`,
  );
  await db.execute(
    sql`insert into board_buckets (board, "window", level, bucket, n)
    select board, "window", 1, floor(bucket / ${sql.raw(String(GROUP))}.0)::int, sum(n) from board_buckets
    where board = ${board} and "window" = ${window} and level = 0 group by board, "window", floor(bucket / ${sql.raw(String(GROUP))}.0)::int`,
  );
  const ms = slotMs(window);
  await db.execute(
    sql`insert into board_buckets (board, "window", level, bucket, n)
    select ${board}, ${window}, 2, bucket * ${SLOTS} + least(greatest(floor(reached_at::float8 / ${ms}), 0), ${SLOTS - 1})::int, count(*)
    from board_scores where board = ${board} and "window" = ${window} and bucket > -1000 and bucket < 1000 group by 4`,
  );
}

/**
 * The bench's fill's last step on Postgres: a bulk insert leaves the visibility map unset (index-only
 * scans read the table) and the planner without statistics until autovacuum, which would run amid
 * the timings.
 */
export async function settleScores(db: Db) {
  await db.execute(sql`vacuum analyze board_scores, board_buckets`);
}

/** How many scores a board's window holds (its bucket groups' counts added up). */
export async function totalOf(db: Db, board: string, window: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`select coalesce(sum(n), 0)::float8 as n from board_buckets where board = ${board} and "window" = ${window} and level = 1`,
  );
  return row?.n ?? 0;
}

/** The account's scores in these windows, on every board (its primary key's range per window). */
export function accountScoresIn(db: Db, uuid: string, windows: string[]) {
  return rows<RankedRow & { board: string; window: string }>(
    db,
    sql`select s.board, s.window, ${columns} from board_scores s
    where s.uuid = ${uuid} and s.window = any(${textArray(windows)}::text[]) order by s.board, s.window, s.profile_id`,
  );
}
