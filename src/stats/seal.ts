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
import { accountsForJobs } from "../accounts/accounts.ts";
import { collapseDays, keysBefore, sealIntoBaseline, sealedAmong } from "./seal.query.ts";
import { lockAccountStats } from "./counters.query.ts";
import { isOutOfRange } from "../db/errors.ts";

export type LifecycleDeps = { db: Db; clock: Clock };
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

async function pass(
  deps: LifecycleDeps,
  opts: PassOptions,
  cutoff: (account: { zone: string; retentionDays: number }) => string,
  collapsible: boolean,
  work: (tx: Db, uuid: string, keys: string[], before: string) => Promise<number>,
): Promise<PassResult> {
  const batchKeys = opts.batchKeys ?? 200;
  const result: PassResult = { accounts: 0, batches: 0, rowsRemoved: 0, skipped: 0 };
  for (const account of await accountsForJobs(deps.db)) {
    if (opts.signal?.aborted) break;
    const before = cutoff(account);
    const keys = await keysBefore(deps.db, account.uuid, before, collapsible);
    if (keys.length === 0) continue;
    result.accounts++;
    for (let i = 0; i < keys.length && !opts.signal?.aborted; i += batchKeys) {
      const batch = keys.slice(i, i + batchKeys);
      const run = (some: string[]) =>
        deps.db.transaction(async (tx) => {
          await lockAccountStats(tx, account.uuid);
          return work(tx, account.uuid, some, before);
        });
      try {
        result.rowsRemoved += await run(batch);
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
      await opts.afterBatch?.({ uuid: account.uuid, keys: batch.length });
    }
  }
  return result;
}

/** How far back a clock step may go and still not reopen a sealed day (test/faults/clock-steps.test.ts). */
const CLOCK_STEP_BACK_DAYS = 7;

/**
 * The days of an upload that the clock says are writable but the seal or retention already took:
 * after the clock stepped back across midnight, the horizon by the clock is earlier than the one
 * the jobs used, and writing such a day again would count it twice. Only days within a week of
 * the horizon are asked about (a live upload's days never are).
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
    (tx, uuid, keys, before) => collapseDays(tx, uuid, keys, before),
  );
}

export function retentionPass(deps: LifecycleDeps, opts: PassOptions = {}) {
  const now = deps.clock.now();
  return pass(
    deps,
    opts,
    (a) => addDays(dayIn(a.zone, now), -a.retentionDays),
    false,
    (tx, uuid, keys, before) => sealIntoBaseline(tx, uuid, keys, before, addDays(before, -1)),
  );
}
