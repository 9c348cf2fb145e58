// Rebuilding counter_rollups: after the seal and retention, and for keys marked stale (ingest moves
// them by deltas in its own statement, see upsertDays). Every statement touches one account.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";

const p = sql.param;

/** Rebuilds the rollups of these keys (every profile of the account) from their day rows. */
export async function recomputeRollups(tx: Db, uuid: string, keys: string[], profileId?: string) {
  if (keys.length === 0) return;
  const profile = profileId === undefined ? sql`` : sql` and profile_id = ${profileId}`;
  const dayProfile = profileId === undefined ? sql`` : sql` and d.profile_id = ${profileId}`;
  await tx.execute(sql`delete from counter_rollups where uuid = ${uuid} and key = any(${p(keys)}::text[])${profile}`);
  // Sums only for count keys (see counterRollups); a part past the safe range breaks its check.
  await tx.execute(sql`insert into counter_rollups (uuid, profile_id, key, sum, pos, neg, max, min, first_day, last_day, last_value, last_sent_at, last_install, stale)
    select d.uuid, d.profile_id, d.key,
      coalesce(sum(d.value) filter (where k.kind = 'count'), 0),
      coalesce(sum(greatest(d.value, 0)) filter (where k.kind = 'count'), 0),
      coalesce(sum(least(d.value, 0)) filter (where k.kind = 'count'), 0),
      max(d.value), min(d.value), min(d.day), max(d.day),
      (array_agg(d.value order by d.day desc, d.sent_at desc, d.install_id desc))[1],
      (array_agg(d.sent_at order by d.day desc, d.sent_at desc, d.install_id desc))[1],
      (array_agg(d.install_id order by d.day desc, d.sent_at desc, d.install_id desc))[1],
      false
    from counter_days d join counter_keys k on k.key = d.key
    where d.uuid = ${uuid} and d.key = any(${p(keys)}::text[])${dayProfile}
    group by d.uuid, d.profile_id, d.key`);
}

/** Rebuilds the stale rollups of one profile; a no-op (one indexed read) when none is stale. */
export async function refreshStaleRollups(db: Db, uuid: string, profileId: string) {
  const stale = await rows<{ key: string }>(db, sql`select key from counter_rollups where uuid = ${uuid} and profile_id = ${profileId} and stale`);
  if (stale.length === 0) return;
  await db.transaction((tx) => recomputeRollups(tx, uuid, stale.map((r) => r.key), profileId));
}
