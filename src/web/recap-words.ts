// A recap's words (issue 35): its period, days and spans as a person says them, and a change
// against the period before.
import { previousPeriod, recapPeriod } from "../recaps/recap-period.ts";
import { formatDay } from "./format.ts";

export const MONTHS = "January February March April May June July August September October November December".split(
  " ",
);
const MINUS = "\u2212";

/** "October 2026" or "2026". */
export function periodWords(id: string): string {
  const p = recapPeriod(id);
  if (!p || p.kind === "year") return id;
  return `${MONTHS[Number(id.slice(5, 7)) - 1]} ${id.slice(0, 4)}`;
}

/** The whole period before, in words: "September 2026", "2025". */
export const previousWords = (id: string) => periodWords(previousPeriod(recapPeriod(id)!).id);

/** A day of the recap's period without its year, which the heading says: "15 September". */
export const dayWords = (day: string) => formatDay(day).replace(/ \d+$/, "");

/** "12 to 17 October" (the month said once when it is the same). */
export function spanWords(from: string, to: string): string {
  if (from === to) return dayWords(from);
  const [a, b] = [dayWords(from).split(" "), dayWords(to).split(" ")];
  return a[1] === b[1] ? `${a[0]} to ${b.join(" ")}` : `${dayWords(from)} to ${dayWords(to)}`;
}

export const activityWords = (id: string) => {
  const w = id.replaceAll("_", " ");
  return w.charAt(0).toUpperCase() + w.slice(1);
};

/** "+3", "−2", "no change", with its class (better: more). */
export function change(now: number, before: number | null, format: (n: number) => string) {
  if (before === null) return { text: "new", cls: "better" };
  const d = now - before;
  if (d === 0) return { text: "no change", cls: "" };
  return { text: `${d > 0 ? "+" : MINUS}${format(Math.abs(d))}`, cls: d > 0 ? "better" : "worse" };
}
