// The boards' SQL (issue 35): opt-ins, scores and the bucket counts kept in step with them. Every
// read of a ranking is an index range of board_scores_rank_idx or board_buckets' primary key.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { integerArray, textArray } from "../db/array-param.ts";
import { groupOf, isExactBucket, slotKey, slotOf } from "./buckets.ts";
import type { RankedRow } from "./ranking.query.ts";

/** The board groups the account opted in to (`*`: every group) and whether the operator excluded it, in one read. */
export async function optinsAndExclusion(db: Db, uuid: string) {
  const [row] = await rows<{ groups: string[] | null; excluded: boolean }>(
    db,
    sql`select (select array_agg(grp order by grp) from board_optins where uuid = ${uuid}) as groups,
      exists (select 1 from board_exclusions where uuid = ${uuid}) as excluded`,
  );
  return { groups: row?.groups ?? [], excluded: row?.excluded ?? false };
}

/** Excludes an account from every board (its scores go in the caller's transaction too). */
export async function exclude(tx: Db, uuid: string, now: number) {
  await tx.execute(sql`insert into board_exclusions (uuid, at) values (${uuid}, ${now}) on conflict (uuid) do nothing`);
}

/** Lets an excluded account rank again, and forgets its held figures; answers whether it was excluded or held. */
export async function include(tx: Db, uuid: string): Promise<boolean> {
  const [row] = await rows<{ n: number }>(
    tx,
    sql`with e as (delete from board_exclusions where uuid = ${uuid} returning 1), h as (delete from board_held where uuid = ${uuid} returning 1)
    select ((select count(*) from e) + (select count(*) from h))::int as n`,
  );
  return (row?.n ?? 0) > 0;
}

/** Forgets the account's held figures (erasure: they are made of its statistics). */
export async function forgetHeld(tx: Db, uuid: string) {
  await tx.execute(sql`delete from board_held where uuid = ${uuid}`);
}

/** The boards on which the account has a held figure. */
export async function heldBoards(db: Db, uuid: string, boards: string[]): Promise<Set<string>> {
  const found = await rows<{ board: string }>(
    db,
    sql`select distinct board from board_held where uuid = ${uuid} and board = any(${textArray(boards)}::text[])`,
  );
  return new Set(found.map((r) => r.board));
}

export type HeldWrite = { board: string; window: string; profileId: string; value: string };

/** Notes figures held out of the ranking. */
export async function holdFigures(tx: Db, uuid: string, list: HeldWrite[], now: number) {
  if (list.length === 0) return;
  await tx.execute(
    sql`insert into board_held (uuid, board, "window", profile_id, value, at)
    select ${uuid}, * , ${now}::bigint from unnest(${textArray(list.map((h) => h.board))}::text[], ${textArray(list.map((h) => h.window))}::text[],
      ${textArray(list.map((h) => h.profileId))}::text[], ${textArray(list.map((h) => h.value))}::bigint[])
    on conflict (uuid, board, "window", profile_id) do update set value = excluded.value, at = excluded.at`,
  );
}

/** Every held figure with its account, newest first (at most `limit`). */
export function heldList(db: Db, limit: number) {
  return rows<{ uuid: string; board: string; window: string; value: string; at: number }>(
    db,
    sql`select uuid, board, "window", value::text as value, at::float8 as at from board_held order by at desc, uuid, board, "window" limit ${limit}`,
  );
}

/** The accounts the operator excluded, newest first (at most `limit`). */
export function exclusionsList(db: Db, limit: number) {
  return rows<{ uuid: string; at: number }>(
    db,
    sql`select uuid, at::float8 as at from board_exclusions order by at desc, uuid limit ${limit}`,
  );
}

/** Whether the operator excluded the account. */
export async function isExcluded(db: Db, uuid: string): Promise<boolean> {
  const [row] = await rows<{ e: boolean }>(
    db,
    sql`select exists (select 1 from board_exclusions where uuid = ${uuid}) as e`,
  );
  return row?.e ?? false;
}

