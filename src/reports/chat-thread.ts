// One problem's thread in the maintainers' chat, brought up to date by the outbox drain
// (chat-outbox.ts): opened once (a fresh one linking the old when it is locked), its starter
// message's count edited, a reply when the count passes a threshold, its state changes announced;
// an archived thread is unarchived by a reply before the edit.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Config } from "../config.ts";
import {
  ChatThreadArchived,
  ChatThreadLocked,
  createThread,
  editMessage,
  postReply,
  type ChatDeps,
  type RateState,
} from "../upstream/chat.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { newThreadMessage, starterEdit, stateReply, stillHappeningReply, thresholdReply } from "./chat-message.ts";
import * as q from "./reports.query.ts";
import * as c from "./chat.query.ts";

export type ChatOutboxDeps = {
  db: Db;
  clock: Clock;
  log: Log;
  fetch: typeof fetch;
  config: Pick<
    Config,
    | "chatWebhookUrl"
    | "chatTimeoutMs"
    | "chatUncertainPauseMs"
    | "chatReplyThresholds"
    | "chatRetryBaseMs"
    | "chatRetryMaxMs"
    | "chatForumTagIds"
  >;
  metrics?: Metrics;
};

export type DrainCounts = {
  due: number;
  created: number;
  edited: number;
  replied: number;
  announced: number;
  unarchived: number;
  reopenedThreads: number;
  failed: number;
  rateLimited: number;
  threadsGone: number;
  webhookGone: number;
  /** Posts sent whose answer never came (their problems wait CHAT_UNCERTAIN_PAUSE_MS). */
  uncertain: number;
  pending: number;
};

/** The highest threshold the count reached (0: none). */
export function thresholdFor(count: number, thresholds: readonly number[]): number {
  return thresholds.reduce((best, t) => (t <= count && t > best ? t : best), 0);
}

/** Whether the chat shows everything about this problem (a muted one needs nothing). */
export function upToDate(p: q.Problem, thresholds: readonly number[]): boolean {
  if (p.state === "muted") return true;
  return (
    p.chatCount === p.count && thresholdFor(p.count, thresholds) <= p.chatThreshold && p.chatEventSeen >= p.eventSeq
  );
}

/** Opens the problem's thread (a fresh one linking `continues` when the old one is locked). */
async function openThread(
  deps: ChatOutboxDeps,
  chat: ChatDeps,
  p: q.Problem,
  counts: DrainCounts,
  continues?: string,
): Promise<RateState> {
  const [latest] = await q.samplesOf(deps.db, p.id);
  const created = await createThread(
    chat,
    newThreadMessage(p, latest ?? emptySample(p), {
      continues,
      uncertainSince: continues ? undefined : (p.chatUncertainAt ?? undefined),
      tags: deps.config.chatForumTagIds,
    }),
  );
  // Stored at once: whatever fails next, a retry edits this thread and never opens another.
  // (It also ends an uncertainty: the thread now known is the one kept up to date.)
  await c.setChatThread(deps.db, p.id, created.threadId, created.messageId, p.count);
  // The new thread already shows the count and the state; nothing before it gets a reply.
  const reached = thresholdFor(p.count, deps.config.chatReplyThresholds);
  if (reached > p.chatThreshold) await c.setChatThreshold(deps.db, p.id, reached);
  if (p.eventSeq > p.chatEventSeen) await q.setChatEventSeen(deps.db, p.id, p.eventSeq);
  if (continues) counts.reopenedThreads++;
  else counts.created++;
  return created.rate;
}

/** Posts into the thread; a locked thread is replaced by a fresh one (answers "reopened"). */
async function replyOrReopen(
  deps: ChatOutboxDeps,
  chat: ChatDeps,
  p: q.Problem,
  message: Parameters<typeof postReply>[2],
  counts: DrainCounts,
) {
  try {
    return { rate: (await postReply(chat, p.chatThreadId!, message)).rate, reopened: false };
  } catch (e) {
    if (!(e instanceof ChatThreadLocked || e instanceof ChatThreadArchived)) throw e;
    deps.log.warn("chat thread locked: the problem gets a fresh thread", { problemId: p.id });
    return { rate: await openThread(deps, chat, p, counts, p.chatThreadId!), reopened: true };
  }
}

