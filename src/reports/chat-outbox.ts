// Drains the chat outbox: for each problem whose thread is behind, create its thread (once), edit
// the starter message's count, reply when the count passed a threshold, and announce its state
// changes (resolved, reopened, a regression; nothing at all while muted). A 429 (per route or
// global) pauses the whole outbox for retry_after; a 5xx, a timeout or a network fault backs the
// outbox off exponentially (the chat is down for every problem alike); another refusal backs off
// only that problem. Each call may take CHAT_TIMEOUT_MS, its whole answer included (nobody waits on
// the outbox, and a slow chat timed out early would get everything twice); a new thread or a reply
// whose answer never came may be in the chat, so its problem waits CHAT_UNCERTAIN_PAUSE_MS and is
// posted once more, saying so, while the others go on. An archived thread (closed by a maintainer, or idle) refuses edits: a reply
// unarchives it, then the edit goes through; a locked one gets a fresh thread that links it. A
// deleted webhook stops posting (the outbox is kept, the log, /metrics and `tally reports` say it)
// until CHAT_WEBHOOK_URL changes. A forum that requires tags and none are set waits the longest
// backoff and says which setting to set. A row leaves the outbox only when the chat shows
// everything it counted, so nothing is lost.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Config } from "../config.ts";
import {
  ChatRateLimited,
  ChatTagRequired,
  ChatThreadArchived,
  ChatThreadGone,
  ChatThreadLocked,
  ChatWebhookGone,
  ChatOutcomeUnknown,
  createThread,
  editMessage,
  postReply,
  type ChatDeps,
  type RateState,
} from "../upstream/chat.ts";
import { UpstreamError } from "../upstream/upstream-error.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { newThreadMessage, starterEdit, stateReply, stillHappeningReply, thresholdReply } from "./chat-message.ts";
import * as q from "./reports.query.ts";

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

/** The key a webhook's status is kept under (never the URL itself: it is a secret). */
export const webhookKey = (url: string) => new Bun.CryptoHasher("sha256").update(url).digest("hex");

/** Problems handled per run; the rest wait for the next run. */
export const OUTBOX_BATCH = 25;

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

export function backoffMs(attempts: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.min(30, Math.max(0, attempts - 1)));
}

/** Whether the chat shows everything about this problem (a muted one needs nothing). */
function upToDate(p: q.Problem, thresholds: readonly number[]): boolean {
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
  await q.setChatThread(deps.db, p.id, created.threadId, created.messageId, p.count);
  // The new thread already shows the count and the state; nothing before it gets a reply.
  const reached = thresholdFor(p.count, deps.config.chatReplyThresholds);
  if (reached > p.chatThreshold) await q.setChatThreshold(deps.db, p.id, reached);
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
async function syncProblem(
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
      await q.setChatUncertain(deps.db, p.id, p.chatUncertainAt, until, "waiting: an earlier post got no answer");
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
    await q.setChatCount(deps.db, p.id, p.count);
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
    await q.setChatThreshold(deps.db, p.id, reached);
    counts.replied++;
  }
  return rate;
}

/** syncProblem's answer for a problem still in its pause after a post that got no answer. */
const WAITING: RateState = Object.freeze({});

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

