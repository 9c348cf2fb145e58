// The maintainers' chat through the outbox: one thread per problem, created once; repeats edit the
// starter message and reply only at thresholds; 429s, 5xx and hangs are retried with backoff from
// the clock and nothing is lost; nothing identifying and no webhook URL ever leaves.
import { describe, expect, test, setDefaultTimeout } from "bun:test";
// A fresh database per test takes seconds on a loaded machine; the behaviour, not the time, is tested.
setDefaultTimeout(30_000);
import { drainChatOutbox } from "../../src/reports/chat-outbox.ts";
import { problemsByCount } from "../../src/reports/problems-list.query.ts";
import { pendingOutbox } from "../../src/reports/chat.query.ts";
import { LIMITS } from "../../src/reports/chat-message.ts";
import { traceCorpus } from "./corpus.ts";
import { chatSetup } from "./chat-setup.ts";
import { scrubCorpus } from "../privacy/scrub-corpus.ts";
import { samplesOf } from "../../src/reports/reports.query.ts";

const chat = chatSetup({ settings: { chatRetryBaseMs: 5000, chatRetryMaxMs: 60_000 } });

const setup = chat.setup;

const nameA = { stackTrace: traceCorpus[0]!.stackTrace };
const nameC = { title: "Upload failed", stackTrace: traceCorpus[5]!.stackTrace };

describe("a new problem", () => {
  test("is answered before the chat hears of it; the job then opens one forum thread with wait=true", async () => {
    const { t, discord, send, drain } = await setup();
    const answer = await send(nameA);
    expect(answer.status).toBe("new");
    expect(discord.received).toEqual([]);
    expect(await drain()).toMatchObject({ due: 1, created: 1, failed: 0, pending: 0 });
    expect(discord.threads.size).toBe(1);
    const [post] = discord.received;
    expect(post!.method).toBe("POST");
    expect(post!.query).toEqual({ wait: "true" });
    expect(post!.body.allowed_mentions).toEqual({ parse: [] });
    expect(post!.body.thread_name).toBe(`#${answer.problemId} Crash while reading dungeon chat`);
    expect(post!.body.content).toContain("**1** report ·");
    const [problem] = await problemsByCount(t.db);
    expect(problem!.chatThreadId).toBe([...discord.threads.keys()][0]!);
  });
});

describe("a repeat", () => {
  test("edits the starter message's count and replies only when a threshold is passed", async () => {
    const { discord, send, drain } = await setup({ chatReplyThresholds: "3,10" });
    await send(nameA);
    await drain();
    const [threadId, thread] = [...discord.threads.entries()][0]!;
    await send(nameA);
    expect(await drain()).toMatchObject({ edited: 1, replied: 0, created: 0 });
    const edit = discord.received.at(-1)!;
    expect(edit.method).toBe("PATCH");
    expect(edit.path).toEndWith(`/messages/${thread.messages[0]!.id}`);
    expect(edit.query).toEqual({ thread_id: threadId });
    expect(thread.messages[0]!.content).toContain("**2** reports");
    await send({ ...nameA, modVersion: "1.4.0" });
    expect(await drain()).toMatchObject({ edited: 1, replied: 1 });
    expect(thread.messages).toHaveLength(2);
    expect(thread.messages[1]!.content).toStartWith("Passed **3** reports (now **3**)");
    expect(discord.received.at(-1)!.query).toEqual({ wait: "true", thread_id: threadId });
    expect(discord.received.at(-1)!.body.allowed_mentions).toEqual({ parse: [] });
    await send(nameA);
    expect(await drain()).toMatchObject({ edited: 1, replied: 0 });
    expect(discord.threads.size).toBe(1);
    expect(thread.messages[0]!.content).toContain("**4** reports · mod 1.2.0 – 1.4.0");
  });

  test("many repeats while the job waits become one edit, and a count passing two thresholds one reply", async () => {
    const { discord, send, drain } = await setup({ chatReplyThresholds: "3,5" });
    await send(nameA);
    await drain();
    for (let i = 0; i < 5; i++) await send(nameA);
    expect(await drain()).toMatchObject({ edited: 1, replied: 1 });
    const thread = [...discord.threads.values()][0]!;
    expect(thread.messages.map((m) => m.content.split(" (")[0])).toEqual([
      expect.stringContaining("**6** reports"),
      "Passed **5** reports",
    ]);
  });
});

