import { sql } from "drizzle-orm";
import { isEmbedded, rows, type Db } from "../db/database.ts";

/**
 * Counts `amount` (one request, or a cost) in the bucket's current window and answers the window's
 * count (one statement, safe under concurrency; 0 reads it).
 */
export async function countRequest(db: Db, bucket: string, windowStart: number, amount = 1): Promise<number> {
  const [row] = await rows<{ count: number }>(
    db,
    sql`insert into rate_limits (bucket, window_start, count) values (${bucket}, ${windowStart}, ${amount})
        on conflict (bucket) do update set
          count = case when rate_limits.window_start = excluded.window_start then rate_limits.count + excluded.count else excluded.count end,
          window_start = excluded.window_start
        returning count`,
  );
  return Number(row!.count);
}

/**
 * countRequest without waiting for the commit to reach the disk (`synchronous_commit = off` for its
 * own transaction): for counts taken on every request of a busy client (a personal access token),
 * where the flush was most of the request's time on Postgres (3 ms of 3.7 at p50). A crash may
 * lose the last fraction of a second of counts, which only ever lets a client a few more requests.
 */
export function countRequestNoFlush(db: Db, bucket: string, windowStart: number): Promise<number> {
  // The embedded database is one process's: a transaction around the count only costs it more.
  if (isEmbedded(db)) return countRequest(db, bucket, windowStart);
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local synchronous_commit = off`);
    return countRequest(tx, bucket, windowStart);
  });
}

/** Takes back one request counted in the bucket's window (a correct attempt at a secret). */
export async function uncountRequest(db: Db, bucket: string, windowStart: number) {
  await db.execute(
    sql`update rate_limits set count = count - 1 where bucket = ${bucket} and window_start = ${windowStart} and count > 0`,
  );
}

/**
 * Forgets the windows of one limit (buckets named `<name>:...`) that started before `before`. Only
 * its own: a one-minute limit purging every bucket wiped the hour-long report limit's counts.
 */
export async function purgeWindows(db: Db, name: string, before: number) {
  await db.execute(sql`delete from rate_limits where starts_with(bucket, ${`${name}:`}) and window_start < ${before}`);
}
