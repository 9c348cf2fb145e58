// SQL of the chat side of bug intake: the outbox the drain works through (due rows, their retries
// and pauses), each problem's thread in the chat (its ids, the count it shows, a post in doubt),
// and the chat's status per webhook.
import { and, asc, desc, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { reportChatStatus, reportOutbox, reportProblems } from "./reports.table.ts";

export type OutboxRow = typeof reportOutbox.$inferSelect;

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