describe("failures", () => {
  test("a chat outage (5xx) backs off from the clock, loses nothing, and ends with exactly one thread per problem", async () => {
    const { t, discord, send, drain } = await setup();
    discord.state.failure = "error500";
    await send(nameA);
    await send(nameC);
    expect(await drain()).toMatchObject({ due: 2, failed: 1, created: 0, pending: 2 });
    expect(await drain()).toMatchObject({ due: 0 }); // nothing is tried before the backoff ends
    t.clock.advance(5000);
    discord.state.failure = "error502";
    expect(await drain()).toMatchObject({ failed: 1 });
    t.clock.advance(5000);
    expect(await drain()).toMatchObject({ due: 0 }); // the second failure in a row waits twice as long
    await send(nameA); // reports keep coming while the chat is down
    discord.state.failure = "none";
    t.clock.advance(5000);
    expect(await drain()).toMatchObject({ due: 2, created: 2, failed: 0, pending: 0 });
    expect(discord.threads.size).toBe(2);
    const counts = [...discord.threads.values()].map((th) => th.messages[0]!.content.match(/\*\*(\d+)\*\* report/)![1]);
    expect(counts.sort()).toEqual(["1", "2"]);
    expect(await pendingOutbox(t.db)).toEqual([]);
  });

  test("a 429 pauses the outbox for retry_after, then goes on", async () => {
    const { t, discord, send, drain } = await setup();
    await send(nameA);
    discord.state.failures = ["rateLimited"];
    discord.state.retryAfter = 1.5;
    expect(await drain()).toMatchObject({ rateLimited: 1, created: 0, pending: 1 });
    const calls = discord.received.length;
    t.clock.advance(1499);
    expect(await drain()).toMatchObject({ due: 0 });
    expect(discord.received.length).toBe(calls);
    t.clock.advance(1);
    expect(await drain()).toMatchObject({ created: 1, pending: 0 });
    expect(discord.threads.size).toBe(1);
  });

  test("when the rate-limit bucket is empty the outbox waits for X-RateLimit-Reset-After instead of collecting a 429", async () => {
    const { t, discord, send, drain } = await setup();
    discord.state.limit = 2;
    await send(nameA);
    await send(nameC);
    await send({ title: "Something else entirely" });
    expect(await drain()).toMatchObject({ due: 3, created: 2, pending: 1 });
    expect(await drain()).toMatchObject({ due: 0 });
    t.clock.advance(2000);
    expect(await drain()).toMatchObject({ created: 1, pending: 0 });
    expect(discord.threads.size).toBe(3);
  });

  test("a chat that never answers a new thread times out (CHAT_TIMEOUT_MS); the thread may exist, so it is posted again only after the pause", async () => {
    const { t, discord, send, drain } = await setup({ chatTimeoutMs: 100, chatUncertainPauseMs: 900_000 });
    await send(nameA);
    discord.state.failures = ["hang"];
    expect(await drain()).toMatchObject({ uncertain: 1, created: 0 });
    expect(discord.state.hung).toBe(1);
    expect(t.log.lines.find((l) => l.msg === "chat unavailable: the outbox backs off")).toMatchObject({
      reason: "timeout",
    });
    t.clock.advance(5000); // the outbox's backoff is over, this problem's pause is not
    expect(await drain()).toMatchObject({ due: 0, created: 0 });
    t.clock.advance(900_000);
    expect(await drain()).toMatchObject({ created: 1 });
    expect(discord.threads.size).toBe(1);
  });

  test("a thread a maintainer deleted is opened again when the problem comes back", async () => {
    const { t, discord, send, drain } = await setup();
    await send(nameA);
    await drain();
    discord.threads.clear(); // deleted in Discord
    await send(nameA);
    expect(await drain()).toMatchObject({ threadsGone: 1, created: 0, pending: 1 });
    expect(await drain()).toMatchObject({ created: 1, pending: 0 });
    expect(discord.threads.size).toBe(1);
    expect([...discord.threads.values()][0]!.messages[0]!.content).toContain("**2** reports");
    expect((await problemsByCount(t.db))[0]!.chatThreadId).toBe([...discord.threads.keys()][0]!);
  });

  test("stopping the service ends a hanging chat call at once; the report stays queued, no failure counted", async () => {
    const { t, discord, send } = await setup({ chatTimeoutMs: 60_000 });
    await send(nameA);
    discord.state.failures = ["hang"];
    const stopping = new AbortController();
    const draining = drainChatOutbox(t, stopping.signal);
    while (discord.state.hung === 0) await Bun.sleep(5); // until the call is in flight
    stopping.abort();
    // The request had left: the thread may exist, so the next start waits the pause before posting it.
    expect(await draining).toMatchObject({ failed: 0, created: 0, uncertain: 1, pending: 1 });
    expect(await pendingOutbox(t.db)).toMatchObject([{ attempts: 0 }]);
  });

  test("the webhook URL never appears in a log line or an answer", async () => {
    const { t, discord, send, drain } = await setup();
    discord.state.failures = ["error500", "rateLimited"];
    const answer = JSON.stringify(await send(nameA));
    await drain();
    t.clock.advance(5000);
    await drain();
    t.clock.advance(2000);
    await drain();
    expect(discord.threads.size).toBe(1);
    const logged = JSON.stringify(t.log.lines);
    for (const secret of [discord.token, discord.webhookUrl, "/api/webhooks/"]) {
      expect(logged).not.toContain(secret);
      expect(answer).not.toContain(secret);
    }
  });
});

