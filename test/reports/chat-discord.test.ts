// The outbox against Discord as it really answers (bodies and headers from
// test/support/recorded/discord/, sources in its README): archived and locked threads, a forum
// that requires tags, a deleted webhook, the unversioned URL's millisecond retry_after, the global
// 429.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(30_000);
import type { TestAppOptions } from "../support/app.ts";
import { fakeDiscord } from "../support/fakes/discord.ts";
import { drainChatOutbox } from "../../src/reports/chat-outbox.ts";
import { problemById } from "../../src/reports/reports.query.ts";
import { pendingOutbox } from "../../src/reports/chat.query.ts";
import { problemsTable } from "../../src/reports/problems-list.ts";
import { versionedWebhookUrl } from "../../src/upstream/chat.ts";
import { createMetrics } from "../../src/metrics/metrics.ts";
import { traceCorpus } from "./corpus.ts";
import { chatSetup } from "./chat-setup.ts";

const chat = chatSetup({
  settings: { chatRetryBaseMs: 5000, chatRetryMaxMs: 600_000 },
  body: { stackTrace: traceCorpus[0]!.stackTrace },
});

async function setup(settings: TestAppOptions["settings"] = {}) {
  const s = await chat.setup(settings);
  const metrics = createMetrics();
  return { ...s, metrics, drain: () => drainChatOutbox({ ...s.t, metrics }) };
}

describe("the webhook URL as a user copies it", () => {
  test("is called on the versioned API (v10), so a 429's retry_after is read as seconds", async () => {
    expect(versionedWebhookUrl("https://discord.com/api/webhooks/1/abc").pathname).toBe("/api/v10/webhooks/1/abc");
    expect(versionedWebhookUrl("https://discord.com/api/v9/webhooks/1/abc").pathname).toBe("/api/v10/webhooks/1/abc");
    const { t, discord, send, drain } = await setup();
    await send();
    discord.state.failures = ["rateLimited"];
    discord.state.retryAfter = 1.5;
    expect(await drain()).toMatchObject({ rateLimited: 1, pending: 1 });
    expect(discord.received.every((r) => r.path.startsWith("/api/v10/webhooks/"))).toBe(true);
    t.clock.advance(1500); // 1.5 s, not 1500 s (25 minutes)
    expect(await drain()).toMatchObject({ created: 1, pending: 0 });
  });

  test("the fake answers the unversioned path as Discord's default version does: retry_after in milliseconds", async () => {
    const { discord } = await setup();
    discord.state.failures = ["rateLimited"];
    const res = await fetch(discord.webhookUrl + "?wait=true", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "x", thread_name: "x" }),
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ message: "You are being rate limited.", retry_after: 1500, global: false });
  });

  test("a global 429 pauses the whole outbox for its retry_after", async () => {
    const { t, discord, send, drain } = await setup();
    await send();
    await send({ title: "Other", stackTrace: traceCorpus[5]!.stackTrace });
    discord.state.failures = ["globalRateLimited"];
    discord.state.retryAfter = 3;
    expect(await drain()).toMatchObject({ rateLimited: 1, created: 0, pending: 2 });
    expect(t.log.lines.find((l) => l.msg === "chat rate limited: the outbox waits")).toMatchObject({
      global: true,
      retryAfterMs: 3000,
    });
    t.clock.advance(2999);
    expect(await drain()).toMatchObject({ due: 0 });
    t.clock.advance(1);
    expect(await drain()).toMatchObject({ created: 2, pending: 0 });
  });
});

