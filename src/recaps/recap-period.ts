// A recap's period: a calendar month ("2026-10") or year ("2026") of the account's zone, its days,
// the whole period before it, and the day it closes: the day after its last day is the grace day
// (late uploads of the last day still arrive), so it is stored once the account's today is past it.
import { addDays } from "../wire/day.ts";

export type RecapPeriod = { id: string; kind: "month" | "year"; from: string; to: string };

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const YEAR = /^(\d{4})$/;
const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const monthEnd = (y: number, m: number) => `${pad(y, 4)}-${pad(m)}-${pad(new Date(Date.UTC(y, m, 0)).getUTCDate())}`;

/** The period an id names, or null (years 2000 to 9998, so the one before and after exist). */
export function recapPeriod(id: string): RecapPeriod | null {
  const m = MONTH.exec(id);
  if (m) {
    const y = Number(m[1]);
    const mo = Number(m[2]);
    if (y < 2000 || y > 9998) return null;
    return { id, kind: "month", from: `${m[1]}-${m[2]}-01`, to: monthEnd(y, mo) };
  }
  const yr = YEAR.exec(id);
  if (yr) {
    const y = Number(yr[1]);
    if (y < 2000 || y > 9998) return null;
    return { id, kind: "year", from: `${yr[1]}-01-01`, to: `${yr[1]}-12-31` };
  }
  return null;
}

/** The whole period before (a month's the month before, a year's the year before). */
export function previousPeriod(p: RecapPeriod): RecapPeriod {
  return recapPeriod(p.kind === "year" ? pad(Number(p.id) - 1, 4) : addDays(p.from, -1).slice(0, 7))!;
}

/** The month or year holding `day`. */
export const periodOf = (kind: "month" | "year", day: string) => recapPeriod(day.slice(0, kind === "month" ? 7 : 4))!;

/** Closed in an account whose today is `today`: past its last day and the grace day after. */
export const isClosed = (p: RecapPeriod, today: string) => today > addDays(p.to, 1);

/** The steps of its chart: a month's days, a year's months (first days). */
export function steps(p: RecapPeriod): string[] {
  const out: string[] = [];
  if (p.kind === "month") for (let d = p.from; d <= p.to; d = addDays(d, 1)) out.push(d);
  else for (let m = 1; m <= 12; m++) out.push(`${p.id}-${pad(m)}-01`);
  return out;
}
