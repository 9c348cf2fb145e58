// Period totals (issue 16): the day, the week (Monday to Sunday), the month and the year holding a
// day of the account's zone, each folded so far (up to and including that day) beside the whole
// period before it, with the change between them. Calendar days are the client's (contract 2.1
// rule 4): a week is seven of them, starting on Monday, and no timestamp is read.
import { addDays, daysBetween } from "../wire/day.ts";
import { describeKey, type FoldDeps } from "./fold.ts";
import { distinctLabels } from "./labels.ts";
import { profileKeysAfter, windowRows, type Window } from "./periods.query.ts";
import { activeDayRows } from "./calendar.query.ts";

export const PERIODS = ["day", "week", "month", "year"] as const;
export type Period = (typeof PERIODS)[number];

/** The period of `day` (from its start up to `day`) and the whole period before it. */
export function periodWindows(period: Period, day: string): { current: Window; previous: Window } {
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
  return {
    current: { name: `${period}.current`, from: start, to: day },
    previous: { name: `${period}.previous`, from: before, to: addDays(start, -1) },
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
};

export type PeriodTotals = {
  period: Period;
  from: string;
  to: string;
  previous: { from: string; to: string };
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
    windows.flatMap((w) => [w.current, w.previous]),
    keys,
  );
  return windows.map(({ period, current, previous }) => {
    const keys = new Map<string, PeriodKey>();
    for (const r of found) {
      const which = r.window === current.name ? "value" : r.window === previous.name ? "previous" : null;
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
        };
        keys.set(r.key, k);
      }
      k[which] = Number(r.value);
    }
    for (const k of keys.values()) if (k.value !== null && k.previous !== null) k.change = k.value - k.previous;
    return {
      period,
      from: current.from,
      to: current.to,
      previous: { from: previous.from, to: previous.to },
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
    const { current, previous } = periodWindows(period, day);
    return { period, from: current.from, to: current.to, previous: { from: previous.from, to: previous.to }, keys: [] };
  });