describe("archived and locked threads", () => {
  test("an archived (closed) thread: a reply unarchives it, then the count is edited; new reports keep reaching it", async () => {
    const { t, discord, send, drain } = await setup();
    const { problemId } = await send();
    await drain();
    const [threadId, thread] = [...discord.threads.entries()][0]!;
    thread.archived = true; // a maintainer closed the post, or it went idle
    await send();
    expect(await drain()).toMatchObject({ unarchived: 1, edited: 1, failed: 0, pending: 0 });
    expect(discord.received.slice(-3).map((r) => [r.method, r.query.thread_id])).toEqual([
      ["PATCH", threadId], // refused: 400 50083 Thread is archived
      ["POST", threadId], // the reply unarchives it
      ["PATCH", threadId],
    ]);
    expect(thread.archived).toBe(false);
    expect(thread.messages.at(-1)!.content).toStartWith("Still reported: now **2** reports");
    expect(thread.messages[0]!.content).toContain("**2** reports");
    expect(discord.threads.size).toBe(1);
    thread.archived = true;
    await send();
    expect(await drain()).toMatchObject({ unarchived: 1, edited: 1, pending: 0 });
    expect(thread.messages[0]!.content).toContain("**3** reports");
    expect((await problemById(t.db, problemId))!.chatCount).toBe(3);
  });

  test("a resolve announced into an archived thread is the message that unarchives it", async () => {
    const { t, discord, send, drain } = await setup();
    const { problemId } = await send();
    await drain();
    const thread = [...discord.threads.values()][0]!;
    thread.archived = true;
    const { applyAction } = await import("../../src/reports/states.ts");
    await applyAction(t, problemId, "resolved", "cli", "2.0.0");
    expect(await drain()).toMatchObject({ unarchived: 1, announced: 1, edited: 1, pending: 0 });
    expect(thread.messages.map((m) => m.content.split(":")[0])).toEqual([
      expect.stringContaining("Problem #"),
      "Resolved in **2.0.0**",
    ]);
    expect(thread.messages[0]!.content).toContain("Resolved in **2.0.0**");
  });

  test("a locked thread gets a fresh thread that links the old one", async () => {
    const { t, discord, send, drain } = await setup();
    const { problemId } = await send();
    await drain();
    const [oldId, old] = [...discord.threads.entries()][0]!;
    old.archived = true;
    old.locked = true;
    await send();
    expect(await drain()).toMatchObject({ reopenedThreads: 1, failed: 0, pending: 0 });
    expect(discord.threads.size).toBe(2);
    const [newId, fresh] = [...discord.threads.entries()][1]!;
    expect(fresh.messages[0]!.content).toStartWith(`Continues <#${oldId}>, which is closed.\n`);
    expect(fresh.messages[0]!.content).toContain("**2** reports");
    expect((await problemById(t.db, problemId))!.chatThreadId).toBe(newId);
  });
});

describe("a forum that requires tags", () => {
  test("without CHAT_FORUM_TAG_IDS: refused (400 40067), logged with the setting to set, retried at the longest backoff", async () => {
    const { t, discord, send, drain } = await setup();
    discord.state.requireTag = true;
    await send();
    expect(await drain()).toMatchObject({ failed: 1, created: 0, pending: 1 });
    expect(t.log.lines.find((l) => String(l.msg).startsWith("chat refused a new thread"))!.msg).toContain(
      "set CHAT_FORUM_TAG_IDS",
    );
    expect(await problemsTable(t.db, t.config.chatWebhookUrl)).toContain("chat: the chat refuses new threads");
    t.clock.advance(599_999);
    expect(await drain()).toMatchObject({ due: 0 });
  });

  test("with CHAT_FORUM_TAG_IDS: each new thread carries applied_tags", async () => {
    const { discord, send, drain } = await setup({ chatForumTagIds: "1400000000000000902" });
    discord.state.requireTag = true;
    await send();
    expect(await drain()).toMatchObject({ created: 1, pending: 0 });
    expect(discord.received[0]!.body.applied_tags).toEqual(["1400000000000000902"]);
    expect([...discord.threads.values()][0]!.appliedTags).toEqual(["1400000000000000902"]);
  });
});

describe("a deleted webhook", () => {
  test("stops posting, keeps the outbox, and says so in the log, /metrics and tally reports; a new URL resumes", async () => {
    const { t, discord, send, metrics, drain } = await setup();
    await send();
    discord.state.deleted = true;
    expect(await drain()).toMatchObject({ webhookGone: 1, created: 0, pending: 1 });
    expect(t.log.lines.find((l) => l.level === "error")!.msg).toContain("chat webhook deleted (404 Unknown Webhook)");
    expect(await metrics.registry.getSingleMetricAsString("tally_chat_webhook_gone")).toContain(
      "tally_chat_webhook_gone 1",
    );
    await send({ title: "More", stackTrace: traceCorpus[5]!.stackTrace });
    const calls = discord.received.length;
    t.clock.advance(3_600_000);
    expect(await drain()).toMatchObject({ webhookGone: 1, due: 0, pending: 2 });
    expect(discord.received.length).toBe(calls); // not called again
    const table = await problemsTable(t.db, t.config.chatWebhookUrl);
    expect(table).toContain("chat: the chat webhook was deleted (404 Unknown Webhook (10015))");
    expect(table).toContain("2 problem(s) wait in the outbox. Set a new CHAT_WEBHOOK_URL.");
    expect(await pendingOutbox(t.db)).toHaveLength(2);
    // A new webhook (another URL) starts clean and posts everything kept.
    const next = fakeDiscord();
    chat.keep(next);
    const resumed = await drainChatOutbox({ ...t, metrics, config: { ...t.config, chatWebhookUrl: next.webhookUrl } });
    expect(resumed).toMatchObject({ created: 2, pending: 0 });
    expect(await metrics.registry.getSingleMetricAsString("tally_chat_webhook_gone")).toContain(
      "tally_chat_webhook_gone 0",
    );
  });
});