describe("what is posted", () => {
  test("user text is escaped, mentions are off, and every part fits Discord's limits", async () => {
    const { discord, send, drain } = await setup();
    await send({
      title: `@everyone look **here** [click](https://evil.example) ${"long ".repeat(25)}`,
      message: "<@123456789012345678> # heading\n- list\n2. second\n```\nbreak out\n```",
      steps: "x".repeat(4000),
      stackTrace: traceCorpus[0]!.stackTrace + "\n" + "\tat dev.tally.mod.Filler.fill(Filler.java:1)\n".repeat(600),
    });
    expect(await drain()).toMatchObject({ created: 1, failed: 0 });
    const body = discord.received[0]!.body as {
      thread_name: string;
      content: string;
      embeds: { title: string; description: string }[];
    };
    expect([...body.thread_name].length).toBeLessThanOrEqual(LIMITS.threadName);
    expect([...body.content].length).toBeLessThanOrEqual(LIMITS.content);
    const embed = body.embeds[0]!;
    expect(embed.description.length).toBeLessThanOrEqual(LIMITS.embedDescription);
    expect(embed.title).toContain("@\u200beveryone look \\*\\*here\\*\\* \\[click\\]\\(https:/\u200b/evil.example\\)");
    expect(embed.description).toContain("\\<@\u200b123456789012345678\\> \\# heading\n\\- list\n2\\. second");
    expect(embed.description).not.toContain("```\nbreak out");
    expect(embed.description).toContain("```java\njava.lang.NullPointerException");
  });

  test("nothing of the scrubbing corpus that identifies anyone is stored or posted", async () => {
    const { t, discord, send, drain } = await setup();
    const letters = (i: number) => String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + Math.floor(i / 26));
    for (const [i, [text]] of scrubCorpus.entries())
      await send({ title: `Corpus case ${letters(i)}`, message: text, steps: text });
    expect(await drain()).toMatchObject({ created: scrubCorpus.length, failed: 0 });
    const stored = JSON.stringify(
      await Promise.all((await problemsByCount(t.db)).map(async (p) => [p, await samplesOf(t.db, p.id)])),
    );
    const posted = JSON.stringify(discord.received);
    for (const [, gone] of scrubCorpus) {
      for (const g of gone) {
        expect({ g, stored: stored.includes(g) }).toEqual({ g, stored: false });
        expect({ g, posted: posted.includes(g) }).toEqual({ g, posted: false });
      }
    }
  });

  test("nothing identifying is posted", async () => {
    const { discord, send, drain } = await setup({ chatReplyThresholds: "2" });
    const identifying = {
      title: "Crash after Party > [MVP+] Steve: go",
      message: "From Alex_99: again. mail steve@example.org from 192.168.1.20",
      steps: "C:\\Users\\Steven\\AppData --accessToken eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXZhbHVl",
      stackTrace:
        "java.lang.IllegalStateException: no island for 069a79f444e94726a5befca90e38aaf5\n\tat dev.tally.mod.Islands.load(Islands.java:3)",
    };
    await send(identifying);
    await drain();
    await send(identifying);
    await drain();
    expect(discord.received.map((r) => r.method)).toEqual(["POST", "PATCH", "POST"]);
    const posted = JSON.stringify(discord.received);
    for (const s of ["Steve", "Alex_99", "steve@example.org", "192.168.1.20", "Steven", "069a79f4", "eyJhbGci"])
      expect(posted).not.toContain(s);
  });
});
