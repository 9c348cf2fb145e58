// Period totals (issue 16): the day, the week (Monday to Sunday), the month and the year holding a
// day of the account's zone, each folded so far (up to and including that day) beside the whole
// period before it, with the change between them, and beside the same stretch of the period before
// (issue 34: Monday to Wednesday against Monday to Wednesday). Calendar days are the client's
// (contract 2.1 rule 4): a week is seven of them, starting on Monday, and no timestamp is read.
import { addDays, daysBetween } from "../wire/day.ts";
import { describeKey, type FoldDeps } from "./fold.ts";
import { distinctLabels } from "./labels.ts";
import { profileKeysAfter, windowRows, type Window } from "./periods.query.ts";
import { activeDayRows } from "./calendar.query.ts";

export const PERIODS = ["day", "week", "month", "year"] as const;
export type Period = (typeof PERIODS)[number];

/** Days in a month of the proleptic Gregorian calendar (month 1-12). */
const monthLength = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/**
 * The period of `day` (from its start up to `day`), the whole period before it, and the same
 * stretch of the period before (`sameStretch`): as many days from its start as the period so far
 * has, clamped to its length. A day's is yesterday; a week's the same weekdays; a month's days 1 to
 * the day's date of the month before (to its last day when shorter: 31 March -> 1 to 29 February);
 * a year's 1 January to the same date of the year before (29 February -> 28 February).
 */
export function periodWindows(period: Period, day: string): { current: Window; previous: Window; sameStretch: Window } {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  let start: string;
  let before: string;
  switch (period) {
    case "day":
      start = day;
      before = addDays(day, -1);
      break;
    case "week": {
      // getUTCDay: Sunday 0, Monday 1; a Monday is 0 days into its week, a Sunday 6.
      const into = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
      start = addDays(day, -into);
      before = addDays(start, -7);
      break;
    }
    case "month":
      start = `${day.slice(0, 7)}-01`;
      before = m === 1 ? `${pad(y - 1, 4)}-12-01` : `${pad(y, 4)}-${pad(m - 1)}-01`;
      break;
    case "year":
      start = `${day.slice(0, 4)}-01-01`;
      before = `${pad(y - 1, 4)}-01-01`;
      break;
  }
  const d = Number(day.slice(8, 10));
  let stretchTo: string;
  if (period === "month") {
    const [py, pm] = m === 1 ? [y - 1, 12] : [y, m - 1];
    stretchTo = `${pad(py, 4)}-${pad(pm)}-${pad(Math.min(d, monthLength(py, pm)))}`;
  } else if (period === "year") stretchTo = `${pad(y - 1, 4)}-${pad(m)}-${pad(Math.min(d, monthLength(y - 1, m)))}`;
  else stretchTo = addDays(before, daysBetween(start, day));
  return {
    current: { name: `${period}.current`, from: start, to: day },
    previous: { name: `${period}.previous`, from: before, to: addDays(start, -1) },
    sameStretch: { name: `${period}.stretch`, from: before, to: stretchTo },
  };
}

export type PeriodKey = {
  key: string;
  label: string;
  group: string;
  kind: "count" | "max" | "min" | "gauge";
  unit: string;
  /** The fold of the period's observed days so far (null: none observed). */
  value: number | null;
  /** The fold of the whole previous period (null: none observed). */
  previous: number | null;
  /** value - previous, when both are there. */
  change: number | null;
  /** The fold of the same stretch of the previous period (`PeriodTotals.previousSameStretch`; null: none observed). */
  previousSameStretch: number | null;
  /** value - previousSameStretch, when both are there: like with like. */
  changeSameStretch: number | null;
};

export type PeriodTotals = {
  period: Period;
  from: string;
  to: string;
  previous: { from: string; to: string };
  /** The same stretch of the previous period: its start up to as many days as this period so far. */
  previousSameStretch: { from: string; to: string };
  keys: PeriodKey[];
};

/**
 * Every period's totals of one profile's keys (or the account scope's), for the day `day`. A key
 * appears in a period when it was observed in it or in the period before. `keys`: only these.
 */
