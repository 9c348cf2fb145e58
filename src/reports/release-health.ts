// Release health: is the new mod version worse than the last? Counts only installs with statistics
// on (an install counts on a day when it uploaded from that version). Uploads call `countInstall`
// (one insert into the day's scratch); the release-health job folds the scratch into one row per
// version and day, deletes install ids once their day is over and counted (they live through the
// next UTC day at most), expires days past RELEASE_HEALTH_DAYS, and queues the chat's summaries.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { addDays, utcDay } from "../wire/day.ts";
import { isModVersion } from "../wire/mod-version.ts";
import { compareVersions } from "./versions.ts";
import * as q from "./release-health.query.ts";

/** Days a version's summary on the pages, the terminal and the chat looks back over (today included). */
export const WINDOW_DAYS = 7;

/**
 * Counts the uploading install under its mod version for today (UTC). Called in the upload's
 * transaction; a version outside the report grammar is not counted (no report could name it).
 */
export async function countInstall(tx: Db, now: number, version: string, install: string) {
  if (!isModVersion(version)) return;
  await q.insertInstallDay(tx, utcDay(now), version, install);
}

export type VersionSummary = {
  version: string;
  firstDay: string;
  lastDay: string;
  /** Active installs on the newest day with a count (today so far, else the day before). */
  installs: number;
  installsDay: string;
  /** Share of that day's active installs (0..1). */
  share: number;
  /** Over the window: reports, install-days, and reports per 1 000 active installs a day. */
  reports: number;
  installDays: number;
  rate: number | null;
};

/** Reports per 1 000 active installs (null: no install counted). */
export const per1000 = (reports: number, installs: number) => (installs > 0 ? (reports * 1000) / installs : null);

/** One summary per version seen, newest version first. */
export function summarise(rows: q.VersionDay[], today: string): VersionSummary[] {
  const from = addDays(today, -(WINDOW_DAYS - 1));
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.day, (totals.get(r.day) ?? 0) + r.installs);
  const by = Map.groupBy(rows, (r) => r.version);
  return [...by.entries()]
    .map(([version, days]) => {
      const sorted = days.sort((a, b) => (a.day < b.day ? -1 : 1));
      const counted = sorted.filter((d) => d.installs > 0);
      const newest = counted.at(-1);
      const win = sorted.filter((d) => d.day >= from && d.day <= today);
      const reports = win.reduce((n, d) => n + d.reports, 0);
      const installDays = win.reduce((n, d) => n + d.installs, 0);
      return {
        version,
        firstDay: sorted[0]!.day,
        lastDay: sorted.at(-1)!.day,
        installs: newest?.installs ?? 0,
        installsDay: newest?.day ?? sorted.at(-1)!.day,
        share: newest ? newest.installs / (totals.get(newest.day) || 1) : 0,
        reports,
        installDays,
        rate: per1000(reports, installDays),
      };
    })
    .sort((a, b) => compareVersions(b.version, a.version));
}

/** Reports per 1 000 active installs, one decimal ("–" when no install was counted). */
export const rateText = (rate: number | null) => (rate === null ? "–" : rate.toFixed(1));

export type Comparison = { newest: VersionSummary; previous: VersionSummary; ratio: number | null };

/**
 * The newest version against the one before it, among versions with installs counted in the
 * window (a version only bug reports name says nothing per install); undefined with fewer than two.
 */
export function compareNewest(summaries: VersionSummary[]): Comparison | undefined {
  const [newest, previous] = summaries.filter((s) => s.installDays > 0);
  if (!newest || !previous) return undefined;
  const ratio = newest.rate !== null && previous.rate ? newest.rate / previous.rate : null;
  return { newest, previous, ratio };
}

export type HealthDeps = { db: Db; clock: Clock; config: Pick<Config, "releaseHealthDays"> };

/** The days the pages and the terminal show: the retained ones. */
export const firstShownDay = (deps: HealthDeps) =>
  addDays(utcDay(deps.clock.now()), -(deps.config.releaseHealthDays - 1));

/** Every version's summary and the comparison (the page, the terminal, the chat). */
export async function releaseHealth(deps: HealthDeps) {
  const today = utcDay(deps.clock.now());
  const rows = await q.versionDays(deps.db, firstShownDay(deps));
  const summaries = summarise(rows, today);
  return { today, rows, summaries, comparison: compareNewest(summaries) };
}

/**
 * The job's count: every (version, day) in the scratch gets its distinct installs; the scratch of
 * days before yesterday goes (an upload whose transaction began before midnight may still write
 * yesterday's), and days past RELEASE_HEALTH_DAYS.
 */
export function foldReleaseHealth(deps: HealthDeps) {
  const today = utcDay(deps.clock.now());
  return q.foldInstallDays(deps.db, addDays(today, -1), addDays(today, -(deps.config.releaseHealthDays - 1)));
}

/** One version's days (the retained ones), its summary and its problems; undefined if never seen. */
export async function versionHealth(deps: HealthDeps, version: string) {
  const all = await releaseHealth(deps);
  const summary = all.summaries.find((s) => s.version === version);
  const from = firstShownDay(deps);
  const [days, problems] = await Promise.all([
    q.daysOfVersion(deps.db, version, from),
    q.problemsOfVersion(deps.db, version),
  ]);
  if (!summary && !problems.length) return undefined;
  const first = days[0]?.day ?? all.today;
  return { version, summary, days, problems, from: first, to: all.today };
}

/** The newest mod version anything names (release health or a report): what "Fixed in" offers. */
export function newestVersion(deps: HealthDeps, reported: string[]) {
  return q.knownVersions(deps.db).then((vs) => [...vs, ...reported].sort(compareVersions).at(-1));
}

/** The comparison in one sentence (the page, the terminal). */
export function ComparisonText(c: Comparison): string {
  const { newest: n, previous: p } = c;
  const verdict =
    c.ratio === null
      ? "not comparable yet (no installs counted for one of them)"
      : c.ratio > 1.25
        ? `worse: ${c.ratio.toFixed(1)} times the reports per install`
        : c.ratio < 0.8
          ? `better: ${c.ratio.toFixed(1)} times the reports per install`
          : "about the same";
  return `${n.version} against ${p.version}: ${rateText(n.rate)} against ${rateText(p.rate)} reports per 1 000 active installs a day over the last ${WINDOW_DAYS} days; ${verdict}.`;
}
