// The maintainers' page's Boards section in chromium, light and dark at 1280 px and at 390 px: a
// held figure and an excluded player listed in words, the Exclude form used as an operator would
// (the player leaves the public board page at once), "Let rank again", an unknown name answered on
// the page; no request leaves for another host, nothing wider than a phone's screen. Screenshots
// under test/artifacts/ (admin-boards-*).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(120_000);
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { openPage, type Served, servedInChromium } from "../support/browser.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { boardPlayer, upload } from "../boards/support.ts";

const artifacts = join(import.meta.dir, "../artifacts");
mkdirSync(artifacts, { recursive: true });
const ADMIN = "admin-boards-browser-token-4d3c2b1a0f9e8d7c";
const DAY = "2026-11-18";

let t: TestApp;
let served: Served;
let browser: Browser;
let base: string;

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, adminToken: ADMIN }, now: "2026-11-18T12:00:00Z" });
  const players = [
    ["Top_Tilda", { "kills.island.hub": 900, "dungeon.best_split.F7.finish": 301_000 }],
    ["Second_Sam", { "kills.island.hub": 400 }],
    ["Cheating_Carl", { "kills.island.hub": 700 }],
    // Past Kills' bound (200 000 a day) and under Floor 7's least (60 s): held, and listed.
    ["Forged_Fiona", { "kills.island.hub": 5_000_000, "dungeon.best_split.F7.finish": 12_000 }],
  ] as const;
  for (const [name, rows] of players) await upload(t, await boardPlayer(t, name, { findable: true }), { [DAY]: rows });
  served = await servedInChromium(t);
  ({ base, browser } = served);
  // One player the operator excluded yesterday.
  t.clock.set("2026-11-17T09:15:00Z");
  const s = await signIn("light", 1280);
  try {
    await s.page.goto(base + "/admin/boards");
    await s.page.fill("input[name=name]", "Cheating_Carl");
    await Promise.all([s.page.waitForURL(/done=excluded/), s.page.click("text=Exclude from every board")]);
  } finally {
    await s.close();
  }
  t.clock.set("2026-11-18T12:30:00Z");
});
afterAll(async () => {
  await served?.close();
  await t?.close();
});

type Session = { context: BrowserContext; page: Page; requests: string[]; errors: string[]; close(): Promise<void> };

async function signIn(scheme: "light" | "dark", width: number): Promise<Session> {
  const { page, context, close } = await openPage(browser, { colorScheme: scheme, viewport: { width, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  await page.goto(base + "/admin/boards");
  expect(new URL(page.url()).pathname).toBe("/admin/login");
  await page.fill("#token", ADMIN);
  await Promise.all([page.waitForURL(base + "/admin/reports"), page.click("button[type=submit]")]);
  return { context, page, requests, errors, close };
}

const boardNames = async (page: Page) => {
  await page.goto(base + "/boards/kills");
  return page.locator("table tbody tr").allInnerTexts();
};

describe("the Boards section of the maintainers' page", () => {
  test("lists held figures and excluded players in words, in both themes", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const s = await signIn(scheme, 1280);
      try {
        await s.page.click("nav.admin-nav >> text=Boards");
        expect(new URL(s.page.url()).pathname).toBe("/admin/boards");
        const held = await s.page.locator("table.admin-held tbody tr").allInnerTexts();
        // Newest first; figures held at one time in no order a reader relies on.
        expect(held.map((r) => r.split("\t").slice(0, 4).join(" | ")).sort()).toEqual([
          "Forged_Fiona | Fastest Floor 7 finish | All time | 12 s",
          "Forged_Fiona | Fastest Floor 7 finish | November 2026 | 12 s",
          "Forged_Fiona | Fastest Floor 7 finish | Week 47 of 2026 (16 November – 22 November) | 12 s",
          "Forged_Fiona | Kills | Week 47 of 2026 (16 November – 22 November) | 5,000,000",
        ]);
        const reviews = await s.page
          .locator("table.admin-held tbody tr")
          .evaluateAll((rs) =>
            rs.map((r) => [
              r.querySelector(".admin-when")?.textContent,
              ...Array.from(r.querySelectorAll("button"), (b) => b.textContent),
            ]),
          );
        for (const r of reviews) expect(r).toEqual(["2026-11-18 12:00 UTC", "Let rank again", "Exclude"]);
        const excluded = await s.page.locator("table.admin-excluded tbody tr").allInnerTexts();
        expect(excluded.map((r) => r.replace(/\s+/g, " ").trim())).toEqual([
          "Cheating_Carl 2026-11-17 09:15 UTC Let rank again",
        ]);
        for (const url of s.requests) expect(url.startsWith(`${base}/`) || url.startsWith("data:")).toBe(true);
        expect(s.errors).toEqual([]);
        await s.page.screenshot({ path: join(artifacts, `admin-boards-1280-${scheme}.png`), fullPage: true });
      } finally {
        await s.close();
      }
    }
  });

  test("Exclude takes a player off the board page at once; Let rank again; an unknown name is said on the page", async () => {
    const s = await signIn("light", 1280);
    try {
      expect((await boardNames(s.page)).some((r) => r.includes("Second_Sam"))).toBe(true);
      await s.page.goto(base + "/admin/boards");
      await s.page.fill("input[name=name]", "Second_Sam");
      await Promise.all([s.page.waitForURL(/done=excluded/), s.page.click("text=Exclude from every board")]);
      expect(await s.page.locator("[role=status]").innerText()).toMatch(
        /^Excluded from every board: \d+ scores? removed/,
      );
      expect(await s.page.locator("table.admin-excluded tbody tr").count()).toBe(2);
      expect((await boardNames(s.page)).some((r) => r.includes("Second_Sam"))).toBe(false);
      await s.page.goto(base + "/admin/boards");
      await Promise.all([
        s.page.waitForURL(/done=included/),
        s.page.click("table.admin-excluded button[aria-label='Let rank again: Second_Sam']"),
      ]);
      expect(await s.page.locator("table.admin-excluded tbody tr").count()).toBe(1);
      await s.page.fill("input[name=name]", "Nobody_Here");
      await s.page.click("text=Exclude from every board");
      await s.page.waitForSelector("[role=alert]");
      expect(await s.page.locator("[role=alert]").getAttribute("data-code")).toBe("unknown_player");
      expect(await s.page.locator("[role=alert]").innerText()).toBe("No account on this service is named Nobody_Here.");
      await s.page.screenshot({ path: join(artifacts, "admin-boards-1280-unknown.png"), fullPage: true });
    } finally {
      await s.close();
    }
  });

  test("at 390 px nothing leaves the screen sideways", async () => {
    const s = await signIn("dark", 390);
    try {
      await s.page.goto(base + "/admin/boards");
      expect(await s.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await s.page.screenshot({ path: join(artifacts, "admin-boards-390-dark.png"), fullPage: true });
    } finally {
      await s.close();
    }
  });
});
