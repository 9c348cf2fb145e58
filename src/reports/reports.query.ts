// SQL of bug intake: count a report into its problem, keep its sample, queue the chat; the
// maintainers' list and a problem's detail. The chat outbox and threads are chat.query.ts.
import { and, asc, desc, eq, gt, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import {
  reportDays,
  reportEvents,
  reportOutbox,
  reportProblems,
  reportSamples,
  reportVersions,
} from "./reports.table.ts";
import { compareVersions } from "./versions.ts";
import { addVersionReport } from "./release-health.query.ts";

export type Problem = typeof reportProblems.$inferSelect;
export type Sample = typeof reportSamples.$inferSelect;
export type ProblemEvent = typeof reportEvents.$inferSelect;
export type ProblemState = "open" | "resolved" | "muted";
export type StateAction = "resolved" | "reopened" | "muted";
export type Actor = "cli" | "admin" | "intake";

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The advisory lock (one bigint key) under which a new problem takes the next number. */
const NUMBER_LOCK = 0x7461_6c6c_0001;

export type ReportInput = {
  fingerprint: string;
  tool: string;
  kind: string;
  exceptionType?: string;
  signature: string;
  now: number;
  sample: Omit<Sample, "id" | "problemId" | "receivedAt">;
  samplesKept: number;
  /** Whether signed-in clients run the report's version: only then may it reopen a resolved problem. */
  versionVouched: boolean;
  /** Queue the chat (a webhook is configured). */
  chat: boolean;
};

/**
 * Counts one report into its problem (one transaction): new or repeat, never a second problem.
 * `unvouched`: it came from the fixing version or newer, and did not reopen the problem only
 * because no signed-in client runs that version.
 */
export function recordReport(
  db: Db,
  r: ReportInput,
): Promise<{ problem: Problem; created: boolean; unvouched: boolean }> {
  return db.transaction(async (tx) => {
    let unvouched = false;
    const { modVersion, minecraft } = r.sample;
    // A repeat (the usual case) finds its row; only a new problem takes the numbering lock.
    const byFingerprint = () =>
      tx.select().from(reportProblems).where(eq(reportProblems.fingerprint, r.fingerprint)).for("update");
    let [current] = await byFingerprint();
    let inserted: Problem | undefined;
    if (!current) {
      // Numbers count up without gaps: one new problem at a time takes the next (an identity
      // skips a value at every conflict and rollback).
      await tx.execute(sql`select pg_advisory_xact_lock(${NUMBER_LOCK})`);
      [inserted] = await tx
        .insert(reportProblems)
        .values({
          number: sql`(select coalesce(max(${reportProblems.number}), 0) + 1 from ${reportProblems})`,
          fingerprint: r.fingerprint,
          tool: r.tool,
          kind: r.kind,
          exceptionType: r.exceptionType ?? null,
          signature: r.signature,
          title: r.sample.title,
          count: 1,
          firstSeenAt: r.now,
          lastSeenAt: r.now,
          minVersion: modVersion,
          maxVersion: modVersion,
          lastMinecraft: minecraft,
        })
        .onConflictDoNothing({ target: reportProblems.fingerprint })
        .returning();
      // Another instance created it meanwhile: a repeat after all.
      if (!inserted) [current] = await byFingerprint();
    }
    let problem = inserted;
    if (!problem) {
      // Resolved in V: a report from an older version is counted and changes nothing; one from V
      // or newer brings the problem back as a regression, when signed-in clients run its version.
      const fromFixOrNewer =
        current!.state === "resolved" &&
        current!.resolvedIn !== null &&
        compareVersions(modVersion, current!.resolvedIn) >= 0;
      const regressed = fromFixOrNewer && r.versionVouched;
      unvouched = fromFixOrNewer && !r.versionVouched;
      let event: number | undefined;
      if (regressed) {
        const [e] = await tx
          .insert(reportEvents)
          .values({ problemId: current!.id, at: r.now, action: "regressed", version: modVersion, actor: "intake" })
          .returning({ id: reportEvents.id });
        event = e!.id;
      }
      const [updated] = await tx
        .update(reportProblems)
        .set({
          ...(regressed ? { state: "open", regressedIn: modVersion, eventSeq: event } : {}),
          count: sql`${reportProblems.count} + 1`,
          lastSeenAt: sql`greatest(${reportProblems.lastSeenAt}, ${r.now})`,
          minVersion: compareVersions(modVersion, current!.minVersion) < 0 ? modVersion : current!.minVersion,
          maxVersion: compareVersions(modVersion, current!.maxVersion) > 0 ? modVersion : current!.maxVersion,
          lastMinecraft: minecraft,
        })
        .where(eq(reportProblems.id, current!.id))
        .returning();
      problem = updated!;
    }
    const [sample] = await tx
      .insert(reportSamples)
      .values({ ...r.sample, problemId: problem.id, receivedAt: r.now })
      .returning({ id: reportSamples.id });
    await tx
      .insert(reportDays)
      .values({ problemId: problem.id, day: utcDay(r.now), count: 1 })
      .onConflictDoUpdate({
        target: [reportDays.problemId, reportDays.day],
        set: { count: sql`${reportDays.count} + 1` },
      });
    await addVersionReport(tx, utcDay(r.now), modVersion);
    await tx
      .insert(reportVersions)
      .values({ problemId: problem.id, version: modVersion, count: 1, lastSeenAt: r.now })
      .onConflictDoUpdate({
        target: [reportVersions.problemId, reportVersions.version],
        set: {
          count: sql`${reportVersions.count} + 1`,
          lastSeenAt: sql`greatest(${reportVersions.lastSeenAt}, ${r.now})`,
        },
      });
    await tx.execute(sql`delete from report_samples where problem_id = ${problem.id} and id not in (
      select id from report_samples where problem_id = ${problem.id} order by id desc limit ${r.samplesKept})`);
    // A muted problem is counted and never posted: it queues nothing.
    if (r.chat && problem.state !== "muted") {
      await tx
        .insert(reportOutbox)
        .values({ problemId: problem.id, seq: sample!.id, dueAt: r.now, createdAt: r.now })
        .onConflictDoUpdate({ target: reportOutbox.problemId, set: { seq: sample!.id } });
    }
    return { problem, created: !!inserted, unvouched };
  });
}

export type StateChange = { action: StateAction; version?: string; actor: Actor; now: number; chat: boolean };

/**
 * Changes a problem's state and keeps the change in its audit list (one transaction, the row
 * locked). Resolving needs the fixing version; reopening an open problem or muting a muted one
 * changes nothing and answers `changed: false`. Answers undefined for an unknown problem.
 */
export function changeState(
  db: Db,
  id: number,
  c: StateChange,
): Promise<{ problem: Problem; event?: ProblemEvent; changed: boolean } | undefined> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(reportProblems).where(eq(reportProblems.id, id)).for("update");
    if (!current) return undefined;
    const next: ProblemState = c.action === "resolved" ? "resolved" : c.action === "muted" ? "muted" : "open";
    const same = current.state === next && (next !== "resolved" || current.resolvedIn === c.version);
    if (same) return { problem: current, changed: false };
    const [event] = await tx
      .insert(reportEvents)
      .values({
        problemId: id,
        at: c.now,
        action: c.action,
        version: c.action === "resolved" ? c.version! : null,
        actor: c.actor,
      })
      .returning();
    const [problem] = await tx
      .update(reportProblems)
      .set({
        state: next,
        resolvedIn: next === "resolved" ? c.version! : null,
        ...(next === "resolved" ? { regressedIn: null } : {}),
        eventSeq: event!.id,
      })
      .where(eq(reportProblems.id, id))
      .returning();
    // The thread follows the state (a resolve, a reopen; an unmute catches the count up).
    if (c.chat && next !== "muted") {
      await tx
        .insert(reportOutbox)
        .values({ problemId: id, seq: 0, dueAt: c.now, createdAt: c.now })
        .onConflictDoUpdate({ target: reportOutbox.problemId, set: { seq: sql`${reportOutbox.seq} + 1` } });
    }
    return { problem: problem!, event, changed: true };
  });
}

