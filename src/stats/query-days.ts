// Days in a query string: `day` of GET /v1/stats/periods, `from` and `to` of /series and /days.
// Each is a day the service takes (a calendar date from EARLIEST_DAY on, wire/day.ts); a day a
// read starts at is also not after the latest day any zone is in now (the service's UTC day + 1,
// the contract's look-ahead). A range's `to` may run past it (a chart of this month), at most the
// range cap from `from`. Anything else is 400 invalid_query naming the parameter: before, year 0001
// answered 500 (the period before it is in year 0, which Postgres refuses).
import { ApiError } from "../http/errors.ts";
import { addDays, dayFault, EARLIEST_DAY, latestDay } from "../wire/day.ts";

const refuse = (name: string, why: string) => new ApiError("invalid_query", `${name}: ${why}`, `/${name}`);

/** A day the service takes, as the start of a read (not after the latest day of any zone at `now`). */
export function queryDay(name: string, day: string, now: number): string {
  const fault = dayFault(day);
  if (fault) throw refuse(name, fault);
  const latest = latestDay(now);
  if (day > latest) throw refuse(name, `${day} is after ${latest}, the latest day of any zone now`);
  return day;
}

/**
 * A range of days from the query: `to` by default `today` (the account's), `from` by default
 * `defaultDays` before `to` (not before EARLIEST_DAY nor after the latest day); at most `maxDays`.
 */
export function queryRange(
  q: { from?: string; to?: string },
  today: string,
  now: number,
  limits: { maxDays: number; defaultDays: number },
): { from: string; to: string } {
  if (q.from !== undefined) queryDay("from", q.from, now);
  const to = q.to ?? today;
  const fault = dayFault(to);
  if (fault) throw refuse("to", fault);
  const latest = latestDay(now);
  const start = addDays(to, -(limits.defaultDays - 1));
  const from = q.from ?? (start < EARLIEST_DAY ? EARLIEST_DAY : start > latest ? latest : start);
  if (from > to) throw new ApiError("invalid_query", "from is after to", "/from");
  if (addDays(from, limits.maxDays - 1) < to)
    throw new ApiError("invalid_query", `a range is at most ${limits.maxDays} days`, "/to");
  return { from, to };
}
