// A slow chat: Discord did the work but its answer is late or trickles in. The outbox waits for the
// answer within CHAT_TIMEOUT_MS (it is a background job) instead of timing out at the request
// timeout and posting a second thread; a post whose answer never comes may be in the chat, so its
// problem waits CHAT_UNCERTAIN_PAUSE_MS and is posted once more, saying so, while the other
// problems keep going. Timeouts are small real ones; the pauses are moved with the clock.
import { describe, expect, test, setDefaultTimeout } from "bun:test";
setDefaultTimeout(30_000);
import type { TestAppOptions } from "../support/app.ts";
import { problemById } from "../../src/reports/reports.query.ts";
import { problemsByCount } from "../../src/reports/problems-list.query.ts";
import { problemsTable } from "../../src/reports/problems-list.ts";
import { traceCorpus } from "./corpus.ts";
import { chatSetup } from "./chat-setup.ts";

const PAUSE = 900_000;

const chat = chatSetup({
  settings: {
    chatRetryBaseMs: 5000,
    chatRetryMaxMs: 60_000,
    chatUncertainPauseMs: PAUSE,
    upstreamTimeoutMs: 100,
  },
});

async function setup(settings: TestAppOptions["settings"] = {}) {
  const s = await chat.setup(settings);
  const creations = () => s.discord.received.filter((r) => r.method === "POST" && !r.query.thread_id).length;
  return { ...s, creations };
}

const nameA = { stackTrace: traceCorpus[0]!.stackTrace };
const nameC = { title: "Upload failed", stackTrace: traceCorpus[5]!.stackTrace };

describe("a slow answer within CHAT_TIMEOUT_MS", () => {
  test("a new thread answered later than the request timeout is waited for: one thread, its ids kept", async () => {
    const { t, discord, send, creations, drain } = await setup({ chatTimeoutMs: 10_000 });
    const { problemId } = await send(nameA);
    discord.state.failures = ["late"];
    discord.state.lateMs = 400; // four times UPSTREAM_TIMEOUT_MS
    expect(await drain()).toMatchObject({ created: 1, uncertain: 0, failed: 0, pending: 0 });
    expect(discord.threads.size).toBe(1);
    expect((await problemById(t.db, problemId))!.chatThreadId).toBe([...discord.threads.keys()][0]!);
    await send(nameA);
    expect(await drain()).toMatchObject({ created: 0, edited: 1 });
    expect(creations()).toBe(1);
  });

  test("a new thread whose body trickles in is read whole: one thread", async () => {
    const { discord, send, creations, drain } = await setup({ chatTimeoutMs: 10_000 });
    await send(nameA);
    discord.state.failures = ["trickle"];
    discord.state.trickle = { bytes: 64, everyMs: 20 }; // about half a second for the message
    expect(await drain()).toMatchObject({ created: 1, uncertain: 0, failed: 0, pending: 0 });
    expect(discord.threads.size).toBe(1);
    expect(creations()).toBe(1);
  });

  test("an edit and a reply are done when their status comes: a body trickled past the timeout delays nothing", async () => {
    const { discord, send, drain } = await setup({ chatTimeoutMs: 1000, chatReplyThresholds: "2" });
    await send(nameA);
    await drain();
    await send(nameA);
    discord.state.failures = ["trickle", "trickle"];
    discord.state.trickle = { bytes: 1, everyMs: 200 }; // a minute or more for the whole message
    expect(await drain()).toMatchObject({ edited: 1, replied: 1, uncertain: 0, failed: 0, pending: 0 });
    const [thread] = [...discord.threads.values()];
    expect(thread!.messages).toHaveLength(2);
    expect(thread!.messages[0]!.content).toContain("**2** reports");
  });
});

