// The two lifecycle passes over every account (contract 3 and 2.6), in batches of keys, each batch
// one transaction: a crash between batches leaves every finished batch whole and the rest for the
// next run, so nothing is ever counted twice.
//   seal:      days older than the 120-day horizon (in the account's zone) have their per-install
//              rows collapsed into one row holding the folded value; charts do not change.
//   retention: days older than the account's retention are folded into its seal baseline and
//              deleted in the same transaction; lifetime totals do not change.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { addDays, dayIn } from "../wire/day.ts";
import { sealedBefore } from "./horizons.ts";
import { SEAL_HORIZON_DAYS } from "../config.ts";
import { accountsForJobs } from "../accounts/accounts.ts";
import {
  collapseDays,
  dueAccounts,
  keysBefore,
  sealIntoBaseline,
  sealedAmong,
  setRetainedMarks,
  setSealMark,
} from "./seal.query.ts";
import { lockAccountStats } from "./counters.query.ts";
import { forgetSnapshots } from "./lifetime-snapshot.query.ts";
import { isOutOfRange } from "../db/errors.ts";
import { EVERY_PROFILE, type Written } from "./lifetime-memo.ts";

export type LifecycleDeps = {
  db: Db;
  clock: Clock;
  /**
   * Told, inside each retention batch's transaction, the keys it folded into their seal baselines
   * (every profile of the account): the pages' memo of lifetime figures (lifetime-memo.ts), whose
   * baselines' dates move. The seal's collapse changes no figure a page shows, nor does closing days.
   */
  wrote?: (uuid: string, written: Written) => void;
};
export type PassOptions = {
  /** Keys per transaction (one big account never holds its rows locked for long). */
  batchKeys?: number;
  /** Called after each committed batch (tests abort a run here). */
  afterBatch?: (done: { uuid: string; keys: number }) => void | Promise<void>;
  /** Aborted when the service stops: the pass ends after the batch in hand. */
  signal?: AbortSignal;
};
/** `skipped`: keys left as they were because folding them would leave the safe integer range. */
export type PassResult = { accounts: number; batches: number; rowsRemoved: number; skipped: number };

/** A day on or after every account's horizon: no zone's today is more than a day past UTC's, and no horizon is shorter than the seal's. */
const latestHorizon = (now: number) => addDays(dayIn("UTC", now), 1 - SEAL_HORIZON_DAYS);

