// The maintainers' page in a real browser (Debian's chromium through playwright-core): sign in with
// ADMIN_TOKEN (an HttpOnly, SameSite=Strict cookie), the list by count with filters and sparklines,
// one problem with its chart, versions, audit list and samples, an action through its form; no
// request leaves for another host; forms without their CSRF field or from another site are
// refused. Screenshots of both themes go to test/artifacts/ (git-ignored).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(90_000);
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { openPage, pictured, servedInChromium, type Served } from "../support/browser.ts";
import { testApp, loopbackFetch, type TestApp } from "../support/app.ts";
import { fakeDiscord } from "../support/fakes/discord.ts";
import { drainChatOutbox } from "../../src/reports/chat-outbox.ts";
import { applyAction } from "../../src/reports/states.ts";
import { traceCorpus } from "./corpus.ts";
import { report } from "./report.ts";
import { envelope, PROFILE, uploader } from "../support/uploads.ts";
import { foldReleaseHealth } from "../../src/reports/release-health.ts";
import { utcDay } from "../../src/wire/day.ts";

const artifacts = join(import.meta.dir, "../artifacts");
mkdirSync(artifacts, { recursive: true });
const ADMIN = "page-admin-token-5c1e9a7b3d2f8e6a0b4c";

let t: TestApp;
let discord: ReturnType<typeof fakeDiscord>;
let served: Served;
let browser: Browser;
let base: string;
const ids: number[] = [];

beforeAll(async () => {
  discord = fakeDiscord();
  t = await testApp({
    // Any version may reopen a problem here: which may is test/security/version-forgery.test.ts's.
    settings: {
      adminToken: ADMIN,
      chatWebhookUrl: discord.webhookUrl,
      reportRegressionMinAccounts: 0,
      devSignin: true,
    },
    fetch: loopbackFetch,
    now: "2026-11-01T09:30:00Z",
  });
  const send = async (over: Record<string, unknown>) => {
    const res = await t.postJson("/v1/reports/general", report(over));
    return ((await res.json()) as { problemId: number }).problemId;
  };
  // Eight installs of one player upload most days, upgrading 1.3.8 -> 1.3.9 -> 1.4.1 (release health).
  const player = await uploader(t);
  const versionOf = (i: number, day: number) =>
    day >= 16 + (i % 3) ? "1.4.1" : day >= 10 + (i % 4) ? "1.3.9" : "1.3.8";
  // Three weeks of reports: one busy problem across versions, a few quieter ones.
  for (let day = 0; day < 21; day++) {
    for (let i = 0; i < 8; i++) {
      if ((day + i) % 3 === 0) continue;
      const env = envelope(t, {
        install: `${i}`.repeat(32),
        counters: [
          {
            profileId: PROFILE,
            scope: "day",
            day: utcDay(t.clock.now()),
            rows: [{ k: "mining.blocks.stone", v: i + 1 }],
          },
        ],
      });
      env.client.modVersion = versionOf(i, day);
      await player.send(env);
    }
    await foldReleaseHealth(t);
    for (let i = 0; i < ((day * 7) % 5) + (day > 14 ? 3 : 1); i++)
      ids[0] = await send({
        stackTrace: traceCorpus[0]!.stackTrace,
        modVersion: day < 10 ? "1.3.8" : day < 16 ? "1.3.9" : "1.4.1",
      });
    if (day % 3 === 0)
      ids[1] = await send({ title: "Upload failed", stackTrace: traceCorpus[5]!.stackTrace, modVersion: "1.3.9" });
    if (day % 7 === 2)
      ids[2] = await send({
        title: "Mining overlay **flickers** <b>in</b> the Dwarven Mines",
        modVersion: "1.4.0-beta.2",
      });
    t.clock.advance(86_400_000);
  }
  ids[3] = await send({
    title: "Party > [MVP+] Steve: sell me that",
    message: "it crashed when Alex_99 joined",
    modVersion: "1.4.1",
  });
  await applyAction(t, ids[2]!, "resolved", "cli", "1.4.0");
  await applyAction(t, ids[3]!, "resolved", "admin", "1.4.0");
  await send({ title: "Party > [MVP+] Steve: sell me that", message: "again, after the update", modVersion: "1.4.1" }); // a regression
  await applyAction(t, ids[1]!, "muted", "cli");
  await drainChatOutbox(t);
  served = await servedInChromium(t);
  ({ base, browser } = served);
});

