// The page calendar's days kept in process for the account's state (issue 40), beside its lifetime
// figures (lifetime-memo.ts): its open days are counted from their rows, linear in the keys recorded
// on them (10 000 keys on two open days: 40-110 ms on the embedded database), so once per account
// state and time to live, not once per page.
import type { Clock } from "../clock.ts";
import type { FoldDeps } from "./fold.ts";
import { activeDays } from "./periods.ts";

type ActiveDay = Awaited<ReturnType<typeof activeDays>>[number];

/** Calendars kept at most (each a year of days at most: a few KiB). */
const CALENDARS_KEPT = 1_000;

/** The calendar's days in [from, to] of these profiles, as activeDays answers them. */
export type CalendarMemo = (
  deps: FoldDeps,
  uuid: string,
  profileIds: string[],
  span: { from: string; to: string },
  state: string,
) => Promise<readonly ActiveDay[]>;

/** One calendar an account, for `ttlMs` at most; `maxFigures` 0 (the lifetime memo's): none kept. */
export function calendarMemo(opts: { maxFigures: number; ttlMs: number; clock: Clock }): CalendarMemo {
  const calendars = new Map<string, { at: number; days: readonly ActiveDay[] }>();
  const counting = new Map<string, Promise<readonly ActiveDay[]>>();
  return async (deps, uuid, profileIds, span, state) => {
    const key = `${uuid}|${profileIds.join(",")}|${span.from}|${span.to}|${state}`;
    const entry = calendars.get(key);
    calendars.delete(key);
    if (entry && opts.clock.now() - entry.at < opts.ttlMs) {
      calendars.set(key, entry);
      return entry.days;
    }
    const count = () => activeDays(deps, uuid, profileIds, span.from, span.to).then((days) => Object.freeze(days));
    const pending = counting.get(key);
    // Read through another request's handle: failed there (its timeout, its cancel), read again here, unshared.
    if (pending) return pending.catch(count);
    const read = count();
    counting.set(key, read);
    try {
      const days = await read;
      if (opts.maxFigures > 0) {
        // One calendar an account: an older state's, or another span's, goes.
        for (const old of calendars.keys()) if (old.startsWith(`${uuid}|`)) calendars.delete(old);
        if (calendars.size >= CALENDARS_KEPT) calendars.delete(calendars.keys().next().value!);
        calendars.set(key, { at: opts.clock.now(), days });
      }
      return days;
    } finally {
      counting.delete(key);
    }
  };
}
