// Problem states as a maintainer lives them: resolved in a version (older versions counted, not
// reopened; that version or newer reopens it as a regression, and the chat thread says which
// version brought it back), muted (counted, never posted), every change in the audit list; the
// same actions through `tally reports`-style commands and the admin routes behind ADMIN_TOKEN.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(30_000);
import type { TestAppOptions } from "../support/app.ts";
import { eventsOf, problemById } from "../../src/reports/reports.query.ts";
import { pendingOutbox } from "../../src/reports/chat.query.ts";
import { runReportsCommand, parseReportsArgs, type ReportsCommand } from "../../src/reports/problems-list.ts";
import { compareVersions } from "../../src/reports/versions.ts";
import { traceCorpus } from "./corpus.ts";
import { chatSetup } from "./chat-setup.ts";

const ADMIN = "admin-token-for-tests-3b9f1c0e7d5a";

const chat = chatSetup({
  // Any version may reopen a problem here: which may is test/security/version-forgery.test.ts's.
  settings: { adminToken: ADMIN, reportRegressionMinAccounts: 0 },
  now: "2026-11-20T12:00:00Z",
  body: { stackTrace: traceCorpus[0]!.stackTrace },
});

async function setup(settings: TestAppOptions["settings"] = {}) {
  const s = await chat.setup(settings);
  const cli = (args: string[]) => {
    const c = parseReportsArgs(args);
    if ("error" in c) throw new Error(c.error);
    return runReportsCommand(s.t, c as ReportsCommand);
  };
  return { ...s, cli };
}

describe("version order", () => {
  test("semantic versions with pre-release parts; build metadata ignored; numbers as numbers", () => {
    const ordered = [
      "1.3.9",
      "1.4.0-alpha",
      "1.4.0-alpha.1",
      "1.4.0-alpha.beta",
      "1.4.0-beta",
      "1.4.0-beta.2",
      "1.4.0-beta.11",
      "1.4.0-rc.1",
      "1.4.0",
      "1.4.1",
      "1.10.0",
      "2.0.0",
    ];
    for (let i = 0; i < ordered.length; i++) {
      for (let j = 0; j < ordered.length; j++) {
        expect({ a: ordered[i], b: ordered[j], c: compareVersions(ordered[i]!, ordered[j]!) }).toEqual({
          a: ordered[i],
          b: ordered[j],
          c: Math.sign(i - j),
        });
      }
    }
    expect(compareVersions("1.4.0+build.7", "1.4.0")).toBe(0);
    expect(compareVersions("1.4", "1.4.0")).toBe(0);
    expect(compareVersions("1.4.0-beta.99999999999999999999", "1.4.0-beta.99999999999999999998")).toBe(1);
  });
});

