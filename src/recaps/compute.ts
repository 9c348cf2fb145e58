// A recap computed from the fold, through the statistics module's functions only (issue 35): the
// calendar's active days, period totals folded by kind, the longest session and the personal-best
// events. Pure helpers (streaks, busiest day, top gains) are exported for the tests' own figures.
import { eventsOfKind, longestSession } from "../stats/activity.ts";
import { listProfiles, type FoldDeps } from "../stats/fold.ts";
import { activeDays, countGains } from "../stats/periods.ts";
import { ACCOUNT_PROFILE } from "../wire/envelope.ts";
import { addDays } from "../wire/day.ts";
import type { Gain, RecapBody, ScopeRecap, Streak } from "./recap-body.ts";
import { previousPeriod, recapPeriod, steps, type RecapPeriod } from "./recap-period.ts";

/** The timeline kind of a personal best, as the page names it ("Personal best"). */
export const PERSONAL_BEST = "personal_best";
/** Groups a recap shows, and gains in each. */
export const TOP_GROUPS = 8;
export const GAINS_PER_GROUP = 3;
/** Personal bests listed (all are counted). */
export const BESTS_LISTED = 5;

type Day = { day: string; keys: number };

/** The longest run of consecutive days (sorted, distinct); ties: the earliest. */
export function longestStreak(days: readonly string[]): Streak | null {
  let best: Streak | null = null;
  let start = 0;
  for (let i = 0; i < days.length; i++) {
    if (i > 0 && addDays(days[i - 1]!, 1) !== days[i]) start = i;
    const length = i - start + 1;
    if (!best || length > best.days) best = { days: length, from: days[start]!, to: days[i]! };
  }
  return best;
}

/** The day with the most figures recorded; ties: the earliest. */
export function busiestDay(days: readonly Day[]) {
  let best: Day | null = null;
  for (const d of days) if (d.keys > 0 && (!best || d.keys > best.keys)) best = d;
  return best && { day: best.day, figures: best.keys };
}

type Sum = { key: string; unit: string; value: number; group: string };

/**
 * Count keys with a gain in the period, by group: each group's largest gains (then by key), the
 * groups by their largest gain (then by name). A count's gain is its period total (a count sums).
 */
export function topGains(sums: readonly Sum[], groups = TOP_GROUPS, perGroup = GAINS_PER_GROUP) {
  const byGroup = new Map<string, Sum[]>();
  for (const k of sums) {
    if (k.value <= 0) continue;
    const list = byGroup.get(k.group) ?? [];
    list.push(k);
    byGroup.set(k.group, list);
  }
  const order = (a: Sum, b: Sum) => b.value - a.value || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return [...byGroup]
    .map(([group, list]) => ({ group, gains: list.sort(order).slice(0, perGroup) }))
    .sort((a, b) => b.gains[0]!.value - a.gains[0]!.value || (a.group < b.group ? -1 : 1))
    .slice(0, groups);
}

/**
 * Each count key's sum over the period: a month in one read, a year a month at a time (twelve
 * smaller statements rather than one over the whole year: the embedded database serves every
 * request on the same thread).
 */
async function periodSums(deps: FoldDeps, uuid: string, profileId: string, p: RecapPeriod): Promise<Sum[]> {
  if (p.kind === "month") return countGains(deps, uuid, profileId, p.from, p.to);
  const sums = new Map<string, Sum>();
  for (const month of steps(p)) {
    const m = recapPeriod(month.slice(0, 7))!;
    for (const g of await countGains(deps, uuid, profileId, m.from, m.to)) {
      const had = sums.get(g.key);
      sums.set(g.key, had ? { ...had, value: had.value + g.value } : g);
    }
  }
  return [...sums.values()];
}

