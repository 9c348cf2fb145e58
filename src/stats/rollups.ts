// Open days (docs/decisions.md): an account's days after its mark are open, written without moving
// any rollup and folded when read; the stats.rollups job closes them once they are older than
// yesterday, adding their fold to the rollups. Today and yesterday, the days a live upload keeps
// rewriting, stay open.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { isOutOfRange } from "../db/errors.ts";
import { accountsForJobs } from "../accounts/accounts.ts";
import { lockAccountStats } from "./counters.query.ts";
import { markFor } from "./horizons.ts";
import {
  accountsToClose,
  accountsWithDaysSinceRows,
  accountsWithOpenDays,
  closeDays,
  markOf,
  type DaysSinceCursor,
} from "./rollup.query.ts";

export type RollupsDeps = { db: Db; clock: Clock };
/**
 * `accounts`: accounts whose mark moved; `rollups`: (profile, key) rollups moved; `skipped`:
 * accounts left as they were because a closed total would leave the safe integer range.
 */
export type RollupsResult = { accounts: number; rollups: number; skipped: number };

/**
 * Moves the mark of every account with days to close forward to markFor (never back), each account one transaction under
 * its stats lock: a crash leaves every finished account whole and the rest for the next run, and
 * a second run with the same clock does nothing.
 */
export async function closeDaysPass(deps: RollupsDeps, opts: { signal?: AbortSignal } = {}): Promise<RollupsResult> {
  const now = deps.clock.now();
  const result: RollupsResult = { accounts: 0, rollups: 0, skipped: 0 };
  // The accounts with open days (one read of a partial index), then one statement finds those with
  // days to close; an account with none keeps its mark (reads fold the days after it, and there
  // are none up to `through`).
  const open = await accountsWithOpenDays(deps.db);
  const candidates = (await accountsForJobs(deps.db, open)).map((a) => ({
    uuid: a.uuid,
    through: markFor(a.zone, now),
  }));
  const due = new Set(await accountsToClose(deps.db, candidates));
  for (const { uuid, through } of candidates) {
    if (opts.signal?.aborted) break;
    if (!due.has(uuid)) continue;
    try {
      const moved = await deps.db.transaction(async (tx) => {
        await lockAccountStats(tx, uuid);
        // Read again under the lock: an upload or another run may have written it meanwhile.
        const from = await markOf(tx, uuid);
        if (from !== null && from >= through) return null;
        return closeDays(tx, uuid, from, through);
      });
      if (moved === null) continue;
      result.accounts++;
      result.rollups += moved;
    } catch (error) {
      // A total stored before the safe-range checks: the account keeps its mark (its reads stay
      // exact, its days open) and is tried again next run.
      if (!isOutOfRange(error)) throw error;
      result.skipped++;
    }
  }
  return result;
}

export type { DaysSinceCursor } from "./rollup.query.ts";

/**
 * A page of the accounts with a day row on or after `day`, in (last day, uuid) order after `after`
 * (recaps.close; null: from the first).
 */
export const accountsWithDaysSince = (db: Db, day: string, after: DaysSinceCursor | null, limit: number) =>
  accountsWithDaysSinceRows(db, day, after, limit);