describe("a regression end to end", () => {
  test("resolved in 1.4.0: a 1.3.9 report is counted without reopening; a 1.4.1 report reopens it and the thread says so", async () => {
    const { t, discord, send, cli, drain } = await setup();
    const first = await send({ modVersion: "1.3.8" });
    await drain();
    const [threadId, thread] = [...discord.threads.entries()][0]!;

    const resolved = await cli(["resolve", String(first.problemId), "--in", "1.4.0"]);
    expect(resolved).toBe(
      `problem #${first.problemId} is now resolved in 1.4.0; the chat thread follows at the next outbox run\n`,
    );
    expect(await drain()).toMatchObject({ announced: 1, failed: 0, pending: 0 });
    const resolvedReply = thread.messages.at(-1)!;
    expect(resolvedReply.content).toBe(
      "Resolved in **1.4.0**: reports from older versions are counted without reopening it.",
    );
    expect(thread.messages[0]!.content).toContain("Resolved in **1.4.0**");

    t.clock.advance(86_400_000);
    const older = await send({ modVersion: "1.3.9" });
    expect(older).toMatchObject({ status: "repeat", count: 2 });
    expect(await problemById(t.db, first.problemId)).toMatchObject({
      state: "resolved",
      resolvedIn: "1.4.0",
      count: 2,
    });
    await drain();
    expect(thread.messages).toHaveLength(2); // the count is edited, nothing is announced
    expect(thread.messages[0]!.content).toContain("**2** reports");

    t.clock.advance(86_400_000);
    const newer = await send({ modVersion: "1.4.1" });
    expect(newer).toMatchObject({ status: "repeat", count: 3 });
    expect(await problemById(t.db, first.problemId)).toMatchObject({
      state: "open",
      regressedIn: "1.4.1",
      resolvedIn: "1.4.0",
    });
    expect(await drain()).toMatchObject({ edited: 1, announced: 1, pending: 0 });
    const reply = discord.received.at(-1)!;
    expect(reply.method).toBe("POST");
    expect(reply.query).toEqual({ wait: "true", thread_id: threadId });
    expect(reply.body).toEqual({
      content:
        "**Regression**: reported again from mod **1.4.1**, though resolved in **1.4.0**. Reopened (now **3** reports).",
      allowed_mentions: { parse: [] },
    });
    expect(thread.messages[0]!.content).toContain("Regression: back in **1.4.1**");
    console.log("the regression reply as the fake Discord received it:\n" + JSON.stringify(reply, null, 2));

    const audit = (await eventsOf(t.db, first.problemId)).map((e) => [
      e.action,
      e.version,
      e.actor,
      new Date(e.at).toISOString(),
    ]);
    expect(audit).toEqual([
      ["resolved", "1.4.0", "cli", "2026-11-20T12:00:00.000Z"],
      ["regressed", "1.4.1", "intake", "2026-11-22T12:00:00.000Z"],
    ]);
    const shown = await cli(["show", String(first.problemId)]);
    console.log(`tally reports show ${first.problemId}:\n${shown}`);
    expect(shown).toContain("state      regressed in 1.4.1");
    expect(shown).toMatch(/1\.3\.9\s+1\s+2026-11-21 12:00/);
    expect(shown).toContain("2026-11-20 12:00 UTC  resolved 1.4.0  by cli");
    expect(shown).toContain("2026-11-22 12:00 UTC  regressed 1.4.1  by intake");
    expect(shown).toContain("  2026-11-22  1");
    const list = await cli([]);
    console.log(`tally reports:\n${list}`);
    expect(list).toMatch(
      new RegExp(
        `^${first.problemId}\\s+3\\s+3\\s+.*1\\.3\\.8 – 1\\.4\\.1\\s+general\\s+regressed in 1\\.4\\.1\\s+yes\\s+java\\.lang\\.NullPointerException at dev\\.tally\\.mod\\.feature\\.DungeonSplits\\.onChat$`,
        "m",
      ),
    );
  });

  test("a pre-release of the fixing version is older than it; the release itself reopens", async () => {
    const { t, send, cli } = await setup({ chatWebhookUrl: "" });
    const { problemId } = await send({ modVersion: "1.3.0" });
    await cli(["resolve", String(problemId), "--in", "1.4.0"]);
    await send({ modVersion: "1.4.0-rc.2" });
    expect((await problemById(t.db, problemId))!.state).toBe("resolved");
    await send({ modVersion: "1.4.0" });
    expect(await problemById(t.db, problemId)).toMatchObject({ state: "open", regressedIn: "1.4.0" });
  });
});

describe("muted", () => {
  test("is counted and never posted; reopening catches the thread up and says so", async () => {
    const { t, discord, send, cli, drain } = await setup();
    const { problemId } = await send();
    await drain();
    const calls = discord.received.length;
    expect(await cli(["mute", String(problemId)])).toBe(`problem #${problemId} is now muted\n`);
    await send();
    await send({ modVersion: "9.9.9" });
    expect(await pendingOutbox(t.db)).toEqual([]);
    expect(await drain()).toMatchObject({ due: 0 });
    expect(discord.received.length).toBe(calls);
    expect((await problemById(t.db, problemId))!.count).toBe(3);
    expect(await cli(["mute", String(problemId)])).toBe(`problem #${problemId} is already muted; nothing changed\n`);
    await cli(["reopen", String(problemId)]);
    expect(await drain()).toMatchObject({ edited: 1, announced: 1 });
    const thread = [...discord.threads.values()][0]!;
    expect(thread.messages[0]!.content).toContain("**3** reports");
    expect(thread.messages.at(-1)!.content).toBe("Reopened by a maintainer (now **3** reports).");
    expect((await eventsOf(t.db, problemId)).map((e) => e.action)).toEqual(["muted", "reopened"]);
  });
});