/** The top gains of the period, each beside its sum over the whole previous period (those keys only). */
async function gainsOf(deps: FoldDeps, uuid: string, profileId: string, p: RecapPeriod) {
  const top = topGains(await periodSums(deps, uuid, profileId, p));
  const keys = top.flatMap((g) => g.gains.map((x) => x.key));
  const before = previousPeriod(p);
  const previous = new Map(
    (await countGains(deps, uuid, profileId, before.from, before.to, keys)).map((g) => [g.key, g.value]),
  );
  return top.map((g) => ({
    group: g.group,
    gains: g.gains.map(
      (x): Gain => ({ key: x.key, unit: x.unit, value: x.value, previous: previous.get(x.key) ?? null }),
    ),
  }));
}

/** A month's figures per day, a year's active days per month. */
export function perStep(p: RecapPeriod, days: readonly Day[]): number[] {
  const at = steps(p);
  if (p.kind === "month") {
    const byDay = new Map(days.map((d) => [d.day, d.keys]));
    return at.map((d) => byDay.get(d) ?? 0);
  }
  return at.map((m) => days.filter((d) => d.day.slice(0, 7) === m.slice(0, 7)).length);
}

async function scopeRecap(deps: FoldDeps, uuid: string, ids: string[], p: RecapPeriod, gainsFrom: string | null) {
  const before = previousPeriod(p);
  const [days, previous] = await Promise.all([
    activeDays(deps, uuid, ids, p.from, p.to),
    activeDays(deps, uuid, ids, before.from, before.to),
  ]);
  const gains = gainsFrom === null ? [] : await gainsOf(deps, uuid, gainsFrom, p);
  const sessions = await Promise.all(ids.map((id) => longestSession(deps.db, uuid, id, p.from, p.to)));
  const bests = await Promise.all(
    ids.map((id) => eventsOfKind(deps.db, uuid, id, PERSONAL_BEST, p.from, p.to, BESTS_LISTED)),
  );
  const longest = sessions.reduce<ScopeRecap["longestSession"]>(
    (a, s) => (s && (!a || s.ms > a.ms || (s.ms === a.ms && s.day < a.day)) ? s : a),
    null,
  );
  const latest = bests
    .flatMap((b) => b.latest)
    .sort((a, b) => b.at - a.at)
    .slice(0, BESTS_LISTED)
    .map((e) => ({
      key: e.key,
      unit: (e.key && deps.catalogue.lookup(e.key)?.unit) || "count",
      value: e.value,
      day: e.day,
    }));
  const recap: ScopeRecap = {
    activeDays: days.length,
    previousActiveDays: previous.length,
    longestStreak: longestStreak(days.map((d) => d.day)),
    busiestDay: busiestDay(days),
    longestSession: longest,
    topGains: gains,
    personalBests: { count: bests.reduce((n, b) => n + b.count, 0), latest },
    perStep: perStep(p, days),
  };
  return recap;
}

/**
 * The recap of one account's period: the whole account (every profile and the account scope; its
 * gains are the account scope's own keys), then each profile with a day in the period. Null when
 * nothing was recorded in it.
 */
export async function computeRecap(deps: FoldDeps, uuid: string, periodId: string): Promise<RecapBody | null> {
  const p = recapPeriod(periodId);
  if (!p) return null;
  const profiles = await listProfiles(deps.db, uuid);
  const all = [...profiles.map((x) => x.id), ACCOUNT_PROFILE];
  const account = await scopeRecap(deps, uuid, all, p, ACCOUNT_PROFILE);
  if (account.activeDays === 0) return null;
  const shown: RecapBody["profiles"] = [];
  for (const profile of [...profiles].sort((a, b) => a.firstSeenAt - b.firstSeenAt || (a.id < b.id ? -1 : 1))) {
    const recap = await scopeRecap(deps, uuid, [profile.id], p, profile.id);
    if (recap.activeDays > 0) shown.push({ cuteName: profile.cuteName, recap });
  }
  return { period: p.id, from: p.from, to: p.to, account, profiles: shown };
}
