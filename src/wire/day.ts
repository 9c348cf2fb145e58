// Days are calendar dates YYYY-MM-DD (contract 2.1). The client labels them in the account's zone;
// the service never derives a day from a timestamp except its own "today" (UTC, design.md 4) and
// the account's today for the seal horizon (contract 3).
export const DAY_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";
const DAY_MS = 86_400_000;

/**
 * True for a date that exists: 2026-02-29 does not, and neither does any day of year 0000 (the
 * calendar goes from 1 BC to AD 1; Postgres refuses year 0, so such a day could never be stored).
 */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day.startsWith("0000")) return false;
  const t = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === day;
}

/**
 * The first day a day field of an upload or a day in a query may name (docs/decisions.md, "Days
 * the service takes"): no genuine statistic of the game is older, and the day arithmetic of every
 * read (the period before, the window before) then stays inside years Postgres stores.
 */
export const EARLIEST_DAY = "2000-01-01";

/** Why `day` is no day this service takes (null: it is one): a calendar date, not before EARLIEST_DAY. */
export function dayFault(day: string): string | null {
  if (!isCalendarDay(day)) return `${day} is not a calendar date`;
  if (day < EARLIEST_DAY) return `${day} is before ${EARLIEST_DAY}`;
  return null;
}

/** The latest day any account's zone can be in at `now`: the service's UTC day plus the contract's look-ahead (1). */
export const latestDay = (now: number) => addDays(utcDay(now), 1);

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date at `now` in an IANA zone. */
export function dayIn(zone: string, now: number): string {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(zone, f);
  }
  return f.format(new Date(now));
}
