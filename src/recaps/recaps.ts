// Recaps (issue 35): stored once a month or year has closed in the account's zone, read as one row,
// private until the owner shares one. What other modules and the pages call.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { accountsForJobs } from "../accounts/accounts.ts";
import { accountsWithDaysSince, type DaysSinceCursor } from "../stats/rollups.ts";
import { listProfiles } from "../stats/fold.ts";
import { randomBase64url } from "../http/secret.ts";
import { addDays, dayIn, utcDay } from "../wire/day.ts";
import { computeRecap } from "./compute.ts";
import type { RecapBody } from "./recap-body.ts";
import { isClosed, periodOf, type RecapPeriod } from "./recap-period.ts";
import { insertRecap, periodsOf, recapByShareKey, recapOf, setShareKey, storedFor } from "./recaps.query.ts";

/**
 * `placements`: the account's board placements in a period (set by the jobs from the boards
 * module; absent: recaps without them).
 */
export type RecapDeps = { db: Db; clock: Clock; catalogue: Catalogue; placements?: Placements };
export type Placements = (uuid: string, period: string) => Promise<NonNullable<RecapBody["boards"]>>;

/**
 * How many days after a period's close the job still looks for accounts to store it for: a
 * service stopped for the whole stretch misses the period (docs/decisions.md, "Recaps").
 */
export const CLOSE_LOOKBACK_DAYS = 7;
/** Accounts read a page at a time by the close job. */
const PAGE = 500;

/** The periods the job looks at now: months and years that ended within the lookback. */
export function periodsToClose(now: number): RecapPeriod[] {
  const today = utcDay(now);
  const seen = new Map<string, RecapPeriod>();
  for (let k = 1; k <= CLOSE_LOOKBACK_DAYS + 3; k++) {
    for (const kind of ["month", "year"] as const) {
      const p = periodOf(kind, addDays(today, -k));
      // Ended, and some zone's today (UTC's +-1 day) may be past it and its grace day.
      if (p.to < today && addDays(p.to, 2) <= addDays(today, 1)) seen.set(p.id, p);
    }
  }
  return [...seen.values()];
}

export type CloseResult = {
  periods: number;
  candidates: number;
  stored: number;
  already: number;
  open: number;
  idle: number;
};

/**
 * Stores the recap of every closed period for every account active in it (recaps.close). Work
 * follows the accounts with days since the period began; a stored recap is never computed again,
 * and a second run with the same clock stores nothing.
 */
export async function closeRecaps(deps: RecapDeps, opts: { signal?: AbortSignal } = {}): Promise<CloseResult> {
  const now = deps.clock.now();
  const result: CloseResult = { periods: 0, candidates: 0, stored: 0, already: 0, open: 0, idle: 0 };
  for (const p of periodsToClose(now)) {
    result.periods++;
    let after: DaysSinceCursor | null = null;
    for (;;) {
      if (opts.signal?.aborted) return result;
      const page = await accountsWithDaysSince(deps.db, p.from, after, PAGE);
      if (page.length === 0) break;
      after = page.at(-1)!;
      const uuids = page.map((a) => a.uuid);
      result.candidates += uuids.length;
      const stored = await storedFor(deps.db, uuids, p.id);
      for (const a of await accountsForJobs(deps.db, uuids)) {
        if (opts.signal?.aborted) return result;
        if (stored.has(a.uuid)) {
          result.already++;
          continue;
        }
        if (!isClosed(p, dayIn(a.zone, now))) {
          result.open++;
          continue;
        }
        const body = await computeRecap(deps, a.uuid, p.id);
        if (!body) {
          result.idle++;
          continue;
        }
        // Statistics erased while it was computed: nothing to store (erasure removes stored recaps).
        if ((await listProfiles(deps.db, a.uuid)).length === 0 && body.profiles.length > 0) {
          result.idle++;
          continue;
        }
        if (deps.placements) {
          const boards = await deps.placements(a.uuid, p.id);
          if (boards.length > 0) body.boards = boards;
        }
        if (await insertRecap(deps.db, a.uuid, p.id, body, now)) result.stored++;
        else result.already++;
      }
      if (uuids.length < PAGE) break;
    }
  }
  return result;
}

/** One stored recap of the account (null: none, or the period is not closed yet). */
export const storedRecap = (db: Db, uuid: string, period: string) => recapOf(db, uuid, period);

/** The account's stored recaps, newest first. */
export const recapPeriods = (db: Db, uuid: string) => periodsOf(db, uuid, 60);

/** A shared recap by its key (null: no such key, or revoked). */
export const sharedRecap = (db: Db, key: string) => recapByShareKey(db, key);

/** Shares one stored recap under a new key (replacing any earlier one); null when there is no such recap. */
export async function shareRecap(db: Db, uuid: string, period: string): Promise<string | null> {
  const key = randomBase64url(24);
  return (await setShareKey(db, uuid, period, key)) ? key : null;
}

/** Stops sharing: the link answers 404 from the next request on. */
export const revokeRecap = (db: Db, uuid: string, period: string) => setShareKey(db, uuid, period, null);