afterAll(async () => {
  await served?.close();
  await t?.close();
  discord?.stop();
});

type Session = { context: BrowserContext; page: Page; requests: string[]; errors: string[]; close(): Promise<void> };

async function signIn(scheme: "light" | "dark"): Promise<Session> {
  const { page, context, close } = await openPage(browser, {
    colorScheme: scheme,
    viewport: { width: 1200, height: 800 },
  });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("console", (m) => {
    // A failed load is checked by its response below (the browser's own /favicon.ico asks too).
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  page.on("response", (r) => {
    const path = new URL(r.url()).pathname;
    if (r.status() >= 400 && path !== "/favicon.ico" && !(path === "/admin/login" && r.status() === 401))
      errors.push(`${r.status()} ${path}`);
  });
  await page.goto(base + "/admin/reports");
  expect(new URL(page.url()).pathname).toBe("/admin/login");
  await page.fill("#token", "not-the-token");
  await page.click("button[type=submit]");
  expect(await page.locator("[role=alert]").innerText()).toBe("That is not the admin token.");
  await page.fill("#token", ADMIN);
  await Promise.all([page.waitForURL(base + "/admin/reports"), page.click("button[type=submit]")]);
  return { context, page, requests, errors, close };
}

function ownHostOnly(s: Session) {
  for (const url of s.requests) expect(url.startsWith(base + "/") || url.startsWith("data:")).toBe(true);
  expect(s.errors).toEqual([]);
}

/** Signs in at a width (390: a phone) and answers the signed-in page. */
async function signInAt(width: number): Promise<Session> {
  const { page, context, close } = await openPage(browser, { viewport: { width, height: 844 } });
  await page.goto(base + "/admin/reports");
  await page.fill("input[name=token]", ADMIN);
  await Promise.all([page.waitForURL(/\/admin\/reports$/), page.click("form button")]);
  return { context, page, requests: [], errors: [], close };
}

describe("release health and the phone", () => {
  test("the versions page compares the newest with the one before; a version page shows adoption and its problems", async () => {
    const s = await signInAt(1280);
    try {
      await s.page.goto(base + "/admin/versions");
      expect(await s.page.locator("main").innerText()).toContain("Counts only installs with statistics on");
      const versions = await s.page
        .locator("table.admin-release tbody tr")
        .evaluateAll((rs) => rs.map((r) => r.getAttribute("data-version")));
      // 1.4.0-beta.2 only in bug reports: listed, without installs.
      expect(versions).toEqual(["1.4.1", "1.4.0-beta.2", "1.3.9", "1.3.8"]);
      expect(await s.page.locator(".admin-compare").innerText()).toContain("1.4.1 against 1.3.9:");
      await s.page.screenshot({ path: join(artifacts, "admin-versions-1280.png"), fullPage: true });
      await s.page.click('a[href="/admin/versions/1.4.1"]');
      expect(await s.page.locator("main h1").innerText()).toBe("Mod version 1.4.1");
      expect(await s.page.locator("figure.chart svg").count()).toBe(1);
      // Installs 0-7 upload on two days in three; each runs 1.4.1 from day 16, 17 or 18 on.
      const days = await s.page.locator("table.admin-release-days tbody tr").count();
      expect(days).toBeGreaterThan(2);
      const problems = s.page.locator(".admin-version-problems li");
      expect(await problems.count()).toBe(2);
      // The Party problem was first reported from 1.4.1: new; the chat crash came from 1.3.8 first.
      expect(await problems.filter({ hasText: "new" }).count()).toBe(1);
      await s.page.screenshot({ path: join(artifacts, "admin-version-1280.png"), fullPage: true });
    } finally {
      await s.close();
    }
  });

  test("at 390 px nothing leaves the screen sideways and Resolve is in reach", async () => {
    const s = await signInAt(390);
    try {
      const fits = () => s.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      expect(await fits()).toBe(true);
      await s.page.screenshot({ path: join(artifacts, "admin-reports-390.png"), fullPage: true });
      await s.page.goto(`${base}/admin/reports/${ids[0]}`);
      expect(await fits()).toBe(true);
      const button = await s.page.locator("form[action$='/resolve'] button").boundingBox();
      expect(button!.x + button!.width).toBeLessThanOrEqual(390);
      expect(button!.y + button!.height).toBeLessThanOrEqual(844);
      await s.page.screenshot({ path: join(artifacts, "admin-problem-390.png") });
      await s.page.screenshot({ path: join(artifacts, "admin-problem-390-full.png"), fullPage: true });
      await s.page.goto(base + "/admin/versions");
      expect(await fits()).toBe(true);
      await s.page.screenshot({ path: join(artifacts, "admin-versions-390.png"), fullPage: true });
      await s.page.goto(base + "/admin/versions/1.4.1");
      expect(await fits()).toBe(true);
      await s.page.screenshot({ path: join(artifacts, "admin-version-390.png"), fullPage: true });
    } finally {
      await s.close();
    }
  });
});

describe("the maintainers' page", () => {
  test("sign-in sets an HttpOnly, SameSite=Strict cookie for /admin/ only; the list shows problems by count with sparklines", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const s = await signIn(scheme);
      try {
        const [cookie] = await s.context.cookies();
        expect(cookie).toMatchObject({ name: "tally_admin", httpOnly: true, sameSite: "Strict", path: "/admin/" });
        const rows = s.page.locator("table.admin-problems tbody tr");
        expect(await rows.count()).toBe(4);
        // Short numbers without gaps; the regression first, then by reports of the last 7 days.
        expect((await rows.evaluateAll((rs) => rs.map((r) => Number(r.getAttribute("data-problem"))))).sort()).toEqual([
          1, 2, 3, 4,
        ]);
        expect(await rows.first().getAttribute("data-problem")).toBe(String(ids[3]));
        const recent = (await rows.locator("td.num .admin-title").allInnerTexts()).map((c) =>
          Number(c.replace(/,/g, "").split(" ")[0]),
        );
        expect(recent.slice(1)).toEqual([...recent.slice(1)].sort((a, b) => b - a));
        expect(await rows.nth(1).getAttribute("data-problem")).toBe(String(ids[0]));
        // The exception and the top frame of the mod's own code, not the reporter's title.
        expect(await s.page.locator(`tr[data-problem="${ids[0]}"] .admin-head`).innerText()).toMatch(
          /^\S+(Exception|Error)\s+at dev\.tally\.mod\./,
        );
        expect(await s.page.locator(`tr[data-problem="${ids[1]}"] .state`).innerText()).toBe("muted");
        expect(await s.page.locator(`tr[data-problem="${ids[2]}"] .state`).innerText()).toBe("resolved in 1.4.0");
        expect(await s.page.locator(`tr[data-problem="${ids[3]}"] .state`).innerText()).toBe("regressed in 1.4.1");
        expect(await s.page.locator(`tr[data-problem="${ids[2]}"] a`).innerText()).toBe(
          "Mining overlay **flickers** <b>in</b> the Dwarven Mines",
        );
        expect(await s.page.locator("svg.spark").count()).toBe(4);
        expect(
          Number(await s.page.locator(`tr[data-problem="${ids[0]}"] svg.spark`).getAttribute("data-total")),
        ).toBeGreaterThan(20);
        // The player names in a report were pseudonymised at intake.
        expect(await s.page.locator("main").innerText()).not.toContain("Steve");
        // The whole page in the pictured view, the first screen in the other (test/support/browser.ts).
        await s.page.screenshot({
          path: join(artifacts, `admin-reports-${scheme}.png`),
          fullPage: pictured(scheme, 1280),
        });
        // Filters: by state, by mod version.
        await s.page.selectOption("select[name=state]", "open");
        await Promise.all([s.page.waitForURL(/state=open/), s.page.click(".admin-filters button")]);
        expect(await s.page.locator("table.admin-problems tbody tr").count()).toBe(2);
        await s.page.goto(base + "/admin/reports?version=1.4.0-beta.2");
        expect(await s.page.locator("table.admin-problems tbody tr").count()).toBe(1);
        // Search over titles and exceptions; the regressed filter.
        await s.page.goto(base + "/admin/reports");
        await s.page.fill("input[name=q]", "dwarven");
        await Promise.all([s.page.waitForURL(/q=dwarven/), s.page.click(".admin-filters button")]);
        expect(await s.page.locator("table.admin-problems tbody tr").getAttribute("data-problem")).toBe(String(ids[2]));
        await s.page.goto(base + "/admin/reports?q=DungeonSplits");
        expect(await s.page.locator("table.admin-problems tbody tr").count()).toBe(1);
        await s.page.goto(base + "/admin/reports?state=regressed");
        expect(await s.page.locator("table.admin-problems tbody tr").getAttribute("data-problem")).toBe(String(ids[3]));
        await s.page.goto(base + "/admin/reports?q=100%25_");
        expect(await s.page.locator("table.admin-problems tbody tr").count()).toBe(0);
        ownHostOnly(s);
      } finally {
        await s.close();
      }
    }
  });

  test("one problem: chart, versions, samples; resolving through the form is kept in the audit list", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const s = await signIn(scheme);
      try {
        await s.page.goto(`${base}/admin/reports/${ids[0]}`);
        expect(await s.page.locator("main h1").innerText()).toMatch(
          new RegExp(`^#${ids[0]}\\s+\\S+(Exception|Error)\\s+at dev\\.tally\\.mod\\.`),
        );
        expect(await s.page.locator("figure.chart svg").getAttribute("data-days")).toBe("30");
        expect(await s.page.locator("table.admin-versions tbody tr").allInnerTexts()).toEqual(
          // Newest first.
          [
            expect.stringMatching(/^1\.4\.1\t\d+\t/),
            expect.stringMatching(/^1\.3\.9\t\d+\t/),
            expect.stringMatching(/^1\.3\.8\t\d+\t/),
          ],
        );
        // Identical scrubbed samples once, with their count; the trace's first line whole.
        const kept = await s.page
          .locator(".admin-sample")
          .evaluateAll((xs) => xs.map((x) => Number(x.getAttribute("data-count"))));
        expect(kept.reduce((a, b) => a + b, 0)).toBe(5);
        expect(kept.length).toBeLessThan(5);
        expect(await s.page.locator(".admin-trace-head").first().innerText()).toBe(
          traceCorpus[0]!.stackTrace!.split("\n")[0]!.trim(),
        );
        // The newest mod version is offered, not the version it was last resolved in.
        expect(await s.page.locator("input[name=version]").inputValue()).toBe("1.4.1");
        if (scheme === "light") {
          await s.page.fill("input[name=version]", "1.4.2");
          await Promise.all([s.page.waitForURL(/done=1/), s.page.click("form[action$='/resolve'] button")]);
          expect(await s.page.locator("[role=status]").innerText()).toBe(
            "Saved: the problem is now resolved in 1.4.2.",
          );
          expect(await s.page.locator(".admin-audit li").allInnerTexts()).toEqual([
            expect.stringMatching(/UTC: Resolved in 1\.4\.2 \(admin\)$/),
          ]);
        }
        if (pictured(scheme, 1280))
          await s.page.screenshot({ path: join(artifacts, `admin-problem-${scheme}.png`), fullPage: true });
        await s.page.screenshot({ path: join(artifacts, `admin-problem-${scheme}-top.png`) });
        ownHostOnly(s);
      } finally {
        await s.close();
      }
    }
    // The thread followed the state.
    await drainChatOutbox(t);
    expect(
      [...discord.threads.values()].some((th) =>
        th.messages.some((m) => m.content.startsWith("Resolved in **1.4.2**")),
      ),
    ).toBe(true);
  });

  test("a form without its CSRF field, from another site, or without the cookie is refused and changes nothing", async () => {
    const s = await signIn("light");
    try {
      const cookie = (await s.context.cookies())[0]!;
      const jar = `${cookie.name}=${cookie.value}`;
      const post = (headers: Record<string, string>, body: string) =>
        fetch(`${base}/admin/reports/${ids[3]}/mute`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          body,
        });
      expect((await post({ cookie: jar }, "")).status).toBe(403);
      expect((await post({ cookie: jar }, "csrf=forged")).status).toBe(403);
      const csrf = await s.page.locator("form.admin-signout input[name=csrf]").getAttribute("value");
      expect((await post({ cookie: jar, origin: "https://evil.example" }, `csrf=${csrf}`)).status).toBe(403);
      expect((await post({}, `csrf=${csrf}`)).status).toBe(401);
      const ok = await post({ cookie: jar, origin: base }, `csrf=${csrf}`);
      expect(ok.status).toBe(303);
      expect(ok.headers.get("location")).toBe(`/admin/reports/${ids[3]}?done=1`);
      const page = await fetch(`${base}/admin/reports`, { headers: { cookie: jar } });
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("x-robots-tag")).toBe("noindex");
      expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
      // Signing out clears the cookie.
      await Promise.all([s.page.waitForURL(base + "/admin/login"), s.page.click("form.admin-signout button")]);
      expect(await s.context.cookies()).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