/** Brings one problem's thread up to its count and state; answers the last rate state. */
export async function syncProblem(
  deps: ChatOutboxDeps,
  chat: ChatDeps,
  problemId: number,
  counts: DrainCounts,
): Promise<RateState> {
  const p = await q.problemById(deps.db, problemId);
  if (!p || p.state === "muted") return {}; // muted: counted, never posted
  if (p.chatUncertainAt !== null) {
    // An earlier post got no answer: nothing is sent before the pause ends, then it is sent once more.
    const until = p.chatUncertainAt + deps.config.chatUncertainPauseMs;
    if (deps.clock.now() < until) {
      await c.setChatUncertain(deps.db, p.id, p.chatUncertainAt, until, "waiting: an earlier post got no answer");
      return WAITING;
    }
  }
  let rate: RateState = {};
  const reached = thresholdFor(p.count, deps.config.chatReplyThresholds);
  if (!p.chatThreadId || !p.chatMessageId) return openThread(deps, chat, p, counts);
  const pending = p.eventSeq > p.chatEventSeen ? await q.eventsAfter(deps.db, p.id, p.chatEventSeen) : [];
  if (p.chatCount !== p.count || pending.length) {
    try {
      rate = (await editMessage(chat, p.chatThreadId, p.chatMessageId, starterEdit(p))).rate;
    } catch (e) {
      if (!(e instanceof ChatThreadArchived)) throw e;
      // Closed or idle: an edit is refused, a message unarchives the thread. The state change, if
      // there is one, is that message; else a short "still reported" one. Then the edit.
      const announce = pending.length ? await announcement(deps, p, pending[0]!) : undefined;
      const sent = await replyOrReopen(deps, chat, p, announce ?? stillHappeningReply(p), counts);
      if (sent.reopened) return sent.rate;
      counts.unarchived++;
      if (announce) {
        await q.setChatEventSeen(deps.db, p.id, pending[0]!.id);
        counts.announced++;
        pending.shift();
      }
      rate = (await editMessage(chat, p.chatThreadId, p.chatMessageId, starterEdit(p))).rate;
    }
    await c.setChatCount(deps.db, p.id, p.count);
    counts.edited++;
    if (rate.remaining === 0 && (reached > p.chatThreshold || pending.length)) return rate; // the rest waits for the next window
  }
  for (const e of pending) {
    const message = await announcement(deps, p, e);
    if (message) {
      const sent = await replyOrReopen(deps, chat, p, message, counts);
      if (sent.reopened) return sent.rate;
      rate = sent.rate;
      counts.announced++;
    }
    await q.setChatEventSeen(deps.db, p.id, e.id);
    if (rate.remaining === 0) return rate;
  }
  if (reached > p.chatThreshold) {
    const [latest] = await q.samplesOf(deps.db, p.id);
    const sent = await replyOrReopen(deps, chat, p, thresholdReply(p, reached, latest), counts);
    if (sent.reopened) return sent.rate;
    rate = sent.rate;
    await c.setChatThreshold(deps.db, p.id, reached);
    counts.replied++;
  }
  return rate;
}

/** syncProblem's answer for a problem still in its pause after a post that got no answer. */
export const WAITING: RateState = Object.freeze({});

/** The reply of one state change; a regression says which version the fix was in. */
async function announcement(deps: ChatOutboxDeps, p: q.Problem, e: q.ProblemEvent) {
  if (e.action !== "regressed") return stateReply(p, e);
  const before = (await q.eventsOf(deps.db, p.id)).filter((x) => x.id < e.id && x.action === "resolved").at(-1);
  return stateReply(p, e, before?.version);
}

function emptySample(p: q.Problem): q.Sample {
  return {
    id: 0,
    problemId: p.id,
    receivedAt: p.firstSeenAt,
    modVersion: p.maxVersion,
    minecraft: p.lastMinecraft,
    loader: null,
    title: p.title,
    message: null,
    steps: null,
    stackTrace: null,
  };
}
