// The advisory lock a job holds while it runs, so one instance runs it at a time.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";

/** The advisory-lock class of scheduler jobs (the migrator uses its own single key). */
const JOBS_LOCK_CLASS = 7_340_013;

/** Takes the job's lock for the rest of the transaction `tx`; false when another session holds it. */
export async function tryJobLock(tx: Db, key: number): Promise<boolean> {
  const [row] = await rows<{ got: boolean }>(
    tx,
    sql`select pg_try_advisory_xact_lock(${JOBS_LOCK_CLASS}::int4, ${key}::int4) as got`,
  );
  return row!.got === true;
}
