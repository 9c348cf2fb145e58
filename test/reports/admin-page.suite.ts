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
import { launchChromium } from "../support/browser.ts";
import { listen, type Listening } from "../../src/http/serve.ts";
import { testApp, loopbackFetch, type TestApp } from "../support/app.ts";
import { fakeDiscord } from "../support/fakes/discord.ts";
import { drainChatOutbox } from "../../src/reports/chat-outbox.ts";
import { applyAction } from "../../src/reports/states.ts";
import { traceCorpus } from "./corpus.ts";
import { report } from "./report.ts";

const artifacts = join(import.meta.dir, "../artifacts");
mkdirSync(artifacts, { recursive: true });
const ADMIN = "page-admin-token-5c1e9a7b3d2f8e6a0b4c";

let t: TestApp;
let discord: ReturnType<typeof fakeDiscord>;
let server: Listening;
let browser: Browser;
let base: string;
const ids: number[] = [];

beforeAll(async () => {
  discord = fakeDiscord();
  t = await testApp({
    // Any version may reopen a problem here: which may is test/security/version-forgery.test.ts's.
    settings: { adminToken: ADMIN, chatWebhookUrl: discord.webhookUrl, reportRegressionMinAccounts: 0 },
    fetch: loopbackFetch,
    now: "2026-11-01T09:30:00Z",
  });
  const send = async (over: Record<string, unknown>) => {
    const res = await t.postJson("/v1/reports/general", report(over));
    return ((await res.json()) as { problemId: number }).problemId;
  };
  // Three weeks of reports: one busy problem across versions, a few quieter ones.
  for (let day = 0; day < 21; day++) {
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
  server = listen(t.app, { host: "127.0.0.1", port: 0, graceMs: 1000, log: t.log });
  base = `http://127.0.0.1:${server.port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop("tests done");
  await t?.close();
  discord?.stop();
});

type Session = { context: BrowserContext; page: Page; requests: string[]; errors: string[] };

async function signIn(scheme: "light" | "dark"): Promise<Session> {
  const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
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
  return { context, page, requests, errors };
}

function ownHostOnly(s: Session) {
  for (const url of s.requests) expect(url.startsWith(base + "/") || url.startsWith("data:")).toBe(true);
  expect(s.errors).toEqual([]);
}

describe("the maintainers' page", () => {
  test("sign-in sets an HttpOnly, SameSite=Strict cookie for /admin/ only; the list shows problems by count with sparklines", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const s = await signIn(scheme);
      try {
        const [cookie] = await s.context.cookies();
        expect(cookie).toMatchObject({ name: "tally_admin", httpOnly: true, sameSite: "Strict", path: "/admin/" });
        const rows = s.page.locator("table.admin-problems tbody tr");
        expect(await rows.count()).toBe(4);
        const counts = await rows.locator("td.num").allInnerTexts();
        expect(counts.map((c) => Number(c.replace(/,/g, "")))).toEqual(
          [...counts.map((c) => Number(c.replace(/,/g, "")))].sort((a, b) => b - a),
        );
        expect(await rows.first().getAttribute("data-problem")).toBe(String(ids[0]));
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
        await s.page.screenshot({ path: join(artifacts, `admin-reports-${scheme}.png`), fullPage: true });
        // Filters: by state, by mod version.
        await s.page.selectOption("select[name=state]", "open");
        await Promise.all([s.page.waitForURL(/state=open/), s.page.click(".admin-filters button")]);
        expect(await s.page.locator("table.admin-problems tbody tr").count()).toBe(2);
        await s.page.goto(base + "/admin/reports?version=1.4.0-beta.2");
        expect(await s.page.locator("table.admin-problems tbody tr").count()).toBe(1);
        ownHostOnly(s);
      } finally {
        await s.context.close();
      }
    }
  });

  test("one problem: chart, versions, samples; resolving through the form is kept in the audit list", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const s = await signIn(scheme);
      try {
        await s.page.goto(`${base}/admin/reports/${ids[0]}`);
        expect(await s.page.locator("main h1").innerText()).toBe(`#${ids[0]} Crash while reading dungeon chat`);
        expect(await s.page.locator("figure.chart svg").getAttribute("data-days")).toBe("30");
        expect(await s.page.locator("table.admin-versions tbody tr").allInnerTexts()).toEqual(
          [
            expect.stringMatching(/^1\.3\.8\t\d+\t/),
            expect.stringMatching(/^1\.3\.9\t\d+\t/),
            expect.stringMatching(/^1\.4\.1\t\d+\t/),
          ].sort(() => 0),
        );
        expect(await s.page.locator(".admin-sample").count()).toBe(5);
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
        await s.page.screenshot({ path: join(artifacts, `admin-problem-${scheme}.png`), fullPage: true });
        await s.page.screenshot({ path: join(artifacts, `admin-problem-${scheme}-top.png`) });
        ownHostOnly(s);
      } finally {
        await s.context.close();
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
      await s.context.close();
    }
  });
});
