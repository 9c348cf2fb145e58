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

export function advisoryJobLock(db: Db): JobLock {
  return async (job, fn) => {
    let result: { ran: true; value: Awaited<ReturnType<typeof fn>> } | { ran: false } = { ran: false };
    await db.transaction(async (tx) => {
      if (!(await tryJobLock(tx, jobLockKey(job)))) return;
      result = { ran: true, value: await fn() };
    });
    return result;
  };
}

export const singleProcessJobLock: JobLock = async (_job, fn) => ({ ran: true, value: await fn() });

export const jobLockFor = (kind: "postgres" | "embedded", db: Db): JobLock => (kind === "postgres" ? advisoryJobLock(db) : singleProcessJobLock);
