// Statistics pages (/u/<name>, /s/<key>, the owner's page link) in a real browser
// (browser-world.ts: the app, its seeded players and the checks every page gets), imported by its
// .browser.test.ts when chromium is there (test/support/browser.ts).
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { pageLink, MINING_DAYS, TODAY } from "./seed.ts";
import { addDays } from "../../src/wire/day.ts";
import { formatDay } from "../../src/web/format.ts";
import { artifacts, checkPage, pagesInChromium, visit, world } from "./browser-world.ts";
import { pictured } from "../support/browser.ts";

pagesInChromium();
let env: typeof world.env;
let base: string;
let findable: typeof world.findable;
let hidden: typeof world.hidden;
beforeAll(() => {
  ({ env, base, findable, hidden } = world);
});

/**
 * Moves the pointer over a day's place in a chart (the default 90-day range ending TODAY), half way
 * up the plot, and answers the text of the <title> of the element under it (null: none). With
 * `shot`, a screenshot of the chart while hovered (the day's column is highlighted).
 */
async function hoveredTitle(page: Page, svg: Locator, day: string, shot?: string): Promise<string | null> {
  await svg.scrollIntoViewIfNeeded();
  const box = (await svg.boundingBox())!;
  const from = addDays(TODAY, -89);
  const index = (Date.parse(day) - Date.parse(from)) / 86_400_000;
  // The viewBox is 308 wide from -4, the plot 300 wide from 0, 84 of 112 high.
  const scale = box.width / 308;
  await page.mouse.move(box.x + (4 + (index / 89) * 300) * scale, box.y + 40 * scale);
  if (shot)
    await svg.screenshot({
      path: join(
        artifacts,
        `${shot}-${(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)) ? "dark" : "light"}.png`,
      ),
    });
  const title = await page.evaluate(() => {
    const all = document.querySelectorAll(":hover");
    const hovered = all[all.length - 1];
    return hovered?.closest("g.days path")?.querySelector("title")?.textContent ?? null;
  });
  await page.mouse.move(0, 0);
  return title;
}

/** The checks of a statistics page with the seeded data. */
async function seeStats(page: Page) {
  // The statistics page: each group's section lists its figures with their lifetime value.
  const value = (key: string) => page.locator(`section.group tr[data-key="${key}"] td.num`).first().innerText();
  expect(await value("mining.blocks.total")).toBe("268,000");
  expect(await value("dungeon.best_split.F7.finish")).toBe("5 min 4 s");
  expect(await value("farming.purse.coins")).toBe("1,330,000 coins");
  expect(await value("tally.playtime.total")).toBe("6 h 15 min");
  expect(await value("fishing.trophy.GOLDEN_FISH")).toBe("4");
  // Each section is headed by its group and its count; the statistics page charts nothing.
  expect((await page.locator("h3#p-farming").innerText()).toLowerCase()).toBe("farming 1 figure");
  expect(await page.locator("figure.chart").count()).toBe(0);
  await seeTimelineAndSession(page);
  // A group's list page charts its largest: Blocks mined, nine observed days in three stretches, so
  // two gaps; a count is a bar a day, from zero, the axis labelled with its low and high, the latest
  // day marked.
  const back = page.url();
  await page.goto(`${back}${back.includes("?") ? "&" : "?"}scope=p&group=mining`);
  const figure = (label: string) =>
    page.locator(".figures li", { has: page.locator(".label", { hasText: new RegExp(`^${label}$`) }) }).first();
  expect(await figure("Blocks mined").locator(".value").innerText()).toBe("268,000");
  expect(await figure("Blocks mined").locator(".since").innerText()).toBe(
    `since ${formatDay(MINING_DAYS[0]!)}, including everything up to 30 April 2026`,
  );
  const svg = figure("Blocks mined").locator("figure.chart svg");
  expect(await svg.getAttribute("data-points")).toBe("9");
  expect(await svg.getAttribute("data-gaps")).toBe("2");
  expect(await svg.getAttribute("data-kind")).toBe("count");
  expect(((await svg.locator("path.bars").getAttribute("d")) ?? "").split("M").length - 1).toBe(9);
  expect(await svg.locator("text.low").textContent()).toBe("0");
  expect(await svg.locator("text.high").textContent()).toBe("3,000");
  expect(await svg.locator("text.latest").textContent()).toBe("latest 3,000");
  expect(await svg.boundingBox()).not.toBeNull();
  // Every observed day has a tooltip (its <title>) with the day and its value in the key's unit;
  // the pointer over a day's place in the chart is over that day's column.
  expect(await svg.locator("g.days path title").allTextContents()).toEqual(
    MINING_DAYS.map((day, i) => `${formatDay(day)}: ${(1000 + i * 250).toLocaleString("en-GB")}`),
  );
  expect(await hoveredTitle(page, svg, MINING_DAYS[3]!, "chart-hover")).toBe(`${formatDay(MINING_DAYS[3]!)}: 1,750`);
  // A day without an observation has no tooltip.
  expect(await hoveredTitle(page, svg, addDays(MINING_DAYS[2]!, 1))).toBeNull();
  await page.goto(`${back}${back.includes("?") ? "&" : "?"}scope=p&group=farming`);
  const purse = figure("Purse").locator("figure.chart svg");
  expect(await purse.locator("g.days path title").first().textContent()).toBe(
    `${formatDay(MINING_DAYS[0]!)}: 1,250,000 coins (low 1,250,000 coins, high 1,250,000 coins)`,
  );
  await page.goto(back);
}