/** The audit list of a problem, oldest first. */
export function eventsOf(db: Db, problemId: number): Promise<ProblemEvent[]> {
  return db.select().from(reportEvents).where(eq(reportEvents.problemId, problemId)).orderBy(asc(reportEvents.id));
}

/** State changes the chat has not announced yet, oldest first. */
export function eventsAfter(db: Db, problemId: number, afterId: number): Promise<ProblemEvent[]> {
  return db
    .select()
    .from(reportEvents)
    .where(and(eq(reportEvents.problemId, problemId), gt(reportEvents.id, afterId)))
    .orderBy(asc(reportEvents.id));
}

export async function setChatEventSeen(db: Db, problemId: number, eventId: number) {
  await db.update(reportProblems).set({ chatEventSeen: eventId }).where(eq(reportProblems.id, problemId));
}

/** Reports per UTC day from `fromDay` on, for the given problems. */
export function dailyCounts(
  db: Db,
  problemIds: number[],
  fromDay: string,
): Promise<{ problemId: number; day: string; count: number }[]> {
  if (!problemIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(reportDays)
    .where(and(inArray(reportDays.problemId, problemIds), gte(reportDays.day, fromDay)))
    .orderBy(asc(reportDays.problemId), asc(reportDays.day));
}

/** The mod versions a problem was reported from, with their counts. */
export function versionsOf(
  db: Db,
  problemId: number,
): Promise<{ version: string; count: number; lastSeenAt: number }[]> {
  return db
    .select({ version: reportVersions.version, count: reportVersions.count, lastSeenAt: reportVersions.lastSeenAt })
    .from(reportVersions)
    .where(eq(reportVersions.problemId, problemId));
}

export function samplesOf(db: Db, problemId: number): Promise<Sample[]> {
  return db.select().from(reportSamples).where(eq(reportSamples.problemId, problemId)).orderBy(desc(reportSamples.id));
}

export async function problemById(db: Db, id: number): Promise<Problem | undefined> {
  const [row] = await db.select().from(reportProblems).where(eq(reportProblems.id, id));
  return row;
}

/** The problem a maintainer names by its number. */
export async function problemByNumber(db: Db, number: number): Promise<Problem | undefined> {
  const [row] = await db.select().from(reportProblems).where(eq(reportProblems.number, number));
  return row;
}
