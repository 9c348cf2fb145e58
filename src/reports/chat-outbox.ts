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
import {
  ChatRateLimited,
  ChatTagRequired,
  ChatThreadGone,
  ChatWebhookGone,
  ChatOutcomeUnknown,
  type ChatDeps,
} from "../upstream/chat.ts";
import { UpstreamError } from "../upstream/upstream-error.ts";
import * as c from "./chat.query.ts";
import { syncProblem, upToDate, WAITING, type ChatOutboxDeps, type DrainCounts } from "./chat-thread.ts";
import { problemById } from "./reports.query.ts";

export type { ChatOutboxDeps, DrainCounts };

/** The key a webhook's status is kept under (never the URL itself: it is a secret). */
export const webhookKey = (url: string) => new Bun.CryptoHasher("sha256").update(url).digest("hex");

/** Problems handled per run; the rest wait for the next run. */
export const OUTBOX_BATCH = 25;

export function backoffMs(attempts: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.min(30, Math.max(0, attempts - 1)));
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
  const status = await c.chatStatus(deps.db, key);
  if (status?.status === "webhook_gone") {
    // Deleted in Discord: posting stopped; the outbox waits for a new CHAT_WEBHOOK_URL.
    deps.metrics?.chatWebhookGone.set(1);
    counts.webhookGone = 1;
    counts.pending = (await c.pendingOutbox(deps.db)).length;
    return counts;
  }
  deps.metrics?.chatWebhookGone.set(0);
  const rows = await c.dueOutbox(deps.db, deps.clock.now(), OUTBOX_BATCH);
  counts.due = rows.length;
  for (const row of rows) {
    if (signal?.aborted) break;
    const now = deps.clock.now();
    try {
      const rate = await syncProblem(deps, chat, row.problemId, counts);
      if (rate === WAITING) continue;
      const after = await problemById(deps.db, row.problemId);
      if (after?.chatUncertainAt != null) await c.clearChatUncertain(deps.db, row.problemId); // posted again, answered
      if (!after || upToDate(after, deps.config.chatReplyThresholds))
        await c.finishOutbox(deps.db, row.problemId, row.seq);
      if (status?.status === "tag_required" && counts.created + counts.reopenedThreads > 0) {
        await c.clearChatStatus(deps.db, key); // a new post went through: the tags are right now
      }
      if (rate.remaining === 0 && rate.resetAfterMs !== undefined) {
        // The bucket is empty: wait for it to refill rather than collect a 429.
        await c.deferOutbox(deps.db, now + rate.resetAfterMs);
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
        await c.setChatUncertain(deps.db, row.problemId, now, now + pause, e.message);
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
        await c.deferOutbox(deps.db, now + wait);
        break;
      }
      if (signal?.aborted) break; // stopping: the row stays due, nothing counts as a failure
      if (e instanceof ChatThreadGone) {
        // A maintainer deleted the thread: the problem came back, so it gets a new one next time.
        counts.threadsGone++;
        deps.log.warn("chat thread gone: the problem gets a new thread", { problemId: row.problemId });
        await c.forgetChatThread(deps.db, row.problemId);
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
        await c.setChatStatus(deps.db, {
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
        await c.setChatStatus(deps.db, { webhookKey: key, status: "tag_required", since: now, detail });
        await c.deferOutbox(deps.db, now + wait);
        break;
      }
      if (e instanceof ChatRateLimited) {
        counts.rateLimited++;
        deps.log.warn("chat rate limited: the outbox waits", {
          problemId: row.problemId,
          retryAfterMs: e.retryAfterMs,
          global: e.global,
        });
        await c.deferOutbox(deps.db, now + e.retryAfterMs);
        break;
      }
      counts.failed++;
      const attempts = row.attempts + 1;
      const wait = backoffMs(attempts, deps.config.chatRetryBaseMs, deps.config.chatRetryMaxMs);
      await c.failOutbox(deps.db, row.problemId, now + wait, attempts, e.message);
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
        await c.deferOutbox(deps.db, now + wait);
        break;
      }
    }
  }
  counts.pending = (await c.pendingOutbox(deps.db)).length;
  return counts;
}
