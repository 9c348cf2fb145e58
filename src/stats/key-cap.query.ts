// The keys one profile of an account already holds, for the cap of distinct keys per profile.
// A key is held by its rollup (closed days), its open days (after the account's mark), a backfill
// or a seal baseline: each of these tables has a primary key leading with (uuid, profile_id, key).
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { closedThrough, openDays } from "./counters.query.ts";

/**
 * Which of `keys` (uuid, profileId) does not hold yet: per key, at most four probes of a primary
 * key, so the cost grows with the upload's keys, never with the profile's or the table's (capKeys
 * asks only when the upload's keys might not fit).
 * Each probe is a scalar subquery with a limit, which the planner never turns into a join: as
 * `not exists`, the embedded database (no statistics) joined the open days by a nested loop over the
 * whole profile, 28 s at 10 000 keys. Read under the account's stats lock.
 */
export async function freshKeys(tx: Db, uuid: string, profileId: string, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const held = (table: string, more = sql``) =>
    sql`(select 1 from ${sql.raw(table)} h where h.uuid = ${uuid} and h.profile_id = ${profileId} and h.key = t.key ${more} limit 1) is null`;
  const [row] = await rows<{ fresh: string[] | null }>(
    tx,
    sql`with mark as (select ${closedThrough(uuid)} as through)
    select array(
      select t.key from unnest(${sql.param(keys)}::text[]) as t(key)
      where ${held("counter_rollups")} and ${held("counter_days", sql`and h.day > (select through from mark)`)}
        and ${held("counter_backfills")} and ${held("counter_seals")}
    ) as fresh`,
  );
  return row!.fresh ?? [];
}

/**
 * How many distinct keys (uuid, profileId) holds: each source an index range of the account's
 * profile, so the cost grows with the profile's keys, never with the table. Set operations only
 * (union): they hash or sort whatever the planner guesses, where a join could be a nested loop,
 * quadratic in keys.
 */
export async function heldKeyCount(db: Db, uuid: string, profileId: string): Promise<number> {
  const [row] = await rows<{ held: number }>(
    db,
    sql`select count(*)::int as held from (
      select key from counter_rollups where uuid = ${uuid} and profile_id = ${profileId}
      union select key from counter_backfills where uuid = ${uuid} and profile_id = ${profileId}
      union select key from counter_seals where uuid = ${uuid} and profile_id = ${profileId}
      union select key from ${openDays(uuid)} d where d.profile_id = ${profileId}
    ) held`,
  );
  return row!.held;
}

/**
 * Keeps the digest of a (profile, key) set the account now holds whole (its mark's row exists once
 * the batch is claimed). A key once held stays held (a rollup, open day, backfill or seal baseline)
 * until erasure deletes the mark's row with its digest; so a kept digest never lets an upload past
 * the cap.
 */
export async function setHeldDigest(tx: Db, uuid: string, digest: string) {
  await tx.execute(
    sql`update counter_marks set held_keys = ${digest} where uuid = ${uuid} and held_keys is distinct from ${digest}`,
  );
}
