// Keeping counter_rollups current: deltas from ingest, recomputation after retention and for keys
// marked stale. Every statement touches one account.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";

const p = sql.param;

export type RollupDelta = {
  profileId: string;
  key: string;
  /** Added to the stored sum: the new values minus the values they replaced. */
  sumDelta: number;
  max: number;
  min: number;
  firstDay: string;
  lastDay: string;
  lastValue: number;
  lastSentAt: number;
  lastInstall: string;
  stale: boolean;
};

/** Adds the deltas of one upload (`stale` travels as 0 or 1: postgres.js sends no boolean arrays). */
export async function applyRollupDeltas(tx: Db, uuid: string, list: RollupDelta[]) {
  if (list.length === 0) return;
  const col = <K extends keyof RollupDelta>(k: K) => p(list.map((d) => d[k]));
  await tx.execute(sql`insert into counter_rollups (uuid, profile_id, key, sum, max, min, first_day, last_day, last_value, last_sent_at, last_install, stale)
    select ${uuid}, t.profile_id, t.key, t.sum, t.max, t.min, t.first_day::date, t.last_day::date, t.last_value, t.last_sent_at, t.last_install, t.stale = 1
    from unnest(${col("profileId")}::text[], ${col("key")}::text[], ${col("sumDelta")}::bigint[], ${col("max")}::bigint[], ${col("min")}::bigint[],
                ${col("firstDay")}::text[], ${col("lastDay")}::text[], ${col("lastValue")}::bigint[], ${col("lastSentAt")}::bigint[],
                ${col("lastInstall")}::text[], ${p(list.map((d) => (d.stale ? 1 : 0)))}::int[])
      as t(profile_id, key, sum, max, min, first_day, last_day, last_value, last_sent_at, last_install, stale)
    on conflict (uuid, profile_id, key) do update set
      sum = counter_rollups.sum + excluded.sum,
      max = greatest(counter_rollups.max, excluded.max),
      min = least(counter_rollups.min, excluded.min),
      first_day = least(counter_rollups.first_day, excluded.first_day),
      last_day = greatest(counter_rollups.last_day, excluded.last_day),
      last_value = case when (excluded.last_day, excluded.last_sent_at, excluded.last_install) >= (counter_rollups.last_day, counter_rollups.last_sent_at, counter_rollups.last_install)
        then excluded.last_value else counter_rollups.last_value end,
      last_sent_at = case when (excluded.last_day, excluded.last_sent_at, excluded.last_install) >= (counter_rollups.last_day, counter_rollups.last_sent_at, counter_rollups.last_install)
        then excluded.last_sent_at else counter_rollups.last_sent_at end,
      last_install = case when (excluded.last_day, excluded.last_sent_at, excluded.last_install) >= (counter_rollups.last_day, counter_rollups.last_sent_at, counter_rollups.last_install)
        then excluded.last_install else counter_rollups.last_install end,
      stale = counter_rollups.stale or excluded.stale`);
}

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