/** Replaces the account's opt-ins. */
export async function replaceOptins(tx: Db, uuid: string, groups: string[], now: number) {
  await tx.execute(sql`delete from board_optins where uuid = ${uuid}`);
  if (groups.length > 0)
    await tx.execute(
      sql`insert into board_optins (uuid, grp, at) select ${uuid}, g, ${now} from unnest(${textArray(groups)}::text[]) as g`,
    );
}

/** Serialises one account's score writes (two uploads of one account at once). */
export async function lockAccountScores(tx: Db, uuid: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`tally.boards.${uuid}`}, 0))`);
}

/**
 * Deletes the account's scores (on the boards named, or on all of them) and takes each out of its
 * bucket's count; answers how many went. The counts move through addToBuckets, in its order, so an
 * opt-out and another account's upload never lock the same counts in opposite orders (a deadlock
 * Postgres ends by failing one of them).
 */
export async function deleteAccountScores(tx: Db, uuid: string, boards?: string[]): Promise<number> {
  const only = boards ? sql` and board = any(${textArray(boards)}::text[])` : sql``;
  const gone = await rows<{ board: string; window: string; bucket: number; reachedAt: number }>(
    tx,
    sql`delete from board_scores where uuid = ${uuid}${only} returning board, "window", bucket, reached_at::float8 as "reachedAt"`,
  );
  await addToBuckets(
    tx,
    gone.map((g) => ({ ...g, n: -1 })),
  );
  return gone.length;
}

export type StoredScore = {
  board: string;
  window: string;
  profileId: string;
  value: string;
  bucket: number;
  reachedAt: number;
};

/** The account's scores on these boards and windows, for these profiles. */
export function scoresOf(db: Db, uuid: string, profileIds: string[], boards: string[], windows: string[]) {
  return rows<StoredScore>(
    db,
    sql`select board, "window", profile_id as "profileId", value::text as value, bucket, reached_at::float8 as "reachedAt"
    from board_scores where uuid = ${uuid} and profile_id = any(${textArray(profileIds)}::text[])
      and board = any(${textArray(boards)}::text[]) and "window" = any(${textArray(windows)}::text[])`,
  );
}

/** A ranked row (ranking.query.ts) with the board and window it is kept under. */
export type ScoreWrite = RankedRow & { board: string; window: string };

/** Writes scores (new or replaced) in one statement. */
export async function upsertScores(tx: Db, list: ScoreWrite[]) {
  if (list.length === 0) return;
  const col = <K extends keyof ScoreWrite>(k: K) => list.map((s) => s[k]);
  await tx.execute(
    sql`insert into board_scores (board, "window", uuid, profile_id, value, sort_value, bucket, reached_at, cute_name)
    select * from unnest(${textArray(col("board"))}::text[], ${textArray(col("window"))}::text[], ${textArray(col("uuid"))}::text[],
      ${textArray(col("profileId"))}::text[], ${textArray(col("value"))}::bigint[], ${textArray(col("sortValue"))}::bigint[],
      ${integerArray(col("bucket"))}::int[], ${integerArray(col("reachedAt"))}::bigint[], ${textArray(col("cuteName"))}::text[])
    on conflict (uuid, board, "window", profile_id) do update set value = excluded.value, sort_value = excluded.sort_value,
      bucket = excluded.bucket, reached_at = excluded.reached_at, cute_name = excluded.cute_name`,
  );
}

/** Deletes single scores (a figure gone from a window). */
export async function deleteScores(tx: Db, uuid: string, list: { board: string; window: string; profileId: string }[]) {
  if (list.length === 0) return;
  await tx.execute(
    sql`delete from board_scores s using unnest(${textArray(list.map((s) => s.board))}::text[],
      ${textArray(list.map((s) => s.window))}::text[], ${textArray(list.map((s) => s.profileId))}::text[]) as g(board, win, profile_id)
    where s.uuid = ${uuid} and s.profile_id = g.profile_id and s.board = g.board and s.window = g.win`,
  );
}

export type BucketDelta = { board: string; window: string; bucket: number; reachedAt: number; n: number };

/**
 * Adds to bucket counts, to their groups', and to an exact-value bucket's slot (buckets.ts). Rows go
 * in (board, window, level, bucket) order, so two writers lock shared rows in the same order and
 * never deadlock each other.
 */
export async function addToBuckets(tx: Db, deltas: BucketDelta[]) {
  const merged = new Map<string, Omit<BucketDelta, "reachedAt"> & { level: number }>();
  for (const d of deltas)
    for (const [level, bucket] of [
      [0, d.bucket],
      [1, groupOf(d.bucket)],
      ...(isExactBucket(d.bucket) ? [[2, slotKey(d.bucket, slotOf(d.window, d.reachedAt))] as const] : []),
    ] as const) {
      const k = `${d.board}\u0000${d.window}\u0000${level}\u0000${bucket}`;
      const m = merged.get(k);
      if (m) m.n += d.n;
      else merged.set(k, { board: d.board, window: d.window, level, bucket, n: d.n });
    }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const list = [...merged.values()]
    .filter((d) => d.n !== 0)
    .sort((a, b) => cmp(a.board, b.board) || cmp(a.window, b.window) || a.level - b.level || a.bucket - b.bucket);
  if (list.length === 0) return;
  await tx.execute(
    sql`insert into board_buckets (board, "window", level, bucket, n)
    select board, win, level, bucket, n from unnest(${textArray(list.map((d) => d.board))}::text[], ${textArray(list.map((d) => d.window))}::text[],
      ${integerArray(list.map((d) => d.level))}::smallint[], ${integerArray(list.map((d) => d.bucket))}::int[], ${integerArray(list.map((d) => d.n))}::int[])
      with ordinality as d(board, win, level, bucket, n, i) order by i
    on conflict (board, "window", level, bucket) do update set n = board_buckets.n + excluded.n`,
  );
}

export type Pending = { profileId: string; board: string; window: string; cuteName: string | null; at: number };

/**
 * Notes the scores an upload may have moved, for the boards.refresh job, in one statement that
 * writes nothing unless the account opted in to some board group.
 */
export async function notePending(db: Db, uuid: string, list: Pending[]) {
  if (list.length === 0) return;
  await db.execute(
    sql`insert into board_pending (uuid, profile_id, board, "window", cute_name, at)
    select ${uuid}, p, b, w, c, a from unnest(${textArray(list.map((x) => x.profileId))}::text[], ${textArray(list.map((x) => x.board))}::text[],
      ${textArray(list.map((x) => x.window))}::text[], ${textArray(list.map((x) => x.cuteName))}::text[], ${integerArray(list.map((x) => x.at))}::bigint[]) as n(p, b, w, c, a)
    where exists (select 1 from board_optins where uuid = ${uuid})
    on conflict (uuid, profile_id, board, "window") do update set cute_name = excluded.cute_name, at = excluded.at`,
  );
}

/** Up to `limit` accounts with noted work after `after`, in uuid order. */
export async function pendingAccounts(db: Db, limit: number, after = ""): Promise<string[]> {
  const found = await rows<{ uuid: string }>(
    db,
    sql`select distinct uuid from board_pending where uuid > ${after} order by uuid limit ${limit}`,
  );
  return found.map((r) => r.uuid);
}

/** Takes (deletes and answers) the account's noted work. */
export function takePending(tx: Db, uuid: string) {
  return rows<Pending>(
    tx,
    sql`delete from board_pending where uuid = ${uuid}
    returning profile_id as "profileId", board, "window", cute_name as "cuteName", at::float8 as at`,
  );
}
