// The chat's release summary: the first day the newest mod version reaches
// RELEASE_SUMMARY_MIN_INSTALLS active installs (with statistics on), and once more a week later: its
// adoption, reports per 1 000 active installs against the version before, and its new problems.
// Each is a new thread of the forum. It names problems by number and exception, never by a title
// (free text a player wrote): no player's name can reach the chat.
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/database.ts";
import type { Log } from "../log.ts";
import { createThread, type ChatMessage } from "../upstream/chat.ts";
import { addDays } from "../wire/day.ts";
import { cut, escapeText, LIMITS } from "./chat-message.ts";
import { chatStatus } from "./chat.query.ts";
import { webhookKey } from "./chat-outbox.ts";
import * as q from "./release-health.query.ts";
import { rateText, releaseHealth, WINDOW_DAYS, type VersionSummary } from "./release-health.ts";

export type SummaryDeps = {
  db: Db;
  clock: Clock;
  log: Log;
  fetch: typeof fetch;
  config: Pick<
    Config,
    | "releaseHealthDays"
    | "releaseSummaryMinInstalls"
    | "chatWebhookUrl"
    | "chatTimeoutMs"
    | "chatForumTagIds"
    | "chatRetryBaseMs"
    | "chatRetryMaxMs"
  >;
};

const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The summary's thread. `week`: the one a week after the version reached its adoption. */
export function releaseMessage(
  v: VersionSummary,
  previous: VersionSummary | undefined,
  fresh: q.VersionProblem[],
  week: boolean,
  tags: string[],
): ChatMessage & { thread_name: string } {
  const name = escapeText(v.version);
  const against = previous
    ? `, against **${rateText(previous.rate)}** for ${escapeText(previous.version)}`
    : " (no earlier version to compare)";
  const listed = fresh
    .slice(0, 5)
    .map((p) => `- #${p.number} ${escapeText(p.exceptionType ?? "grouped by message")} (${p.reports})`);
  const lines = [
    `**Mod ${name}**: ${week ? "one week after" : "the day"} it reached its adoption. Counts only installs with statistics on.`,
    `Adoption: **${v.installs}** active installs on ${v.installsDay} (${Math.round(v.share * 100)}% of active installs).`,
    `Reports per 1 000 active installs a day, last ${WINDOW_DAYS} days: **${rateText(v.rate)}**${against}.`,
    `New problems first reported from ${name}: **${fresh.length}**`,
    ...listed,
    ...(fresh.length > listed.length ? [`and ${fresh.length - listed.length} more`] : []),
  ];
  return {
    thread_name: cut(`Release ${v.version}${week ? ": one week on" : ""}`, LIMITS.threadName),
    content: cut(lines.join("\n"), LIMITS.content),
    ...(tags.length ? { applied_tags: tags } : {}),
    allowed_mentions: { parse: [] },
  };
}

/**
 * Marks the newest version once it reaches its adoption, then posts what is due. Answers how many
 * summaries were posted and failed.
 */
export async function postReleaseSummaries(deps: SummaryDeps, signal?: AbortSignal) {
  const counts = { reached: 0, posted: 0, failed: 0 };
  const h = await releaseHealth(deps);
  const newest = h.summaries[0];
  if (newest) {
    const reached = h.rows
      .filter((r) => r.version === newest.version && r.installs >= deps.config.releaseSummaryMinInstalls)
      .map((r) => r.day)
      .sort()[0];
    if (reached && !(await q.releasePost(deps.db, newest.version))) {
      await q.addReleasePost(deps.db, newest.version, reached, deps.clock.now());
      counts.reached = 1;
    }
  }
  const url = deps.config.chatWebhookUrl;
  if (!url || (await chatStatus(deps.db, webhookKey(url)))?.status === "webhook_gone") return counts;
  for (const post of await q.dueReleasePosts(deps.db, deps.clock.now())) {
    if (signal?.aborted) break;
    const i = h.summaries.findIndex((s) => s.version === post.version);
    const v = h.summaries[i];
    if (!v) {
      await q.setReleasePost(deps.db, post.version, { posted: 2 }); // expired: nothing left to say
      continue;
    }
    const fresh = (await q.problemsOfVersion(deps.db, v.version)).filter((p) => p.minVersion === v.version);
    const week = post.posted === 1;
    try {
      await createThread(
        { fetch: deps.fetch, webhookUrl: url, timeoutMs: deps.config.chatTimeoutMs, signal },
        releaseMessage(
          v,
          h.summaries.slice(i + 1).find((s) => s.installDays > 0),
          fresh,
          week,
          deps.config.chatForumTagIds,
        ),
      );
      await q.setReleasePost(deps.db, v.version, {
        posted: post.posted + 1,
        attempts: 0,
        dueAt: dayStart(addDays(post.reachedDay, 7)),
      });
      counts.posted++;
    } catch (e) {
      const wait = Math.min(deps.config.chatRetryMaxMs, deps.config.chatRetryBaseMs * 2 ** post.attempts);
      await q.setReleasePost(deps.db, v.version, { attempts: post.attempts + 1, dueAt: deps.clock.now() + wait });
      deps.log.warn("release summary not posted", { version: v.version, error: (e as Error).message });
      counts.failed++;
    }
  }
  return counts;
}
