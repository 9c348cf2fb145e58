// Boundary: the mod version a bug report claims (issue 40). Anyone may send a report, and its
// `modVersion` is whatever they write. A report from the fixing version or newer reopens a resolved
// problem as a regression and tells the maintainers' chat, so a claimed version counts for that
// only when signed-in clients upload from it (REPORT_REGRESSION_MIN_ACCOUNTS, 1): before, one
// anonymous report from 99999999999999999999.0.0 reopened any resolved problem and posted it.
// A number of more than 8 digits in a version is refused outright.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventsOf, problemById } from "../../src/reports/reports.query.ts";
import { applyAction } from "../../src/reports/states.ts";
import { accountsOnVersion } from "../../src/accounts/accounts.ts";
import { chatSetup } from "../reports/chat-setup.ts";
import { report } from "../reports/report.ts";
import { traceCorpus } from "../reports/corpus.ts";
import { envelope, PROFILE, uploader } from "../support/uploads.ts";
import type { TestApp } from "../support/app.ts";

setDefaultTimeout(30_000);

const chat = chatSetup({
  settings: { devSignin: true, authRateLimit: 0, reportRateLimit: 0 },
  body: { stackTrace: traceCorpus[0]!.stackTrace },
});

/** A problem reported from 1.3.8, resolved in 1.4.0 by a maintainer, its thread up to date. */
async function resolvedProblem(settings: Record<string, number> = {}) {
  const s = await chat.setup(settings);
  const { problemId } = await s.send({ modVersion: "1.3.8" });
  expect(await s.drain()).toMatchObject({ created: 1, failed: 0 });
  await applyAction(s.t, problemId, "resolved", "cli", "1.4.0");
  expect(await s.drain()).toMatchObject({ announced: 1, failed: 0 });
  const thread = [...s.discord.threads.values()][0]!;
  return { ...s, problemId, thread };
}

/** A signed-in player whose uploads come from mod `version`. */
async function playerOn(t: TestApp, version: string) {
  const u = await uploader(t);
  const day = new Date(t.clock.now()).toISOString().slice(0, 10);
  const env = envelope(t, {
    counters: [{ profileId: PROFILE, scope: "day", day, rows: [{ k: "mining.blocks.total", v: 1 }] }],
  });
  const res = await u.send({ ...env, client: { ...env.client, modVersion: version } });
  expect(res.status).toBe(200);
}

const regressions = (thread: { messages: { content: string }[] }) =>
  thread.messages.filter((m) => m.content.includes("Regression"));

describe("a version a stranger claims", () => {
  test("99999999999999999999.0.0 is refused; the problem stays resolved and the chat hears nothing", async () => {
    const { t, problemId, thread, drain } = await resolvedProblem();
    const res = await t.postJson(
      "/v1/reports/general",
      report({ modVersion: "99999999999999999999.0.0", stackTrace: traceCorpus[0]!.stackTrace }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: unknown }).error).toEqual({
      code: "invalid_body",
      message: "/modVersion: a number in a version has at most 8 digits",
      path: "/modVersion",
    });
    expect(await problemById(t.db, problemId)).toMatchObject({ state: "resolved", count: 1, maxVersion: "1.3.8" });
    expect(await drain()).toMatchObject({ announced: 0 });
    expect(regressions(thread)).toEqual([]);
  });

  test("a newer version no signed-in client runs is counted, never reopens, and posts no regression", async () => {
    const { t, send, problemId, thread, drain } = await resolvedProblem();
    await playerOn(t, "1.4.1"); // someone runs 1.4.1; nobody runs 9.9.9
    for (const modVersion of ["9.9.9", "99999999.0.0", "1.4.0+build.99999999999999"]) {
      expect(await send({ modVersion })).toMatchObject({ status: "repeat" });
      expect(await problemById(t.db, problemId)).toMatchObject({
        state: "resolved",
        resolvedIn: "1.4.0",
        regressedIn: null,
      });
    }
    expect((await eventsOf(t.db, problemId)).map((e) => e.action)).toEqual(["resolved"]);
    await drain();
    expect(regressions(thread)).toEqual([]);
    expect(thread.messages[0]!.content).toContain("**4** reports"); // counted all the same
    const line = t.log.lines.findLast((l) => l.msg === "bug report");
    expect(line).toMatchObject({ status: "repeat", notReopened: "no signed-in client uploads from this mod version" });
  });

  test("a version signed-in clients run reopens it, and the chat says so", async () => {
    const { t, send, problemId, thread, drain } = await resolvedProblem();
    await playerOn(t, "1.4.1");
    await send({ modVersion: "1.4.1" });
    expect(await problemById(t.db, problemId)).toMatchObject({ state: "open", regressedIn: "1.4.1" });
    expect(await drain()).toMatchObject({ announced: 1 });
    expect(thread.messages[0]!.content).toContain("Regression: back in **1.4.1**");
    expect(thread.messages.at(-1)!.content).toBe(
      "**Regression**: reported again from mod **1.4.1**, though resolved in **1.4.0**. Reopened (now **2** reports).",
    );
  });

  test("with REPORT_REGRESSION_MIN_ACCOUNTS=2 one player cannot vouch for a version alone", async () => {
    const { t, send, problemId } = await resolvedProblem({ reportRegressionMinAccounts: 2 });
    await playerOn(t, "1.4.1");
    await send({ modVersion: "1.4.1" });
    expect(await problemById(t.db, problemId)).toMatchObject({ state: "resolved" });
    await playerOn(t, "1.4.1");
    await send({ modVersion: "1.4.1" });
    expect(await problemById(t.db, problemId)).toMatchObject({ state: "open", regressedIn: "1.4.1" });
  });

  test("an upload's free-text modVersion still uploads; only a version a report could name is kept", async () => {
    const { t } = await chat.setup();
    for (const odd of ["1.4.1\u0000", "1.4.1 (dev)", "\u202e1.4.1"]) await playerOn(t, odd);
    expect(await accountsOnVersion(t.db, "1.4.1 (dev)", 5)).toBe(0);
  });
});