async function pass(
  deps: LifecycleDeps,
  opts: PassOptions,
  cutoff: (account: { zone: string; retentionDays: number }) => string,
  collapsible: boolean,
  work: (tx: Db, uuid: string, keys: string[], before: string, from: string | null) => Promise<number>,
): Promise<PassResult> {
  const batchKeys = opts.batchKeys ?? 200;
  const result: PassResult = { accounts: 0, batches: 0, rowsRemoved: 0, skipped: 0 };
  // One range read of an index finds the accounts with rows old enough; only those are read further.
  const found = await dueAccounts(deps.db, latestHorizon(deps.clock.now()), collapsible);
  const accounts = await accountsForJobs(deps.db, [...found.keys()]);
  // Each batch's transaction holds the account's stats lock, as an upload's does; the marks move
  // under it, so an upload never writes between a pass's read of what is left and its mark.
  const locked = <T>(uuid: string, body: (tx: Db) => Promise<T>) =>
    deps.db.transaction(async (tx) => {
      await lockAccountStats(tx, uuid);
      return body(tx);
    });
  const marked = (tx: Db, uuid: string, from: string | null) =>
    collapsible ? setSealMark(tx, uuid, from) : setRetainedMarks(tx, uuid);
  for (const account of accounts) {
    if (opts.signal?.aborted) break;
    const { uuid } = account;
    const before = cutoff(account);
    const first = found.get(uuid)!;
    if (first >= before) continue; // not yet due in its own zone
    // The seal reads from its mark; retention deletes every row before its horizon.
    const from = collapsible ? first : null;
    const keys = await keysBefore(deps.db, uuid, before, collapsible, from);
    if (keys.length === 0) {
      // Its mark pointed at rows that are gone (an erased profile, say): set again from what is left.
      await locked(uuid, (tx) => marked(tx, uuid, from));
      continue;
    }
    result.accounts++;
    const skippedBefore = result.skipped;
    let finished = true;
    let marks = false;
    for (let i = 0; i < keys.length; i += batchKeys) {
      if (opts.signal?.aborted) {
        finished = false;
        break;
      }
      const batch = keys.slice(i, i + batchKeys);
      // Once the last batch is done the marks move in its transaction (one commit less per
      // account), so the next pass starts there.
      const last = i + batchKeys >= keys.length && result.skipped === skippedBefore;
      const run = (some: string[], withMarks = false) =>
        locked(uuid, async (tx) => {
          const removed = await work(tx, uuid, some, before, from);
          if (withMarks) await marked(tx, uuid, from);
          return removed;
        });
      try {
        result.rowsRemoved += await run(batch, last);
        marks = last;
      } catch (error) {
        if (!isOutOfRange(error)) throw error;
        // A key whose fold would leave the safe range (a seal baseline past it, or a total stored
        // before the checks) rolled its whole batch back. Redo the batch key by key: the others are
        // done, that key keeps its day rows as they are (nothing lost) and is counted as skipped.
        for (const key of batch) {
          try {
            result.rowsRemoved += await run([key]);
          } catch (keyError) {
            if (!isOutOfRange(keyError)) throw keyError;
            result.skipped++;
          }
        }
      }
      result.batches++;
      await opts.afterBatch?.({ uuid, keys: batch.length });
    }
    // The last batch was redone key by key: the marks move on their own. A key skipped keeps its
    // rows, and the marks, read from what is left, still point at them.
    if (finished && !marks) await locked(uuid, (tx) => marked(tx, uuid, from));
  }
  return result;
}

/** How far back a clock step may go and still not reopen a sealed day (test/faults/clock-steps.test.ts). */
const CLOCK_STEP_BACK_DAYS = 7;

/**
 * The days of an upload that the clock says are writable but the seal or retention already took:
 * after the clock stepped back across midnight, the horizon by the clock is earlier than the one
 * the jobs used, and writing such a day again would count it twice. Only days within a week of
 * the horizon are asked about (a live upload's days never are). Those of them still open may lie
 * below the account's seal mark (a day the seal found empty): the upload's write lowers the mark to
 * its first day (upsertDays), so the next seal pass takes their rows.
 */
export async function resealedDays(
  db: Db,
  uuid: string,
  days: string[],
  sealedBeforeDay: string,
): Promise<Set<string>> {
  const edge = [
    ...new Set(days.filter((d) => d >= sealedBeforeDay && d < addDays(sealedBeforeDay, CLOCK_STEP_BACK_DAYS))),
  ];
  return new Set(await sealedAmong(db, uuid, edge));
}

export function sealPass(deps: LifecycleDeps, opts: PassOptions = {}) {
  const now = deps.clock.now();
  return pass(
    deps,
    opts,
    (a) => sealedBefore(a.zone, now),
    true,
    (tx, uuid, keys, before, from) => collapseDays(tx, uuid, keys, before, from),
  );
}

export function retentionPass(deps: LifecycleDeps, opts: PassOptions = {}) {
  const now = deps.clock.now();
  return pass(
    deps,
    opts,
    (a) => addDays(dayIn(a.zone, now), -a.retentionDays),
    false,
    async (tx, uuid, keys, before) => {
      deps.wrote?.(uuid, new Map([[EVERY_PROFILE, keys]]));
      // The kept copies of its lifetime figures hold the old baseline dates (the state does not move).
      await forgetSnapshots(tx, uuid);
      return sealIntoBaseline(tx, uuid, keys, before, addDays(before, -1));
    },
  );
}
