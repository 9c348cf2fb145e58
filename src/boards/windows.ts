// The windows a board ranks over (issue 35): the calendar week (ISO 8601: Monday to Sunday, week 1
// holds the year's first Thursday, so 2026-12-31 and 2027-01-01 are 2026-W53), the calendar month,
// and all time. Days are the account's own (contract 2.1 rule 4): a window is a range of day labels,
// never of timestamps. A window is open until a day past its last (the grace for a zone ahead of
// the service's): later it is archived, its scores kept and never recomputed.
import { addDays } from "../wire/day.ts";
import type { WindowKind } from "./definitions.ts";

export type BoardWindow = {
  /** Stored and addressed as `week:2026-W47`, `month:2026-11`, `all`. */
  id: string;
  kind: WindowKind;
  /** `2026-W47`, `2026-11`, or empty for all time. */
  at: string;
  /** The window's first and last day (all time: none). */
  from: string | null;
  to: string | null;
};

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const weekday = (day: string) => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0

/** The ISO week-year and week of a day. */
export function isoWeek(day: string): { year: number; week: number } {
  const thursday = addDays(day, 3 - weekday(day));
  const year = Number(thursday.slice(0, 4));
  const jan1 = `${pad(year, 4)}-01-01`;
  const into = Math.round((Date.parse(`${thursday}T00:00:00Z`) - Date.parse(`${jan1}T00:00:00Z`)) / 86_400_000);
  return { year, week: Math.floor(into / 7) + 1 };
}

/** Monday of week 1 of an ISO week-year: the week holding 4 January. */
const weekOneMonday = (year: number) => {
  const jan4 = `${pad(year, 4)}-01-04`;
  return addDays(jan4, -weekday(jan4));
};

const ALL: BoardWindow = { id: "all", kind: "all", at: "", from: null, to: null };

/** The window of `kind` holding `day`. */
export function windowOf(kind: WindowKind, day: string): BoardWindow {
  if (kind === "all") return ALL;
  if (kind === "week") {
    const { year, week } = isoWeek(day);
    const from = addDays(day, -weekday(day));
    const at = `${pad(year, 4)}-W${pad(week)}`;
    return { id: `week:${at}`, kind, at, from, to: addDays(from, 6) };
  }
  const at = day.slice(0, 7);
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { id: `month:${at}`, kind, at, from: `${at}-01`, to: `${at}-${pad(last)}` };
}

/** The window a page asks for (`at` as `2026-W47` or `2026-11`); null when there is no such window. */
export function parseWindow(kind: WindowKind, at: string): BoardWindow | null {
  if (kind === "all") return at === "" ? ALL : null;
  if (kind === "week") {
    const m = /^(\d{4})-W(\d{2})$/.exec(at);
    if (!m) return null;
    const year = Number(m[1]);
    const week = Number(m[2]);
    if (year < 2000 || week < 1 || week > isoWeek(`${m[1]}-12-28`).week) return null;
    return windowOf("week", addDays(weekOneMonday(year), 7 * (week - 1)));
  }
  const m = /^(\d{4})-(\d{2})$/.exec(at);
  if (!m || Number(m[1]) < 2000 || Number(m[2]) < 1 || Number(m[2]) > 12) return null;
  return windowOf("month", `${at}-01`);
}

/** The window before or after (all time has none). */
export function stepWindow(w: BoardWindow, step: -1 | 1): BoardWindow | null {
  if (w.kind === "all") return null;
  return windowOf(w.kind, step < 0 ? addDays(w.from!, -1) : addDays(w.to!, 1));
}

/** Whether a window still takes uploads for an account whose day is `today`: up to a day past its end. */
export const isOpen = (w: BoardWindow, today: string) => w.to === null || today <= addDays(w.to, 1);

/** A window in words: "Week 47 of 2026 (16–22 November)", "November 2026", "All time". */
export function windowWords(w: BoardWindow): string {
  if (w.kind === "all") return "All time";
  const month = (day: string, year = false) =>
    new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", {
      timeZone: "UTC",
      day: w.kind === "week" ? "numeric" : undefined,
      month: "long",
      year: year ? "numeric" : undefined,
    });
  if (w.kind === "month") return month(w.from!, true);
  const { year, week } = isoWeek(w.from!);
  return `Week ${week} of ${year} (${month(w.from!)} – ${month(w.to!)})`;
}
