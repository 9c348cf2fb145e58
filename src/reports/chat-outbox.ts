// Drains the chat outbox: for each problem whose thread is behind, create its thread (once), edit
// the starter message's count, and reply when the count passed a threshold. A 429 pauses the whole
// outbox for retry_after; a 5xx, a timeout or a network fault backs the outbox off exponentially
// (the chat is down for every problem alike); another refusal backs off only that problem. A row
// leaves the outbox only when the chat shows everything it counted, so nothing is lost.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Config } from "../config.ts";
import { ChatRateLimited, ChatThreadGone, createThread, editMessage, postReply, type ChatDeps, type RateState } from "../upstream/chat.ts";
import { UpstreamError } from "../upstream/upstream-error.ts";
import { newThreadMessage, starterEdit, thresholdReply } from "./chat-message.ts";
import * as q from "./reports.query.ts";

export type ChatOutboxDeps = {
  db: Db;
  clock: Clock;
  log: Log;
  fetch: typeof fetch;
  config: Pick<Config, "chatWebhookUrl" | "upstreamTimeoutMs" | "chatReplyThresholds" | "chatRetryBaseMs" | "chatRetryMaxMs">;
};

/** Problems handled per run; the rest wait for the next run. */
export const OUTBOX_BATCH = 25;

export type DrainCounts = { due: number; created: number; edited: number; replied: number; failed: number; rateLimited: number; threadsGone: number; pending: number };

/** The highest threshold the count reached (0: none). */
export function thresholdFor(count: number, thresholds: readonly number[]): number {
  return thresholds.reduce((best, t) => (t <= count && t > best ? t : best), 0);
}

export function backoffMs(attempts: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.min(30, Math.max(0, attempts - 1)));
}

/** Brings one problem's thread up to its count; answers what it did and the last rate state. */
async function syncProblem(deps: ChatOutboxDeps, chat: ChatDeps, problemId: number, counts: DrainCounts): Promise<RateState> {
  const p = await q.problemById(deps.db, problemId);
  if (!p) return {};
  let rate: RateState = {};
  const reached = thresholdFor(p.count, deps.config.chatReplyThresholds);
  if (!p.chatThreadId || !p.chatMessageId) {
    const [latest] = await q.samplesOf(deps.db, p.id);
    const created = await createThread(chat, newThreadMessage(p, latest ?? emptySample(p)));
    // Stored at once: whatever fails next, a retry edits this thread and never opens another.
    await q.setChatThread(deps.db, p.id, created.threadId, created.messageId, p.count);
    // The new thread already shows the count; thresholds passed before it existed get no reply.
    if (reached > p.chatThreshold) await q.setChatThreshold(deps.db, p.id, reached);
    counts.created++;
    return created.rate;
  }
  if (p.chatCount !== p.count) {
    rate = (await editMessage(chat, p.chatThreadId, p.chatMessageId, starterEdit(p))).rate;
    await q.setChatCount(deps.db, p.id, p.count);
    counts.edited++;
    if (rate.remaining === 0 && reached > p.chatThreshold) return rate; // the reply waits for the next window
  }
  if (reached > p.chatThreshold) {
    const [latest] = await q.samplesOf(deps.db, p.id);
    rate = (await postReply(chat, p.chatThreadId, thresholdReply(p, reached, latest))).rate;
    await q.setChatThreshold(deps.db, p.id, reached);
    counts.replied++;
  }
  return rate;
}

function emptySample(p: q.Problem): q.Sample {
  return { id: 0, problemId: p.id, receivedAt: p.firstSeenAt, modVersion: p.maxVersion, minecraft: p.lastMinecraft, loader: null, title: p.title, message: null, steps: null, stackTrace: null };
}

/** One pass over the due rows of the outbox (the reports.chat job; tests call it directly). */
export async function drainChatOutbox(deps: ChatOutboxDeps, signal?: AbortSignal): Promise<DrainCounts> {
  const counts: DrainCounts = { due: 0, created: 0, edited: 0, replied: 0, failed: 0, rateLimited: 0, threadsGone: 0, pending: 0 };
  if (!deps.config.chatWebhookUrl) return counts;
  const chat: ChatDeps = { fetch: deps.fetch, webhookUrl: deps.config.chatWebhookUrl, timeoutMs: deps.config.upstreamTimeoutMs, signal };
  const rows = await q.dueOutbox(deps.db, deps.clock.now(), OUTBOX_BATCH);
  counts.due = rows.length;
  for (const row of rows) {
    if (signal?.aborted) break;
    const now = deps.clock.now();
    try {
      const rate = await syncProblem(deps, chat, row.problemId, counts);
      const after = await q.problemById(deps.db, row.problemId);
      const upToDate = !after || (after.chatCount === after.count && thresholdFor(after.count, deps.config.chatReplyThresholds) <= after.chatThreshold);
      if (upToDate) await q.finishOutbox(deps.db, row.problemId, row.seq);
      if (rate.remaining === 0 && rate.resetAfterMs !== undefined) {
        // The bucket is empty: wait for it to refill rather than collect a 429.
        await q.deferOutbox(deps.db, now + rate.resetAfterMs);
        break;
      }
    } catch (e) {
      if (!(e instanceof UpstreamError)) throw e;
      if (signal?.aborted) break; // stopping: the row stays due, nothing counts as a failure
      if (e instanceof ChatThreadGone) {
        // A maintainer deleted the thread: the problem came back, so it gets a new one next time.
        counts.threadsGone++;
        deps.log.warn("chat thread gone: the problem gets a new thread", { problemId: row.problemId });
        await q.forgetChatThread(deps.db, row.problemId);
        continue;
      }
      if (e instanceof ChatRateLimited) {
        counts.rateLimited++;
        deps.log.warn("chat rate limited: the outbox waits", { problemId: row.problemId, retryAfterMs: e.retryAfterMs, global: e.global });
        await q.deferOutbox(deps.db, now + e.retryAfterMs);
        break;
      }
      counts.failed++;
      const attempts = row.attempts + 1;
      const wait = backoffMs(attempts, deps.config.chatRetryBaseMs, deps.config.chatRetryMaxMs);
      await q.failOutbox(deps.db, row.problemId, now + wait, attempts, e.message);
      const down = e.reason !== "status" || (e.status ?? 0) >= 500;
      deps.log.warn(down ? "chat unavailable: the outbox backs off" : "chat refused a message: this problem backs off", {
        problemId: row.problemId,
        reason: e.reason,
        status: e.status,
        detail: e.message,
        attempts,
        retryInMs: wait,
      });
      if (down) {
        await q.deferOutbox(deps.db, now + wait);
        break;
      }
    }
  }
  counts.pending = (await q.pendingOutbox(deps.db)).length;
  return counts;
}
