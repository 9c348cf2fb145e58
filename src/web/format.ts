// Numbers as a person reads them: fixed-point values in their catalogue unit (contract 1.2),
// durations from milliseconds, coins with separators, calendar days in words.
import type { Catalogue } from "../catalogue/catalogue.ts";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2026-05-29" -> "29 May 2026" (a calendar day: no zone is involved). */
export function formatDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  return `${d} ${MONTHS[(m ?? 1) - 1]} ${y}`;
}

const grouped = new Map<number, Intl.NumberFormat>();
function groupedFormat(decimals: number) {
  let f = grouped.get(decimals);
  if (!f)
    grouped.set(
      decimals,
      (f = new Intl.NumberFormat("en-GB", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })),
    );
  return f;
}

/** Digits after the point a fixed-point scale carries (100 -> 2; a scale not a power of ten -> 3). */
function decimalsOf(scale: number): number {
  if (scale <= 1) return 0;
  const log = Math.log10(scale);
  return Number.isInteger(log) ? log : 3;
}

/** A whole or fixed-point number with thousands separators: 1234567 -> "1,234,567". */
export function formatNumber(value: number, scale = 1): string {
  return groupedFormat(decimalsOf(scale)).format(scale === 1 ? value : value / scale);
}

/** Milliseconds as a duration: "3 d 4 h", "2 h 5 min", "5 min 12.350 s", "0.250 s". */
export function formatDuration(ms: number): string {
  const sign = ms < 0 ? "-" : "";
  let rest = Math.abs(Math.trunc(ms));
  const d = Math.floor(rest / 86_400_000);
  rest -= d * 86_400_000;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const frac = rest - s * 1000;
  const seconds = frac ? `${s}.${String(frac).padStart(3, "0")} s` : `${s} s`;
  if (d) return `${sign}${d} d ${h} h`;
  if (h) return `${sign}${h} h ${m} min`;
  if (m) return s || frac ? `${sign}${m} min ${seconds}` : `${sign}${m} min`;
  return sign + seconds;
}

/** A value of a key in its unit: ms as a duration, coins with separators and the word, else the number and the unit's label. */
export function formatValue(catalogue: Catalogue, unitId: string, value: number): string {
  const unit = catalogue.document.units.find((u) => u.id === unitId);
  const scale = unit?.scale ?? 1;
  if (unitId === "ms") return formatDuration(value / scale);
  const number = formatNumber(value, scale);
  if (unitId === "count" || !unit) return number;
  return `${number} ${unit.label}`;
}

/** A moment in the account's zone: "31 May 2026, 14:05". */
export function formatTime(at: number, zone: string): string {
  return timeFormat(zone).format(at);
}

// Making a DateTimeFormat costs about as much as formatting a hundred moments, and a page formats
// fifty in one zone. One per zone (IANA zones are a closed list, so this stays small).
const timeFormats = new Map<string, Intl.DateTimeFormat>();
function timeFormat(zone: string) {
  let f = timeFormats.get(zone);
  if (!f)
    timeFormats.set(
      zone,
      (f = new Intl.DateTimeFormat("en-GB", {
        timeZone: zone,
        year: "numeric",
        month: "long",
        day: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      })),
    );
  return f;
}

/** How long ago, roughly: "3 hours", "2 days". */
export function formatAge(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes === 0) return "less than a minute";
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? "" : "s"}`;
  const days = Math.round(hours / 24);
  return `${days} days`;
}

/** How long something lasted, to the second as a person says it (issue 34): "25 min 42 s", "2 h 5 min". */
export const formatLength = (ms: number): string => formatDuration(Math.round(ms / 1000) * 1000);
