// A month's and a year's recap in chromium, light and dark, at 1280 and 390 px: no request leaves
// for another host, no console error, nothing wider than a phone's screen; screenshots under
// test/artifacts/ (recap-month-*, recap-year-*, recap-owner-*). The player was on October's boards
// (seed-recap.ts, `boards`), so each recap shows their board placements in words ("Kills: #2 of
// 4"), and the placements section has screenshots of its own (recap-*-placements-*).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(240_000);
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { testApp, type TestApp } from "../support/app.ts";
import { openPage, pictured, type Served, servedInChromium, VIEWS } from "../support/browser.ts";
import { pageLink } from "../web/seed.ts";
import { seedRecapPlayer } from "./seed-recap.ts";

const artifacts = join(import.meta.dir, "../artifacts");
mkdirSync(artifacts, { recursive: true });
const NAME = "Recap_Browser";

let t: TestApp;
let served: Served;
let browser: Browser;
let base: string;
let cookie: string;
const links: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true } });
  const owner = await seedRecapPlayer(t, NAME, { year: true, boards: true });
  const res = await t.request(await pageLink(t, owner));
  cookie = res.headers.get("set-cookie")!.split(";")[0]!;
  for (const period of ["2026-10", "2026"]) {
    const shared = await t.request(`/u/${NAME}/recap/${period}/share`, {
      method: "POST",
      headers: { cookie, origin: t.config.baseUrl },
    });
    expect(shared.status).toBe(303);
    const html = await (await t.request(`/u/${NAME}/recap/${period}`, { headers: { cookie } })).text();
    links[period] = html.match(/href="(\/r\/[A-Za-z0-9_-]{32})"/)![1]!;
  }
  served = await servedInChromium(t);
  ({ base, browser } = served);
});
afterAll(async () => {
  await served?.close();
  await t?.close();
});

/** October's placements: first of the two on Time played, second of four rows on Kills (the rivals and the player's two profiles). */
const OCTOBER = ["Time played: #1 of 2", "Kills: #2 of 4"];

async function shoot(name: string, path: string, withCookie = false, placements: string[] = OCTOBER) {
  for (const [scheme, width] of VIEWS) {
    const { page, context, close } = await openPage(browser, { colorScheme: scheme, viewport: { width, height: 800 } });
    if (withCookie) {
      const [k, v] = cookie.split("=");
      await context.addCookies([{ name: k!, value: v!, url: `${base}/u/${NAME}` }]);
    }
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    try {
      const res = await page.goto(base + path, { waitUntil: "load" });
      expect(res?.status()).toBe(200);
      for (const url of requests) expect(url.startsWith(`${base}/`) || url.startsWith("data:")).toBe(true);
      expect(errors).toEqual([]);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      const shot = `${name}${width === 390 ? "-390" : ""}-${scheme}.png`;
      if (pictured(scheme, width))
        await page.screenshot({ path: join(artifacts, shot), fullPage: true, timeout: 120_000 });
      // The board placements, in words, by each board's title.
      const section = page.locator("section[aria-labelledby=boards-h]");
      expect(await section.locator("h2").innerText()).toBe("Board placements");
      expect(await section.locator("li").allInnerTexts()).toEqual(placements);
      const part = `${name}-placements${width === 390 ? "-390" : "-1280"}-${scheme}.png`;
      await section.screenshot({ path: join(artifacts, part) });
    } finally {
      await close();
    }
  }
}

describe("recaps in a browser", () => {
  test("a month's recap, shared", () => shoot("recap-month", links["2026-10"]!));
  // A year's placements: the best month on each board, with the month.
  test("a year's recap, shared", () =>
    shoot(
      "recap-year",
      links["2026"]!,
      false,
      OCTOBER.map((p) => `${p} (October 2026)`),
    ));
  test("the owner's month, with the share form", () => shoot("recap-owner", `/u/${NAME}/recap/2026-10`, true));
});
