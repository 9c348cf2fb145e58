// Rebuilding counter_rollups: after the seal and retention, and for keys marked stale (ingest moves
// them by deltas in its own statement, see upsertDays). Every statement touches one account.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";

const p = sql.param;

/** Rebuilds the rollups of these keys (every profile of the account) from their day rows. */
export async function recomputeRollups(tx: Db, uuid: string, keys: string[], profileId?: string) {
  if (keys.length === 0) return;
  const profile = profileId === undefined ? sql`` : sql` and profile_id = ${profileId}`;
  await tx.execute(sql`delete from counter_rollups where uuid = ${uuid} and key = any(${p(keys)}::text[])${profile}`);
  await tx.execute(sql`insert into counter_rollups (uuid, profile_id, key, sum, max, min, first_day, last_day, last_value, last_sent_at, last_install, stale)
    select uuid, profile_id, key, sum(value), max(value), min(value), min(day), max(day),
      (array_agg(value order by day desc, sent_at desc, install_id desc))[1],
      (array_agg(sent_at order by day desc, sent_at desc, install_id desc))[1],
      (array_agg(install_id order by day desc, sent_at desc, install_id desc))[1],
      false
    from counter_days where uuid = ${uuid} and key = any(${p(keys)}::text[])${profile}
    group by uuid, profile_id, key`);
}

/** Rebuilds the stale rollups of one profile; a no-op (one indexed read) when none is stale. */
export async function refreshStaleRollups(db: Db, uuid: string, profileId: string) {
  const stale = await rows<{ key: string }>(db, sql`select key from counter_rollups where uuid = ${uuid} and profile_id = ${profileId} and stale`);
  if (stale.length === 0) return;
  await db.transaction((tx) => recomputeRollups(tx, uuid, stale.map((r) => r.key), profileId));
}