export async function periodTotals(
  deps: FoldDeps,
  uuid: string,
  profileId: string,
  day: string,
  periods: readonly Period[] = PERIODS,
  keys?: string[],
): Promise<PeriodTotals[]> {
  const windows = periods.map((p) => ({ period: p, ...periodWindows(p, day) }));
  const found = await windowRows(
    deps.db,
    uuid,
    profileId,
    windows.flatMap((w) => [w.current, w.previous, w.sameStretch]),
    keys,
  );
  return windows.map(({ period, current, previous, sameStretch }) => {
    const keys = new Map<string, PeriodKey>();
    for (const r of found) {
      const which =
        r.window === current.name
          ? "value"
          : r.window === previous.name
            ? "previous"
            : r.window === sameStretch.name
              ? "previousSameStretch"
              : null;
      if (!which) continue;
      let k = keys.get(r.key);
      if (!k) {
        const { label, group } = describeKey(deps.catalogue, r.key, deps.items);
        k = {
          key: r.key,
          label,
          group,
          kind: r.kind as PeriodKey["kind"],
          unit: r.unit,
          value: null,
          previous: null,
          change: null,
          previousSameStretch: null,
          changeSameStretch: null,
        };
        keys.set(r.key, k);
      }
      k[which] = Number(r.value);
    }
    for (const k of keys.values()) {
      if (k.value !== null && k.previous !== null) k.change = k.value - k.previous;
      if (k.value !== null && k.previousSameStretch !== null) k.changeSameStretch = k.value - k.previousSameStretch;
    }
    return {
      period,
      from: current.from,
      to: current.to,
      previous: { from: previous.from, to: previous.to },
      previousSameStretch: { from: sameStretch.from, to: sameStretch.to },
      keys: distinctLabels([...keys.values()]),
    };
  });
}

/** The days of [from, to] with any observation of the given profiles, with how many keys each has. */
export async function activeDays(deps: FoldDeps, uuid: string, profileIds: string[], from: string, to: string) {
  return (await activeDayRows(deps.db, uuid, profileIds, from, to)).map((r) => ({ day: r.day, keys: Number(r.keys) }));
}

/**
 * About how many day values one answer of GET /v1/stats/periods reads at most (issue 40): its keys
 * are a page of the profile's keys, as many as this many values of each day the four periods and
 * those before them span (a day of the year before last up to `day`: 68 to 136 keys), at least one.
 */
export const PERIODS_ANSWER_VALUES = 50_000;

/** Every period's totals of a page of the profile's keys after `after`, and where the next page starts. */
export async function periodTotalsPage(
  deps: FoldDeps,
  uuid: string,
  profileId: string,
  day: string,
  after: string | null,
  maxValues = PERIODS_ANSWER_VALUES,
) {
  const span = daysBetween(periodWindows("year", day).previous.from, day) + 1;
  const perPage = Math.max(1, Math.floor(maxValues / span));
  const keys = await profileKeysAfter(deps.db, uuid, profileId, after, perPage + 1);
  const page = keys.slice(0, perPage);
  return {
    periods: page.length > 0 ? await periodTotals(deps, uuid, profileId, day, PERIODS, page) : emptyPeriods(day),
    next: keys.length > perPage ? page.at(-1)! : null,
  };
}

const emptyPeriods = (day: string): PeriodTotals[] =>
  PERIODS.map((period) => {
    const { current, previous, sameStretch } = periodWindows(period, day);
    return {
      period,
      from: current.from,
      to: current.to,
      previous: { from: previous.from, to: previous.to },
      previousSameStretch: { from: sameStretch.from, to: sameStretch.to },
      keys: [],
    };
  });

/**
 * The count keys of one profile with their sum over the days [from, to] (a count's gain; other
 * kinds left out), each with its label and group; `keys`: only these, each read as an index range
 * (recaps: the top gains' previous period). One window, one statement.
 */
export async function countGains(
  deps: FoldDeps,
  uuid: string,
  profileId: string,
  from: string,
  to: string,
  keys?: string[],
) {
  if (keys && keys.length === 0) return [];
  const found = await windowRows(deps.db, uuid, profileId, [{ name: "w", from, to }], keys);
  return found
    .filter((r) => r.kind === "count")
    .map((r) => ({
      key: r.key,
      unit: r.unit,
      value: Number(r.value),
      group: describeKey(deps.catalogue, r.key, deps.items).group,
    }));
}