/** One pass over the due rows of the outbox (the reports.chat job; tests call it directly). */
export async function drainChatOutbox(deps: ChatOutboxDeps, signal?: AbortSignal): Promise<DrainCounts> {
  const counts: DrainCounts = {
    due: 0,
    created: 0,
    edited: 0,
    replied: 0,
    announced: 0,
    unarchived: 0,
    reopenedThreads: 0,
    failed: 0,
    rateLimited: 0,
    threadsGone: 0,
    webhookGone: 0,
    uncertain: 0,
    pending: 0,
  };
  if (!deps.config.chatWebhookUrl) return counts;
  const chat: ChatDeps = {
    fetch: deps.fetch,
    webhookUrl: deps.config.chatWebhookUrl,
    // The outbox is a background job: a slow chat is waited for (a late answer is still an answer),
    // within CHAT_TIMEOUT_MS for the whole answer, rather than timed out and posted twice.
    timeoutMs: deps.config.chatTimeoutMs,
    signal,
  };
  const key = webhookKey(deps.config.chatWebhookUrl);
  const status = await q.chatStatus(deps.db, key);
  if (status?.status === "webhook_gone") {
    // Deleted in Discord: posting stopped; the outbox waits for a new CHAT_WEBHOOK_URL.
    deps.metrics?.chatWebhookGone.set(1);
    counts.webhookGone = 1;
    counts.pending = (await q.pendingOutbox(deps.db)).length;
    return counts;
  }
  deps.metrics?.chatWebhookGone.set(0);
  const rows = await q.dueOutbox(deps.db, deps.clock.now(), OUTBOX_BATCH);
  counts.due = rows.length;
  for (const row of rows) {
    if (signal?.aborted) break;
    const now = deps.clock.now();
    try {
      const rate = await syncProblem(deps, chat, row.problemId, counts);
      if (rate === WAITING) continue;
      const after = await q.problemById(deps.db, row.problemId);
      if (after?.chatUncertainAt != null) await q.clearChatUncertain(deps.db, row.problemId); // posted again, answered
      if (!after || upToDate(after, deps.config.chatReplyThresholds))
        await q.finishOutbox(deps.db, row.problemId, row.seq);
      if (status?.status === "tag_required" && counts.created + counts.reopenedThreads > 0) {
        await q.clearChatStatus(deps.db, key); // a new post went through: the tags are right now
      }
      if (rate.remaining === 0 && rate.resetAfterMs !== undefined) {
        // The bucket is empty: wait for it to refill rather than collect a 429.
        await q.deferOutbox(deps.db, now + rate.resetAfterMs);
        break;
      }
    } catch (e) {
      if (!(e instanceof UpstreamError)) throw e;
      if (e instanceof ChatOutcomeUnknown) {
        // Sent, and no answer (or a 2xx whose body with the ids was cut short): the post may be in
        // the chat. Sending it again now would double it; never sending it could lose the problem.
        // So this problem waits CHAT_UNCERTAIN_PAUSE_MS, then posts once more, saying so. The same
        // when the service stops mid-call: the request had left.
        counts.uncertain++;
        const pause = deps.config.chatUncertainPauseMs;
        await q.setChatUncertain(deps.db, row.problemId, now, now + pause, e.message);
        deps.log.warn(
          e.accepted
            ? "chat accepted a post but its answer was cut short: this problem waits, then posts once more (a duplicate is possible)"
            : "chat did not answer a post, which may have arrived: this problem waits, then posts once more",
          { problemId: row.problemId, reason: e.reason, detail: e.message, retryInMs: pause },
        );
        if (signal?.aborted) break;
        if (e.accepted) continue; // the chat answers: other problems go on at once
        // No answer at all: the chat is down or slow for every problem alike; the others back off.
        const wait = backoffMs(row.attempts + 1, deps.config.chatRetryBaseMs, deps.config.chatRetryMaxMs);
        deps.log.warn("chat unavailable: the outbox backs off", { reason: e.reason, retryInMs: wait });
        await q.deferOutbox(deps.db, now + wait);
        break;
      }
      if (signal?.aborted) break; // stopping: the row stays due, nothing counts as a failure
      if (e instanceof ChatThreadGone) {
        // A maintainer deleted the thread: the problem came back, so it gets a new one next time.
        counts.threadsGone++;
        deps.log.warn("chat thread gone: the problem gets a new thread", { problemId: row.problemId });
        await q.forgetChatThread(deps.db, row.problemId);
        continue;
      }
      if (e instanceof ChatWebhookGone) {
        counts.webhookGone = 1;
        deps.metrics?.chatWebhookGone.set(1);
        deps.log.error(
          "chat webhook deleted (404 Unknown Webhook): posting stopped, reports stay in the outbox; set a new CHAT_WEBHOOK_URL",
          {
            problemId: row.problemId,
          },
        );
        await q.setChatStatus(deps.db, {
          webhookKey: key,
          status: "webhook_gone",
          since: now,
          detail: "404 Unknown Webhook (10015)",
        });
        break;
      }
      if (e instanceof ChatTagRequired) {
        counts.failed++;
        const wait = deps.config.chatRetryMaxMs;
        const detail = deps.config.chatForumTagIds.length
          ? "the forum refused the tags in CHAT_FORUM_TAG_IDS (40067): check the ids"
          : "the forum requires a tag on new posts (40067): set CHAT_FORUM_TAG_IDS to the ids of the tags to apply";
        deps.log.error(`chat refused a new thread: ${detail}`, { problemId: row.problemId, retryInMs: wait });
        await q.setChatStatus(deps.db, { webhookKey: key, status: "tag_required", since: now, detail });
        await q.deferOutbox(deps.db, now + wait);
        break;
      }
      if (e instanceof ChatRateLimited) {
        counts.rateLimited++;
        deps.log.warn("chat rate limited: the outbox waits", {
          problemId: row.problemId,
          retryAfterMs: e.retryAfterMs,
          global: e.global,
        });
        await q.deferOutbox(deps.db, now + e.retryAfterMs);
        break;
      }
      counts.failed++;
      const attempts = row.attempts + 1;
      const wait = backoffMs(attempts, deps.config.chatRetryBaseMs, deps.config.chatRetryMaxMs);
      await q.failOutbox(deps.db, row.problemId, now + wait, attempts, e.message);
      const down = e.reason !== "status" || (e.status ?? 0) >= 500;
      deps.log.warn(
        down ? "chat unavailable: the outbox backs off" : "chat refused a message: this problem backs off",
        {
          problemId: row.problemId,
          reason: e.reason,
          status: e.status,
          detail: e.message,
          attempts,
          retryInMs: wait,
        },
      );
      if (down) {
        await q.deferOutbox(deps.db, now + wait);
        break;
      }
    }
  }
  counts.pending = (await q.pendingOutbox(deps.db)).length;
  return counts;
}
