// SQL of bug intake: count a report into its problem, keep its sample, queue the chat; and the
// reads and writes of the chat outbox drain and the maintainer's list.
import { and, asc, desc, eq, getTableColumns, gt, gte, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import {
  reportChatStatus,
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
export type OutboxRow = typeof reportOutbox.$inferSelect;
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

/** Every problem, regressions first, then most reported lately (the maintainer's list). */
export function problemsByCount(db: Db, recentFrom = "9999-12-31"): Promise<ListedProblem[]> {
  return problemsWhere(db, { recentFrom });
}

export type ProblemFilter = {
  state?: ProblemState | "regressed";
  tool?: string;
  version?: string;
  /** Words the title, the exception or the grouping signature contains (case-insensitive). */
  text?: string;
  /** Reports from this UTC day on are "recent" (the order after regressions). */
  recentFrom?: string;
  limit?: number;
};

export type ListedProblem = Problem & { recent: number };

/** `%`, `_` and `\` of a search taken literally by ILIKE. */
const likeLiteral = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The list: open regressions first, then by reports since `recentFrom`, then by count and last
 * seen; narrowed by state, tool, a mod version seen, and a text search.
 */
export function problemsWhere(db: Db, f: ProblemFilter): Promise<ListedProblem[]> {
  const seen = f.version
    ? sql`exists (select 1 from ${reportVersions} where ${reportVersions.problemId} = ${reportProblems.id} and ${reportVersions.version} = ${f.version})`
    : undefined;
  const words = (f.text ?? "").trim().split(/\s+/).filter(Boolean).slice(0, 8);
  const text = words.map((w) => {
    const like = likeLiteral(w);
    return sql`(${reportProblems.title} ilike ${like} or ${reportProblems.exceptionType} ilike ${like} or ${reportProblems.signature} ilike ${like})`;
  });
  const state =
    f.state === "regressed"
      ? and(eq(reportProblems.state, "open"), sql`${reportProblems.regressedIn} is not null`)
      : f.state
        ? eq(reportProblems.state, f.state)
        : undefined;
  const recent = sql<number>`coalesce((select sum(${reportDays.count}) from ${reportDays} where ${reportDays.problemId} = ${reportProblems.id} and ${reportDays.day} >= ${f.recentFrom ?? "9999-12-31"}), 0)::int`;
  const regressed = sql`(${reportProblems.state} = 'open' and ${reportProblems.regressedIn} is not null)`;
  return db
    .select({ ...getTableColumns(reportProblems), recent })
    .from(reportProblems)
    .where(and(state, f.tool ? eq(reportProblems.tool, f.tool) : undefined, seen, ...text))
    .orderBy(
      desc(regressed),
      desc(recent),
      desc(reportProblems.count),
      desc(reportProblems.lastSeenAt),
      asc(reportProblems.number),
    )
    .limit(f.limit ?? 1000);
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

/** Every mod version and tool with a report (the page's filters). */
export async function filterChoices(db: Db): Promise<{ versions: string[]; tools: string[] }> {
  const versions = await db.selectDistinct({ v: reportVersions.version }).from(reportVersions).limit(500);
  const tools = await db.selectDistinct({ t: reportProblems.tool }).from(reportProblems).limit(100);
  return {
    versions: versions
      .map((r) => r.v)
      .sort(compareVersions)
      .reverse(),
    tools: tools.map((r) => r.t).sort(),
  };
}

export type ChatStatus = typeof reportChatStatus.$inferSelect;

export async function chatStatus(db: Db, webhookKey: string): Promise<ChatStatus | undefined> {
  const [row] = await db.select().from(reportChatStatus).where(eq(reportChatStatus.webhookKey, webhookKey));
  return row;
}

/** Every status the chat reported, newest first (`tally reports` shows them). */
export function chatStatuses(db: Db): Promise<ChatStatus[]> {
  return db.select().from(reportChatStatus).orderBy(desc(reportChatStatus.since));
}

export async function setChatStatus(db: Db, s: ChatStatus) {
  await db
    .insert(reportChatStatus)
    .values(s)
    .onConflictDoUpdate({ target: reportChatStatus.webhookKey, set: { status: s.status, detail: s.detail } });
}

export async function clearChatStatus(db: Db, webhookKey: string) {
  await db.delete(reportChatStatus).where(eq(reportChatStatus.webhookKey, webhookKey));
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

/** Outbox rows due now, oldest due first. */
export function dueOutbox(db: Db, now: number, limit: number): Promise<OutboxRow[]> {
  return db
    .select()
    .from(reportOutbox)
    .where(lte(reportOutbox.dueAt, now))
    .orderBy(asc(reportOutbox.dueAt), asc(reportOutbox.problemId))
    .limit(limit);
}

export function pendingOutbox(db: Db): Promise<OutboxRow[]> {
  return db.select().from(reportOutbox).orderBy(asc(reportOutbox.problemId));
}

export async function setChatThread(db: Db, problemId: number, threadId: string, messageId: string, count: number) {
  await db
    .update(reportProblems)
    .set({ chatThreadId: threadId, chatMessageId: messageId, chatCount: count, chatUncertainAt: null })
    .where(eq(reportProblems.id, problemId));
}

/** A post about this problem got no answer (it may be in the chat or not): it waits until `dueAt`. */
export async function setChatUncertain(db: Db, problemId: number, at: number, dueAt: number, error: string) {
  await db.transaction(async (tx) => {
    await tx.update(reportProblems).set({ chatUncertainAt: at }).where(eq(reportProblems.id, problemId));
    await tx
      .update(reportOutbox)
      .set({ dueAt: sql`greatest(${reportOutbox.dueAt}, ${dueAt})`, lastError: error.slice(0, 500) })
      .where(eq(reportOutbox.problemId, problemId));
  });
}

/** The post after the pause got its answer: whatever the chat shows now is known. */
export async function clearChatUncertain(db: Db, problemId: number) {
  await db.update(reportProblems).set({ chatUncertainAt: null }).where(eq(reportProblems.id, problemId));
}

export async function setChatCount(db: Db, problemId: number, count: number) {
  await db.update(reportProblems).set({ chatCount: count }).where(eq(reportProblems.id, problemId));
}

export async function setChatThreshold(db: Db, problemId: number, threshold: number) {
  await db.update(reportProblems).set({ chatThreshold: threshold }).where(eq(reportProblems.id, problemId));
}

/** The thread was deleted in the chat: the next pass opens a new one showing the current count. */
export async function forgetChatThread(db: Db, problemId: number) {
  await db
    .update(reportProblems)
    .set({ chatThreadId: null, chatMessageId: null, chatCount: 0, chatThreshold: 0 })
    .where(eq(reportProblems.id, problemId));
}

/** The chat is up to date with this row's reports: forget it, unless a report came meanwhile. */
export async function finishOutbox(db: Db, problemId: number, seq: number) {
  await db.delete(reportOutbox).where(and(eq(reportOutbox.problemId, problemId), eq(reportOutbox.seq, seq)));
  await db.update(reportOutbox).set({ attempts: 0, lastError: null }).where(eq(reportOutbox.problemId, problemId));
}

export async function failOutbox(db: Db, problemId: number, dueAt: number, attempts: number, error: string) {
  await db
    .update(reportOutbox)
    .set({ dueAt, attempts, lastError: error.slice(0, 500) })
    .where(eq(reportOutbox.problemId, problemId));
}

/** Nothing is sent before `until` (the chat asked us to wait, or is down). */
export async function deferOutbox(db: Db, until: number) {
  await db.update(reportOutbox).set({ dueAt: sql`greatest(${reportOutbox.dueAt}, ${until})` });
}
