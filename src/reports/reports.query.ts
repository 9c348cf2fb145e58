// SQL of bug intake: count a report into its problem, keep its sample, queue the chat; and the
// reads and writes of the chat outbox drain and the maintainer's list.
import { and, asc, desc, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { reportOutbox, reportProblems, reportSamples } from "./reports.table.ts";
import { compareVersions } from "./versions.ts";

export type Problem = typeof reportProblems.$inferSelect;
export type Sample = typeof reportSamples.$inferSelect;
export type OutboxRow = typeof reportOutbox.$inferSelect;

export type ReportInput = {
  fingerprint: string;
  tool: string;
  kind: string;
  exceptionType?: string;
  signature: string;
  now: number;
  sample: Omit<Sample, "id" | "problemId" | "receivedAt">;
  samplesKept: number;
  /** Queue the chat (a webhook is configured). */
  chat: boolean;
};

/** Counts one report into its problem (one transaction): new or repeat, never a second problem. */
export function recordReport(db: Db, r: ReportInput): Promise<{ problem: Problem; created: boolean }> {
  return db.transaction(async (tx) => {
    const { modVersion, minecraft } = r.sample;
    const [inserted] = await tx
      .insert(reportProblems)
      .values({
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
    let problem = inserted;
    if (!problem) {
      // A repeat: lock the row, so concurrent repeats on several instances each count once.
      const [current] = await tx.select().from(reportProblems).where(eq(reportProblems.fingerprint, r.fingerprint)).for("update");
      const [updated] = await tx
        .update(reportProblems)
        .set({
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
    const [sample] = await tx.insert(reportSamples).values({ ...r.sample, problemId: problem.id, receivedAt: r.now }).returning({ id: reportSamples.id });
    await tx.execute(sql`delete from report_samples where problem_id = ${problem.id} and id not in (
      select id from report_samples where problem_id = ${problem.id} order by id desc limit ${r.samplesKept})`);
    if (r.chat) {
      await tx
        .insert(reportOutbox)
        .values({ problemId: problem.id, seq: sample!.id, dueAt: r.now, createdAt: r.now })
        .onConflictDoUpdate({ target: reportOutbox.problemId, set: { seq: sample!.id } });
    }
    return { problem, created: !!inserted };
  });
}

/** Every problem, most reported first (the maintainer's list). */
export function problemsByCount(db: Db): Promise<Problem[]> {
  return db.select().from(reportProblems).orderBy(desc(reportProblems.count), desc(reportProblems.lastSeenAt), asc(reportProblems.id));
}

export function samplesOf(db: Db, problemId: number): Promise<Sample[]> {
  return db.select().from(reportSamples).where(eq(reportSamples.problemId, problemId)).orderBy(desc(reportSamples.id));
}

export async function problemById(db: Db, id: number): Promise<Problem | undefined> {
  const [row] = await db.select().from(reportProblems).where(eq(reportProblems.id, id));
  return row;
}

/** Outbox rows due now, oldest due first. */
export function dueOutbox(db: Db, now: number, limit: number): Promise<OutboxRow[]> {
  return db.select().from(reportOutbox).where(lte(reportOutbox.dueAt, now)).orderBy(asc(reportOutbox.dueAt), asc(reportOutbox.problemId)).limit(limit);
}

export function pendingOutbox(db: Db): Promise<OutboxRow[]> {
  return db.select().from(reportOutbox).orderBy(asc(reportOutbox.problemId));
}

export async function setChatThread(db: Db, problemId: number, threadId: string, messageId: string, count: number) {
  await db.update(reportProblems).set({ chatThreadId: threadId, chatMessageId: messageId, chatCount: count }).where(eq(reportProblems.id, problemId));
}

export async function setChatCount(db: Db, problemId: number, count: number) {
  await db.update(reportProblems).set({ chatCount: count }).where(eq(reportProblems.id, problemId));
}

export async function setChatThreshold(db: Db, problemId: number, threshold: number) {
  await db.update(reportProblems).set({ chatThreshold: threshold }).where(eq(reportProblems.id, problemId));
}

/** The thread was deleted in the chat: the next pass opens a new one showing the current count. */
export async function forgetChatThread(db: Db, problemId: number) {
  await db.update(reportProblems).set({ chatThreadId: null, chatMessageId: null, chatCount: 0, chatThreshold: 0 }).where(eq(reportProblems.id, problemId));
}

/** The chat is up to date with this row's reports: forget it, unless a report came meanwhile. */
export async function finishOutbox(db: Db, problemId: number, seq: number) {
  await db.delete(reportOutbox).where(and(eq(reportOutbox.problemId, problemId), eq(reportOutbox.seq, seq)));
  await db.update(reportOutbox).set({ attempts: 0, lastError: null }).where(eq(reportOutbox.problemId, problemId));
}

export async function failOutbox(db: Db, problemId: number, dueAt: number, attempts: number, error: string) {
  await db.update(reportOutbox).set({ dueAt, attempts, lastError: error.slice(0, 500) }).where(eq(reportOutbox.problemId, problemId));
}

/** Nothing is sent before `until` (the chat asked us to wait, or is down). */
export async function deferOutbox(db: Db, until: number) {
  await db.update(reportOutbox).set({ dueAt: sql`greatest(${reportOutbox.dueAt}, ${until})` });
}
