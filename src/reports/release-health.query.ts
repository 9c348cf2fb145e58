// SQL of release health: an upload counts its install once per UTC day and mod version (scratch), a
// bug report counts into its version's day, the fold job turns the scratch into per-(version, day)
// counts and deletes it, and the pages read one row per version and day.
import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { reportInstallDays, reportReleasePosts, reportVersionDays } from "./release-health.table.ts";
import { reportProblems, reportVersions } from "./reports.table.ts";

export type VersionDay = { version: string; day: string; installs: number; reports: number };
export type ReleasePost = typeof reportReleasePosts.$inferSelect;

/** One statement: the install is in the day's scratch for this version (a repeat changes nothing). */
export async function insertInstallDay(tx: Db, day: string, version: string, install: string) {
  await tx.insert(reportInstallDays).values({ day, version, install }).onConflictDoNothing();
}

/** One bug report from `version` on `day`. */
export async function addVersionReport(tx: Db, day: string, version: string) {
  await tx
    .insert(reportVersionDays)
    .values({ version, day, reports: 1 })
    .onConflictDoUpdate({
      target: [reportVersionDays.version, reportVersionDays.day],
      set: { reports: sql`${reportVersionDays.reports} + 1` },
    });
}

/**
 * Counts the scratch into the aggregate (every (version, day) it holds gets its distinct installs),
 * then deletes the scratch of days before `keepFrom` and aggregate rows before `retainFrom`. One
 * transaction: a day's installs are counted before its scratch is gone.
 */
export function foldInstallDays(
  db: Db,
  keepFrom: string,
  retainFrom: string,
): Promise<{ counted: number; forgotten: number; expired: number }> {
  return db.transaction(async (tx) => {
    const counted = await rows<unknown>(
      tx,
      sql`
      insert into report_version_days (version, day, installs)
      select version, day, count(*)::int from report_install_days group by version, day
      on conflict (version, day) do update set installs = excluded.installs
      returning 1`,
    );
    const forgotten = await tx.delete(reportInstallDays).where(lt(reportInstallDays.day, keepFrom)).returning({
      day: reportInstallDays.day,
    });
    const expired = await tx.delete(reportVersionDays).where(lt(reportVersionDays.day, retainFrom)).returning({
      day: reportVersionDays.day,
    });
    return { counted: counted.length, forgotten: forgotten.length, expired: expired.length };
  });
}

/** Every version's days from `fromDay` on (one row per version and day), at most `limit` rows. */
export function versionDays(db: Db, fromDay: string, limit = 20_000): Promise<VersionDay[]> {
  return db
    .select()
    .from(reportVersionDays)
    .where(gte(reportVersionDays.day, fromDay))
    .orderBy(desc(reportVersionDays.day), asc(reportVersionDays.version))
    .limit(limit);
}

/** One version's days from `fromDay` on, oldest first. */
export function daysOfVersion(db: Db, version: string, fromDay: string): Promise<VersionDay[]> {
  return db
    .select()
    .from(reportVersionDays)
    .where(and(eq(reportVersionDays.version, version), gte(reportVersionDays.day, fromDay)))
    .orderBy(asc(reportVersionDays.day));
}

export type VersionProblem = {
  number: number;
  title: string;
  exceptionType: string | null;
  state: string;
  resolvedIn: string | null;
  regressedIn: string | null;
  minVersion: string;
  reports: number;
  total: number;
};

/** The problems reported from a version, most reported from it first (at most `limit`). */
export function problemsOfVersion(db: Db, version: string, limit = 200): Promise<VersionProblem[]> {
  return db
    .select({
      number: reportProblems.number,
      title: reportProblems.title,
      exceptionType: reportProblems.exceptionType,
      state: reportProblems.state,
      resolvedIn: reportProblems.resolvedIn,
      regressedIn: reportProblems.regressedIn,
      minVersion: reportProblems.minVersion,
      reports: reportVersions.count,
      total: reportProblems.count,
    })
    .from(reportVersions)
    .innerJoin(reportProblems, eq(reportProblems.id, reportVersions.problemId))
    .where(eq(reportVersions.version, version))
    .orderBy(desc(reportVersions.count), asc(reportProblems.number))
    .limit(limit);
}

export async function releasePost(db: Db, version: string): Promise<ReleasePost | undefined> {
  const [row] = await db.select().from(reportReleasePosts).where(eq(reportReleasePosts.version, version));
  return row;
}

/** The version reached its adoption on `day`: its summaries are due from `dueAt` (once only). */
export async function addReleasePost(db: Db, version: string, day: string, dueAt: number) {
  await db.insert(reportReleasePosts).values({ version, reachedDay: day, dueAt }).onConflictDoNothing();
}

export function dueReleasePosts(db: Db, now: number): Promise<ReleasePost[]> {
  return db
    .select()
    .from(reportReleasePosts)
    .where(and(lt(reportReleasePosts.posted, 2), sql`${reportReleasePosts.dueAt} <= ${now}`))
    .orderBy(asc(reportReleasePosts.dueAt))
    .limit(10);
}

export async function setReleasePost(db: Db, version: string, set: Partial<Omit<ReleasePost, "version">>) {
  await db.update(reportReleasePosts).set(set).where(eq(reportReleasePosts.version, version));
}

/** The versions release health holds (one row per version and day: at most a few thousand rows). */
export async function knownVersions(db: Db): Promise<string[]> {
  const rows = await db.selectDistinct({ v: reportVersionDays.version }).from(reportVersionDays).limit(1000);
  return rows.map((r) => r.v);
}
