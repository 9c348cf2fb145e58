// Rebuilding counter_rollups: after the seal and retention, and for keys marked stale (ingest moves
// them by deltas in its own statement, see upsertDays); closing days into them (the rollups job).
// A rollup holds exactly the fold of its key's closed days (up to the account's counter_marks
// mark). Every statement touches one account.
import { countClosingDays } from "./calendar.query.ts";
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { closedThrough, foldIntoRollups, lockAccountStats, onlyKeys, rollupMerge } from "./counters.query.ts";

const p = sql.param;

/** Rebuilds the rollups of these keys (every profile of the account) from their closed day rows. */
export async function recomputeRollups(tx: Db, uuid: string, keys: string[], profileId?: string) {
  if (keys.length === 0) return;
  const profile = profileId === undefined ? sql`` : sql` and profile_id = ${profileId}`;
  const dayProfile = profileId === undefined ? sql`` : sql` and d.profile_id = ${profileId}`;
  await tx.execute(sql`delete from counter_rollups where uuid = ${uuid} and key = any(${p(keys)}::text[])${profile}`);
  await tx.execute(
    foldIntoRollups(
      sql`d.uuid = ${uuid} and d.key = any(${p(keys)}::text[])${dayProfile} and d.day <= ${closedThrough(uuid)}`,
    ),
  );
}

/** The account's mark (null: nothing closed), read after the caller took its stats lock. */
export async function markOf(tx: Db, uuid: string): Promise<string | null> {
  const [row] = await rows<{ closed_through: string }>(
    tx,
    sql`select closed_through::text as closed_through from counter_marks where uuid = ${uuid}`,
  );
  return row?.closed_through ?? null;
}

/**
 * The accounts with day rows after their mark (counter_marks.last_day, which each upload moves),
 * by the partial index that holds only those: the job never reads an account whose days are all
 * closed, however many there are.
 */
export async function accountsWithOpenDays(db: Db): Promise<string[]> {
  const found = await rows<{ uuid: string }>(
    db,
    sql`select uuid from counter_marks where last_day > closed_through order by uuid`,
  );
  return found.map((r) => r.uuid);
}

/**
 * Of these accounts (each with the day it should be closed through), those with day rows to close:
 * after their mark and up to that day. One statement; each account one range read of the (uuid,
 * day) index starting after its mark (ordered by day, so the planner reads that index and not the
 * primary key's over every day of the account), so the job's cost follows the accounts with days
 * to close, not every account's days.
 */
export async function accountsToClose(db: Db, candidates: { uuid: string; through: string }[]): Promise<string[]> {
  if (candidates.length === 0) return [];
  const found = await rows<{ uuid: string }>(
    db,
    sql`select a.uuid from unnest(${p(candidates.map((c) => c.uuid))}::text[], ${p(candidates.map((c) => c.through))}::text[]) as a(uuid, through)
        left join counter_marks m on m.uuid = a.uuid
        where (m.closed_through is null or m.closed_through < a.through::date)
          and (select d.day from counter_days d where d.uuid = a.uuid
            and d.day > coalesce(m.closed_through, '-infinity'::date) and d.day <= a.through::date
            order by d.day limit 1) is not null`,
  );
  return found.map((r) => r.uuid);
}

/**
 * Closes the account's days in (`from`, `through`] (`from` null: every day up to `through`): adds
 * their fold to the rollups (these days were never in them), counts their keys for the calendar
 * and moves the mark to `through`.
 * Answers the (profile, key) rollups moved. The caller holds the account's stats lock.
 */
export async function closeDays(tx: Db, uuid: string, from: string | null, through: string): Promise<number> {
  const days = sql`d.uuid = ${uuid} and d.day <= ${through}::date ${from === null ? sql`` : sql`and d.day > ${from}::date`}`;
  const moved = await rows(
    tx,
    sql`${foldIntoRollups(days)}
    on conflict (uuid, profile_id, key) do update set ${rollupMerge}
    returning 1`,
  );
  await countClosingDays(tx, uuid, from, through);
  await tx.execute(sql`insert into counter_marks (uuid, closed_through) values (${uuid}, ${through}::date)
    on conflict (uuid) do update set closed_through = excluded.closed_through`);
  return moved.length;
}

/**
 * Rebuilds the stale rollups of one profile (or of its key `only`); a no-op (one indexed read) when none is stale. The
 * rebuild holds the account's stats lock, so an upload or the rollups job moving the same rollups
 * waits for it (rebuilding a key that stopped being stale meanwhile changes nothing).
 */
export async function refreshStaleRollups(db: Db, uuid: string, profileId: string, only?: string | string[]) {
  const one = onlyKeys("counter_rollups", only);
  const stale = await rows<{ key: string }>(
    db,
    sql`select key from counter_rollups where uuid = ${uuid} and profile_id = ${profileId}${one} and stale`,
  );
  if (stale.length === 0) return;
  await db.transaction(async (tx) => {
    await lockAccountStats(tx, uuid);
    await recomputeRollups(
      tx,
      uuid,
      stale.map((r) => r.key),
      profileId,
    );
  });
}

/** Where a page of accountsWithDaysSinceRows ended: its last account's last day and uuid. */
export type DaysSinceCursor = { lastDay: string; uuid: string };

/**
 * Up to `limit` accounts with a day row on or after `day` (counter_marks.last_day), after `after` in
 * (last day, uuid) order: one range of counter_marks_last_day_idx, so a page costs what it shows
 * (recaps.close). An account that uploads while the pages are read may come again in a later page.
 * The cursor alone bounds a later page: beside a plain bound on last_day, Postgres (before 18) may
 * start the scan there and filter its way to the cursor.
 */
export function accountsWithDaysSinceRows(db: Db, day: string, after: DaysSinceCursor | null, limit: number) {
  const from = after ? sql`(last_day, uuid) > (${after.lastDay}::date, ${after.uuid})` : sql`last_day >= ${day}::date`;
  return rows<DaysSinceCursor>(
    db,
    sql`select last_day::text as "lastDay", uuid from counter_marks where ${from} order by last_day, uuid limit ${limit}`,
  );
}