describe("an answer that never comes", () => {
  test("the problem waits the pause while the others are posted, then gets one thread more that says so", async () => {
    const { t, discord, send, creations, drain } = await setup({ chatTimeoutMs: 500 });
    const a = await send(nameA);
    const c = await send(nameC);
    discord.state.failures = ["late"];
    discord.state.lateMs = 1500; // Discord opens the thread; its answer comes after CHAT_TIMEOUT_MS
    expect(await drain()).toMatchObject({ uncertain: 1, created: 0, pending: 2 });
    expect(discord.threads.size).toBe(1);
    const warned = t.log.lines.find((l) => String(l.msg).startsWith("chat did not answer a post"));
    expect(warned).toMatchObject({ problemId: a.problemId, reason: "timeout", retryInMs: PAUSE });
    expect((await problemById(t.db, a.problemId))!.chatUncertainAt).toBe(t.clock.now());
    // `tally reports` says so: the thread may exist
    expect(await problemsTable(t.db)).toMatch(
      new RegExp(`^${a.problemId} .* unknown +java\\.lang\\.NullPointerException`, "m"),
    );

    t.clock.advance(5000); // the outbox's backoff: the other problem goes on, this one does not
    expect(await drain()).toMatchObject({ due: 1, created: 1, uncertain: 0, pending: 1 });
    expect(creations()).toBe(2);
    expect((await problemById(t.db, c.problemId))!.chatThreadId).not.toBeNull();
    await send(nameA); // a repeat does not cut the pause short
    t.clock.advance(PAUSE - 5001);
    expect(await drain()).toMatchObject({ due: 0 });
    expect(creations()).toBe(2);

    t.clock.advance(1);
    expect(await drain()).toMatchObject({ created: 1, uncertain: 0, pending: 0 });
    expect(creations()).toBe(3);
    const again = [...discord.threads.values()].at(-1)!;
    expect(again.messages[0]!.content).toStartWith("The chat never answered an earlier post of this problem");
    expect(again.messages[0]!.content).toContain("**2** reports");
    const p = await problemById(t.db, a.problemId);
    expect(p!.chatUncertainAt).toBeNull();
    expect(p!.chatThreadId).toBe([...discord.threads.keys()].at(-1)!);
    t.clock.advance(PAUSE);
    expect(await drain()).toMatchObject({ due: 0 });
    expect(creations()).toBe(3); // one re-creation, never more
  });

  test("a 2xx whose body is cut short by CHAT_TIMEOUT_MS: the thread exists, the problem waits, the others go on at once", async () => {
    const { t, discord, send, creations, drain } = await setup({ chatTimeoutMs: 300 });
    await send(nameA);
    await send(nameC);
    discord.state.failures = ["trickle"];
    discord.state.trickle = { bytes: 1, everyMs: 100 };
    expect(await drain()).toMatchObject({ uncertain: 1, created: 1, pending: 1 });
    expect(creations()).toBe(2);
    expect(t.log.lines.some((l) => String(l.msg).startsWith("chat accepted a post but its answer was cut short"))).toBe(
      true,
    );
    expect(await drain()).toMatchObject({ due: 0 });
    t.clock.advance(PAUSE);
    expect(await drain()).toMatchObject({ created: 1, pending: 0 });
    expect(creations()).toBe(3);
  });

  test("a reply whose answer never comes is posted once more only after the pause", async () => {
    const { t, discord, send, drain } = await setup({ chatTimeoutMs: 1000, chatReplyThresholds: "2" });
    await send(nameA);
    await drain();
    await send(nameA);
    discord.state.failures = ["none", "hang"]; // the edit goes through, the reply hangs
    expect(await drain()).toMatchObject({ edited: 1, replied: 0, uncertain: 1 });
    t.clock.advance(5000);
    expect(await drain()).toMatchObject({ due: 0 });
    t.clock.advance(PAUSE);
    expect(await drain()).toMatchObject({ replied: 1, pending: 0 });
    const [thread] = [...discord.threads.values()];
    expect(thread!.messages).toHaveLength(2); // the reply once: the one that hung never reached the thread
    expect(thread!.messages[1]!.content).toStartWith("Passed **2** reports");
    expect((await problemsByCount(t.db))[0]!.chatUncertainAt).toBeNull();
  });

  test("a chat that refuses the connection got nothing: a plain outage, retried after the backoff", async () => {
    const { t, discord, send, drain } = await setup({ chatTimeoutMs: 1000 });
    await send(nameA);
    discord.stop();
    expect(await drain()).toMatchObject({ failed: 1, uncertain: 0, created: 0 });
    expect((await problemsByCount(t.db))[0]!.chatUncertainAt).toBeNull();
    t.clock.advance(5000);
    expect(await drain()).toMatchObject({ due: 1, failed: 1, uncertain: 0 });
  });
});
