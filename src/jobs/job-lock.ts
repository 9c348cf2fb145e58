// Who may run a job now. On Postgres: the instance that takes the job's advisory lock (held by a
// transaction on one pooled connection while the job works through the others; released at commit
// or if the instance dies). On the embedded database only one process can open DATA_DIR (its
// flock), and PGlite has one connection, which a transaction would hold against every request, so
// there the scheduler's own in-process guard is the lock.
import type { Db } from "../db/database.ts";
import { tryJobLock } from "./job-lock.query.ts";

export type JobLock = <T>(job: string, fn: () => Promise<T>) => Promise<{ ran: true; value: T } | { ran: false }>;

/** A stable 32-bit key from the job's name. */
export function jobLockKey(job: string): number {
  const digest = new Bun.CryptoHasher("sha256").update(`tally.job.${job}`).digest();
  return digest.readInt32BE(0);
}

/**
 * `maxHeld`: how many job locks this instance holds at once. Each holds a pooled connection for the
 * whole run while the job works through the others, so with every job due at once (at start) a
 * pool no larger than the number of jobs was all lock holders, and every job waited forever for a
 * connection. A job beyond the limit waits for a slot, then tries its lock.
 */
export function advisoryJobLock(db: Db, maxHeld = 1): JobLock {
  let held = 0;
  const waiting: (() => void)[] = [];
  const slot = async () => {
    while (held >= maxHeld) await new Promise<void>((resolve) => waiting.push(resolve));
    held++;
  };
  const release = () => {
    held--;
    waiting.shift()?.();
  };
  return async (job, fn) => {
    await slot();
    try {
      let result: { ran: true; value: Awaited<ReturnType<typeof fn>> } | { ran: false } = { ran: false };
      await db.transaction(async (tx) => {
        if (!(await tryJobLock(tx, jobLockKey(job)))) return;
        result = { ran: true, value: await fn() };
      });
      return result;
    } finally {
      release();
    }
  };
}

export const singleProcessJobLock: JobLock = async (_job, fn) => ({ ran: true, value: await fn() });

/** Job locks an instance may hold at once: all but two of its connections (one for a job's work, one for requests). */
export const jobLocksHeld = (poolMax: number) => Math.max(1, poolMax - 2);

export const jobLockFor = (kind: "postgres" | "embedded", db: Db, maxHeld = 1): JobLock =>
  kind === "postgres" ? advisoryJobLock(db, maxHeld) : singleProcessJobLock;
