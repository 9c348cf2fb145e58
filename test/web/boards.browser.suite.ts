// A board's page in chromium (issue 35) at a phone's width (390 px) and a desktop's (1280 px), light
// and dark: findable players by name and link, the others "A player", the window tabs; and the
// list of boards. Screenshots under test/artifacts/boards-*.png.
import { expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(60_000);
import { join } from "node:path";
import { testApp } from "../support/app.ts";
import { artifactsDir, eachView, inChromium, openPage, pictured } from "../support/browser.ts";
import { boardPlayer, upload, type BoardPlayer } from "../boards/support.ts";
import { pageLink } from "./seed.ts";
import type { TestApp } from "../support/app.ts";

const artifacts = artifactsDir();
/** The players made, by name (the owner's view opens one's page link). */
const made = new Map<string, { t: TestApp; p: BoardPlayer }>();

const world = inChromium(
  () => testApp({ settings: { devSignin: true }, now: "2026-11-18T12:00:00Z" }),
  async (t) => {
    const names = [
      "Technoblade_Fan",
      "MiningMarta",
      "Quiet_One",
      "Zed_Zero",
      "Kiri",
      "Hidden_Hal",
      "Bob_B",
      "Lowkey_Lu",
    ];
    for (const [i, name] of names.entries()) {
      const p = await boardPlayer(t, name, { findable: !name.startsWith("Hidden") && !name.startsWith("Quiet") });
      made.set(name, { t, p });
      t.clock.advance(1000);
      await upload(t, p, { "2026-11-17": { "kills.island.hub": 1200 - i * 130, "kills.island.spider_den": 40 * i } });
    }
  },
);

test("a board and the list, in both themes on a phone and a desktop", async () => {
  const { base, browser } = world;
  const { page, close } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  const res = await page.goto(`${base}/boards/kills`, { waitUntil: "load" });
  expect(res?.status()).toBe(200);
  await eachView(page, async (scheme, width) => {
    const rows = await page.$$eval("table.board-table tbody tr", (trs) => trs.map((tr) => tr.textContent ?? ""));
    expect(rows).toHaveLength(8);
    expect(rows.filter((r) => r.includes("A player"))).toHaveLength(2);
    expect(await page.$$eval("a[href^='/u/']", (as) => as.length)).toBe(6);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (pictured(scheme, width))
      await page.screenshot({ path: join(artifacts, `boards-kills-${width}-${scheme}.png`), fullPage: true });
  });
  expect((await page.goto(`${base}/boards`, { waitUntil: "load" }))?.status()).toBe(200);
  await eachView(page, async (scheme, width) => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (pictured(scheme, width))
      await page.screenshot({ path: join(artifacts, `boards-list-${width}-${scheme}.png`), fullPage: true });
  });
  await close();
});

// A player's rank badge in both themes (its own media query picks the colours) and their card, the
// link preview of their board address. Screenshots: boards-rank-badge-<scheme>.png, boards-rank-card.png.
test("a player's rank badge, light and dark, and their card", async () => {
  const { base, browser } = world;
  for (const scheme of ["light", "dark"] as const) {
    const { page, close } = await openPage(browser, {
      colorScheme: scheme,
      viewport: { width: 390, height: 120 },
    });
    const res = await page.goto(`${base}/u/MiningMarta/boards/kills/badge.svg`, { waitUntil: "load" });
    expect(res?.status()).toBe(200);
    expect(await res?.text()).toContain("#2 of 8 this week");
    await page.screenshot({ path: join(artifacts, `boards-rank-badge-${scheme}.png`) });
    await close();
  }
  const card = await fetch(`${base}/u/MiningMarta/boards/kills/card.png`);
  expect(card.status).toBe(200);
  await Bun.write(join(artifacts, "boards-rank-card.png"), await card.arrayBuffer());
  const preview = await (await fetch(`${base}/u/MiningMarta/boards/kills`)).text();
  expect(preview).toContain(`/u/MiningMarta/boards/kills/card.png`);
});

// The owner's own view of a board: their rank pinned and how to share their place (its address and
// badge). Screenshots: boards-owner-<width>-<scheme>.png, in the views `pictured` names.
test("the owner's view with their place to share, in both themes on a phone and a desktop", async () => {
  const { base, browser } = world;
  const { t, p } = made.get("MiningMarta")!;
  const { page, close } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(base + (await pageLink(t, p)), { waitUntil: "load" });
  const res = await page.goto(`${base}/u/MiningMarta/boards/kills`, { waitUntil: "load" });
  expect(res?.status()).toBe(200);
  await eachView(page, async (scheme, width) => {
    expect(await page.textContent("#share-h")).toBe("Share your place");
    expect(await page.$eval("section.badges img", (img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    if (pictured(scheme, width))
      await page.screenshot({ path: join(artifacts, `boards-owner-${width}-${scheme}.png`), fullPage: true });
  });
  await close();
});
