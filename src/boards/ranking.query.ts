// The ranking's reads (docs/decisions.md, "Boards: ranking by value buckets"): a page is found by
// walking the bucket counts to its offset, then one index range inside board_scores_rank_idx; a
// rank is the better buckets' counts added up plus the better rows of its own bucket.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { textArray } from "../db/array-param.ts";
import { GROUP, groupOf } from "./buckets.ts";

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

/**
 * How many scores a board's window holds, and `limit` of them from the `offset`-th (0: the best),
 * best first: a walk of the group counts to the group the offset lies in, then of that group's
 * bucket counts to its bucket, then one index range from there.
 */
export async function rankedPage(db: Db, board: string, window: string, offset: number, limit: number) {
  const where = sql`board = ${board} and "window" = ${window}`;
  const found = await rows<RankedRow & { total: number }>(
    db,
    sql`with g as (select bucket, n, sum(n) over (order by bucket) as cum from board_buckets where ${where} and level = 1),
      grp as materialized (select bucket, cum - n as before from g where cum > ${offset} order by bucket limit 1),
      -- The group's buckets as one index range (lateral: the group is found once, then its range read).
      f as (
        select b.bucket, b.n, grp.before + sum(b.n) over (order by b.bucket) as cum from grp
          cross join lateral (
            select bucket, n from board_buckets where board = ${board} and "window" = ${window} and level = 0
              and bucket >= grp.bucket * ${GROUP} and bucket < (grp.bucket + 1) * ${GROUP} offset 0
          ) b
      ),
      start as (select bucket, (cum - n)::int as before from f where cum > ${offset} order by bucket limit 1),
      total as (select coalesce(max(cum), 0)::float8 as total from g)
    select total.total, ${columns} from total left join (start cross join lateral (
      select * from board_scores s where s.board = ${board} and s.window = ${window} and s.bucket >= start.bucket
      order by ${order} offset (${offset} - start.before) limit ${limit}
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

const place = (r: RankedRow) =>
  sql`(${r.bucket}, ${r.sortValue}::bigint, ${r.reachedAt}::bigint, ${r.uuid}, ${r.profileId})`;
const key = sql`(s.bucket, s.sort_value, s.reached_at, s.uuid, s.profile_id)`;

/** The rank of a stored score: 1 + the scores before it. */
export async function rankOf(db: Db, board: string, window: string, r: RankedRow): Promise<number> {
  const [row] = await rows<{ rank: number }>(
    db,
    sql`select (1 + coalesce((select sum(n) from board_buckets where board = ${board} and "window" = ${window} and level = 1
          and bucket < ${groupOf(r.bucket)}), 0)
      + coalesce((select sum(n) from board_buckets where board = ${board} and "window" = ${window} and level = 0
          and bucket >= ${groupOf(r.bucket) * GROUP} and bucket < ${r.bucket}), 0)
      + (select count(*) from board_scores s where s.board = ${board} and s.window = ${window} and s.bucket = ${r.bucket}
          and ${key} < ${place(r)}))::float8 as rank`,
  );
  return row!.rank;
}

/** Up to `n` scores just before (better than) and just after a stored score. */
export async function neighbours(db: Db, board: string, window: string, r: RankedRow, n: number) {
  const above = await rows<RankedRow>(
    db,
    sql`select ${columns} from board_scores s where s.board = ${board} and s.window = ${window} and ${key} < ${place(r)}
    order by ${orderDesc} limit ${n}`,
  );
  const below = await rows<RankedRow>(
    db,
    sql`select ${columns} from board_scores s where s.board = ${board} and s.window = ${window} and ${key} > ${place(r)}
    order by ${order} limit ${n}`,
  );
  return { above: above.reverse(), below };
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
