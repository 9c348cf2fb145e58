// The keys one profile of an account already holds, for the cap of distinct keys per profile.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { closedThrough } from "./counters.query.ts";

/**
 * How many distinct keys (uuid, profileId) holds, and which of `keys` it does not hold yet. A key
 * is held by its rollup (closed days), its open days (after the account's mark), a backfill or a
 * seal baseline: each an index range of the account's profile, so the cost grows with the profile's
 * keys, never with the table. Set operations only (union, except): they hash or sort whatever the
 * planner guesses, where a join of the CTE could be a nested loop, quadratic in keys. Read under the account's stats lock, so no upload races it.
 */
export async function heldKeys(
  tx: Db,
  uuid: string,
  profileId: string,
  keys: string[],
): Promise<{ held: number; fresh: string[] }> {
  const [row] = await rows<{ held: number; fresh: string[] | null }>(
    tx,
    sql`with held as (
      select key from counter_rollups where uuid = ${uuid} and profile_id = ${profileId}
      union select key from counter_backfills where uuid = ${uuid} and profile_id = ${profileId}
      union select key from counter_seals where uuid = ${uuid} and profile_id = ${profileId}
      union select key from counter_days where uuid = ${uuid} and day > ${closedThrough(uuid)} and profile_id = ${profileId}
    )
    select (select count(*) from held)::int as held,
      array(select unnest(${sql.param(keys)}::text[]) except select key from held) as fresh`,
  );
  return { held: row!.held, fresh: row!.fresh ?? [] };
}
