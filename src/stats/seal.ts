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
import {
  collapseDays,
  dueAccounts,
  keysBefore,
  lowerSealMark,
  markUnsealedNone,
  sealIntoBaseline,
  sealedAmong,
  setSealMark,
} from "./seal.query.ts";
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
  work: (tx: Db, uuid: string, keys: string[], before: string, from: string | null) => Promise<number>,
): Promise<PassResult> {
  const batchKeys = opts.batchKeys ?? 200;
  const result: PassResult = { accounts: 0, batches: 0, rowsRemoved: 0, skipped: 0 };
  // One statement finds the accounts with days that crossed their horizon; only those are worked on.
  const candidates = (await accountsForJobs(deps.db)).map((a) => ({ uuid: a.uuid, before: cutoff(a) }));
  const due = await dueAccounts(deps.db, candidates, collapsible);
  if (collapsible)
    await markUnsealedNone(
      deps.db,
      candidates.filter((c) => !due.has(c.uuid)),
    );
  for (const { uuid, before } of candidates) {
    if (opts.signal?.aborted) break;
    if (!due.has(uuid)) continue;
    const from = due.get(uuid) ?? null;
    const keys = await keysBefore(deps.db, uuid, before, collapsible, from);
    if (keys.length === 0) continue;
    result.accounts++;
    const skippedBefore = result.skipped;
    let finished = true;
    let marked = false;
    for (let i = 0; i < keys.length; i += batchKeys) {
      if (opts.signal?.aborted) {
        finished = false;
        break;
      }
      const batch = keys.slice(i, i + batchKeys);
      // Every per-install row before the horizon is collapsed once the last batch is: the seal mark
      // moves in its transaction (one commit less per account), so the next pass starts there.
      const mark = collapsible && i + batchKeys >= keys.length && result.skipped === skippedBefore;
      const run = (some: string[], withMark = false) =>
        deps.db.transaction(async (tx) => {
          await lockAccountStats(tx, uuid);
          const removed = await work(tx, uuid, some, before, from);
          if (withMark) await setSealMark(tx, uuid, before, from);
          return removed;
        });
      try {
        result.rowsRemoved += await run(batch, mark);
        marked = mark;
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
    // The last batch was redone key by key, none skipped: the mark moves on its own.
    if (collapsible && finished && !marked && result.skipped === skippedBefore)
      await setSealMark(deps.db, uuid, before, from);
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
 * below the account's seal mark (a day the seal found empty): the mark is lowered to the first, so
 * the next seal pass takes their rows without reading every account's sealed week again.
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
  const sealed = new Set(await sealedAmong(db, uuid, edge));
  const open = edge.filter((d) => !sealed.has(d)).sort();
  if (open.length > 0) await lowerSealMark(db, uuid, open[0]!);
  return sealed;
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
    (tx, uuid, keys, before) => sealIntoBaseline(tx, uuid, keys, before, addDays(before, -1)),
  );
}