/** The statistics page's timeline and latest session, with the seeded data. */
async function seeTimelineAndSession(page: Page) {
  // Timeline: known kinds by name, an unknown kind by its own words.
  expect(await page.locator("ol.timeline .kind").allInnerTexts()).toEqual([
    "Found a secret room",
    "Personal best",
    "Rare drop",
  ]);
  expect(await page.locator("ol.timeline .kind.unknown").count()).toBe(1);
  // The session: its length to the second, its gain and cost a short table with rates per hour.
  const sessions = page.locator('section[aria-labelledby="sessions-h"]');
  expect(await sessions.locator("p").first().innerText()).toContain("The latest session");
  const session = sessions.locator("li.session").first();
  expect(await session.locator("h3 .length").innerText()).toBe("25 min 42 s");
  expect(await session.locator("tbody tr").allInnerTexts()).toEqual([
    "Necron Handle\t1\t2.3 / h",
    "Purse spent\t\u221250,000 coins\t\u2212116,698 coins / h",
  ]);
}

describe("statistics pages", () => {
  test("/u/<name> of a findable player", async () => {
    await checkPage("stats-findable", `/u/${findable.name}`, { see: seeStats });
  });

  test("/s/<key>: the share link, marked noindex", async () => {
    await checkPage("stats-share", `/s/${findable.shareKey}`, {
      see: async (page) => {
        expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
        await seeStats(page);
        expect(await page.locator("main").innerText()).not.toContain(findable.name);
      },
    });
  });

  test("/u/<name> not findable: 404 like a name nobody holds", async () => {
    await checkPage("stats-not-findable", `/u/${hidden.name}`, {
      status: 404,
      see: async (page) => expect(await page.locator("h1").innerText()).toBe("Not found"),
    });
  });

  test("the owner's page link opens their page at its clean address, cookie kept", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const link = await pageLink(env.t, hidden.player);
      const v = await visit(link, scheme);
      try {
        expect(v.status).toBe(200);
        expect(v.page.url()).toBe(`${base}/u/${hidden.name}`);
        for (const url of v.requests) expect(url.startsWith(base + "/")).toBe(true);
        expect(v.errors).toEqual([]);
        expect(await v.page.locator(".note").innerText()).toContain("This is your own page");
        await seeStats(v.page);
        const cookies = await v.page.context().cookies();
        expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.path])).toEqual([
          ["tally_page", true, "Lax", `/u/${hidden.name}`],
        ]);
        expect(await v.page.evaluate(() => document.cookie)).toBe("");
        await v.page.reload();
        expect(await v.page.locator("h1").innerText()).toBe("Hidden_One's statistics");
        await v.page.screenshot({ path: join(artifacts, `stats-own-${scheme}.png`), fullPage: pictured(scheme, 1280) });
      } finally {
        await v.close();
      }
    }
  });

  test("a page link is spent by its first use: opened again in another browser, it is the 404", async () => {
    const link = await pageLink(env.t, hidden.player);
    const first = await visit(link, "light");
    try {
      expect(first.status).toBe(200);
    } finally {
      await first.close();
    }
    const again = await visit(link, "light");
    try {
      expect(again.status).toBe(404);
      expect(await again.page.locator("h1").innerText()).toBe("Not found");
      expect(await again.page.context().cookies()).toEqual([]);
      await again.page.screenshot({ path: join(artifacts, "stats-link-spent-light.png"), fullPage: true });
    } finally {
      await again.close();
    }
  });
});