describe("commands", () => {
  test("bad arguments and unknown problems get clear errors", async () => {
    expect(parseReportsArgs(["resolve", "3"])).toEqual({
      error: "resolve needs the fixing version: tally reports resolve 3 --in <version>",
    });
    expect(parseReportsArgs(["frobnicate", "3"])).toMatchObject({
      error: expect.stringContaining("unknown reports command"),
    });
    expect(parseReportsArgs(["show"])).toMatchObject({ error: expect.stringContaining("needs a problem id") });
    const { cli } = await setup();
    await expect(cli(["reopen", "42"])).rejects.toThrow("no problem #42");
    await expect(cli(["resolve", "42", "--in", "1.0 beta"])).rejects.toThrow("a version is 1 to 64 of");
  });
});

describe("admin routes", () => {
  test("need the ADMIN_TOKEN bearer; list, filter, show and act", async () => {
    const { t, send } = await setup();
    const a = await send({ modVersion: "1.2.0" });
    const b = await send({ title: "Other", stackTrace: traceCorpus[5]!.stackTrace, modVersion: "1.3.0" });
    const auth = { authorization: `Bearer ${ADMIN}` };
    expect((await t.request("/v1/admin/reports")).status).toBe(401);
    expect((await t.request("/v1/admin/reports", { headers: { authorization: `Bearer ${ADMIN}x` } })).status).toBe(401);
    const all = (await (await t.request("/v1/admin/reports", { headers: auth })).json()) as {
      problems: { id: number }[];
    };
    expect(all.problems.map((p) => p.id).sort()).toEqual([a.problemId, b.problemId].sort());
    const byVersion = (await (await t.request("/v1/admin/reports?version=1.3.0", { headers: auth })).json()) as {
      problems: { id: number }[];
    };
    expect(byVersion.problems.map((p) => p.id)).toEqual([b.problemId]);
    const res = await t.postJson(`/v1/admin/reports/${a.problemId}/resolve`, { version: "1.4.0" }, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      changed: true,
      problem: { id: a.problemId, state: "resolved", resolvedIn: "1.4.0" },
    });
    const bad = await t.postJson(`/v1/admin/reports/${a.problemId}/resolve`, { version: "" }, { headers: auth });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "invalid_body" } });
    const open = (await (await t.request("/v1/admin/reports?state=open", { headers: auth })).json()) as {
      problems: { id: number }[];
    };
    expect(open.problems.map((p) => p.id)).toEqual([b.problemId]);
    const mute = await t.request(`/v1/admin/reports/${b.problemId}/mute`, { method: "POST", headers: auth });
    expect(await mute.json()).toMatchObject({ changed: true, problem: { state: "muted" } });
    const one = (await (await t.request(`/v1/admin/reports/${a.problemId}`, { headers: auth })).json()) as Record<
      string,
      unknown
    >;
    expect(one).toMatchObject({
      events: [{ action: "resolved", version: "1.4.0", actor: "admin" }],
      versions: [{ version: "1.2.0", count: 1 }],
      days: [{ day: "2026-11-20", count: 1 }],
    });
    expect((await t.request("/v1/admin/reports/999", { headers: auth })).status).toBe(404);
  });

  test("are absent without ADMIN_TOKEN", async () => {
    const { t } = await setup({ adminToken: "" });
    expect((await t.request("/v1/admin/reports", { headers: { authorization: "Bearer x" } })).status).toBe(404);
    expect((await t.request("/admin/reports")).status).toBe(404);
  });
});
