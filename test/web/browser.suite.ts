// The pages in a real browser (Debian's chromium through playwright-core; imported by
// browser.test.ts when chromium is there, see test/support/browser.ts): what a person sees,
// that no request leaves for another host, no console errors, and a screenshot of each page in
// both themes under test/artifacts/ (git-ignored).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(240_000); // a page is opened four times (two themes, desktop and phone) on a busy machine
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { pageEnv, alice, empty, stale } from "./env.ts";
import {
  seedPlayer,
  seedPeriodPlayer,
  pageLink,
  LONG_ITEM,
  MINING_DAYS,
  PERIOD_OFFSETS,
  TODAY,
  type Seeded,
} from "./seed.ts";
/** The long item id as a page names it (no item list holds it: its words in title case). */
const LONG_ITEM_WORDS = "Enchanted Golden Carrot Of The Mountain King Supreme Edition";
import { addDays } from "../../src/wire/day.ts";
import { formatDay } from "../../src/web/format.ts";
import { servedInChromium, type Served } from "../support/browser.ts";
import { listen } from "../../src/http/serve.ts";

const artifacts = join(import.meta.dir, "../artifacts");
mkdirSync(artifacts, { recursive: true });

let env: Awaited<ReturnType<typeof pageEnv>>;
let served: Served;
let browser: Browser;
let base: string;
let findable: Seeded;
let hidden: Seeded;

beforeAll(async () => {
  env = await pageEnv();
  findable = await seedPlayer(env.t, { name: "Steve_Stats", findable: true, share: true });
  hidden = await seedPlayer(env.t, { name: "Hidden_One" });
  served = await servedInChromium(env.t);
  ({ base, browser } = served);
});

afterAll(async () => {
  await served?.close();
  await env?.close();
});

type Visit = { page: Page; status: number; requests: string[]; errors: string[]; close(): Promise<void> };

/** Opens a page in a fresh context of the given theme, recording every request and console error. */
async function visit(
  path: string,
  scheme: "light" | "dark",
  setup?: (page: Page) => Promise<void>,
  width = 1280,
): Promise<Visit> {
  const context = await browser.newContext({ colorScheme: scheme, viewport: { width, height: 800 } });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  if (setup) await setup(page);
  const res = await page.goto(base + path, { waitUntil: "load" });
  return { page, status: res?.status() ?? 0, requests, errors, close: () => context.close() };
}

/** Nothing is wider than the screen: the page never pans sideways (issue 34). */
async function expectNoSideways(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** The checks every page gets, and its screenshots in both themes, on a desktop and on a phone (390 px). */
async function checkPage(
  name: string,
  path: string,
  opts: { status?: number; see?: (page: Page) => Promise<void>; setup?: (page: Page) => Promise<void> } = {},
) {
  for (const [scheme, width] of [
    ["light", 1280],
    ["dark", 1280],
    ["light", 390],
    ["dark", 390],
  ] as const) {
    const v = await visit(path, scheme, opts.setup, width);
    const shot = width === 390 ? `${name}-390` : name;
    try {
      expect(v.status).toBe(opts.status ?? 200);
      expect(v.requests.length).toBeGreaterThan(0);
      for (const url of v.requests) expect(url.startsWith(base + "/") || url.startsWith("data:")).toBe(true);
      // A page answered 404 or 503 on purpose: the browser notes the status of the document itself.
      const errors = v.errors.filter(
        (e) => !(opts.status && opts.status >= 400 && e.includes(`status of ${opts.status}`)),
      );
      expect(errors).toEqual([]);
      expect(await v.page.locator("main h1").count()).toBe(1);
      if (opts.see) await opts.see(v.page);
      await expectNoSideways(v.page);
      // A long page also gets its first screen, legible at a glance; a very long page (the API
      // reference: 78 000 px on a desktop, 131 000 on a phone) gets only that: a whole one took
      // chromium 6-7 s a theme and is no picture anyone can read (its ingest route has its own).
      const height = await v.page.evaluate(() => document.documentElement.scrollHeight);
      if (height <= 12_000)
        await v.page.screenshot({ path: join(artifacts, `${shot}-${scheme}.png`), fullPage: true, timeout: 120_000 });
      if (height > 3000) await v.page.screenshot({ path: join(artifacts, `${shot}-${scheme}-top.png`) });
    } finally {
      await v.close();
    }
  }
}

describe("the mod's pages", () => {
  const pages: [string, string, string][] = [
    ["home", "/", "Your own numbers, kept by you"],
    ["features", "/features", "Features"],
    ["fork", "/fork", "Run your own copy"],
    ["changelog", "/changelog", "Changelog"],
    ["docs", "/docs/", "Docs"],
    ["docs-statistics", "/docs/statistics", "How statistics work"],
    ["docs-api", "/docs/api", "API reference"],
    ["privacy", "/assets/privacy.html", "Privacy"],
  ];
  for (const [name, path, heading] of pages) {
    test(`${path} shows "${heading}" with our own stylesheet only`, async () => {
      await checkPage(name, path, {
        see: async (page) => {
          expect(await page.locator("main h1").innerText()).toBe(heading);
          // The stylesheet applied: the body font is the system stack, not the browser default serif.
          expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain("system-ui");
          expect(await page.locator('nav[aria-label="Site"] a[aria-current="page"]').count()).toBe(
            path === "/docs/statistics" || path === "/docs/api" ? 1 : 1,
          );
        },
      });
    });
  }

  test("the keyboard reaches a visible skip link first, then the site navigation", async () => {
    const v = await visit("/", "light");
    try {
      await v.page.keyboard.press("Tab");
      expect(await v.page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
      const box = await v.page.locator("a.skip").boundingBox();
      expect(box && box.x >= 0 && box.y >= 0).toBe(true);
      expect(await v.page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe("solid");
      await v.page.keyboard.press("Tab");
      expect(await v.page.evaluate(() => document.activeElement?.textContent)).toBe("tally");
      expect(await v.page.locator("header nav[aria-label]").count()).toBe(1);
      expect(await v.page.locator("main").count()).toBe(1);
      expect(await v.page.locator("footer").count()).toBe(1);
    } finally {
      await v.close();
    }
  });

  test("the look-up form on the home page opens a profile", async () => {
    const v = await visit("/", "light");
    try {
      await v.page.getByLabel("Player name").fill(alice.name);
      await v.page.getByRole("button", { name: "Show profile" }).click();
      await v.page.waitForURL(`${base}/p/${alice.name}`);
      expect(await v.page.locator("main h1").innerText()).toBe(alice.name);
      expect(v.errors).toEqual([]);
      for (const url of v.requests) expect(url.startsWith(base + "/")).toBe(true);
    } finally {
      await v.close();
    }
  });

  test("the API reference shows the ingest route's body, answer and refusals", async () => {
    const v = await visit("/docs/api", "light");
    try {
      const ingest = v.page.locator("article.api-op", { has: v.page.locator("h3", { hasText: "/v1/stats/ingest" }) });
      expect(await ingest.count()).toBe(1);
      expect(await ingest.locator("h3 .badge").innerText()).toBe("token");
      const body = ingest.locator("table", { has: v.page.locator("caption", { hasText: "request body" }) });
      const fields = await body.locator("tbody td:first-child code").allInnerTexts();
      expect(fields).toEqual(expect.arrayContaining(["batchId", "client.install", "counters[].rows[].k"]));
      expect(await ingest.locator("table.refusals").innerText()).toContain("day_too_far_ahead");
      await ingest.locator("details summary").first().click();
      expect(await ingest.locator("details pre").first().innerText()).toContain('"batchId"');
      await ingest.screenshot({ path: join(artifacts, "docs-api-ingest.png") });
    } finally {
      await v.close();
    }
  });
});

describe("public profile pages", () => {
  test("a player's profiles, with the head through our own proxy", async () => {
    await checkPage("profile", `/p/${alice.name}`, {
      see: async (page) => {
        const head = page.locator("main img");
        expect(await head.getAttribute("src")).toBe(`/v1/assets/head/${alice.uuid}.png`);
        expect(await head.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
        expect(await page.locator("section.card h2").allInnerTexts()).toEqual(["Apple", "Banana (selected)"]);
        expect(await page.locator("main").innerText()).toContain("306,332,274 coins"); // the recorded purse
      },
    });
  });

  test("a player without profiles says so", async () => {
    await checkPage("profile-none", `/p/${empty.name}`, {
      see: async (page) => expect(await page.locator("main").innerText()).toContain("has no profiles"),
    });
  });

  test("an unknown player answers 404", async () => {
    await checkPage("profile-unknown", "/p/Nobody_Here", {
      status: 404,
      see: async (page) => expect(await page.locator("h1").innerText()).toBe("No such player"),
    });
  });

  test("the game API down: the last answer, with its age", async () => {
    const v = await visit(`/p/${stale.name}`, "light"); // fills the cache
    await v.close();
    env.t.clock.advance(3 * 3_600_000);
    env.game.state.failure = "cloudflare502";
    try {
      await checkPage("profile-stale", `/p/${stale.name}`, {
        see: async (page) => {
          expect(await page.locator(".note").innerText()).toContain("This is what it said 3 hours ago");
          expect(await page.locator("section.card h2").allInnerTexts()).toEqual(["Kiwi (selected)"]);
        },
      });
    } finally {
      env.game.state.failure = "none";
      env.t.clock.advance(-3 * 3_600_000);
    }
  });
});

describe("a service without a game API key", () => {
  test("/p/<name> answers 503 and says why", async () => {
    const bare = await pageEnv({ settings: { gameApiKey: "" }, database: env.t.database });
    const other = listen(bare.t.app, { host: "127.0.0.1", port: 0, graceMs: 1000, log: bare.t.log });
    const saved = base;
    base = `http://127.0.0.1:${other.port}`;
    try {
      await checkPage("profile-no-key", `/p/${alice.name}`, {
        status: 503,
        see: async (page) => {
          expect(await page.locator("h1").innerText()).toBe("Profiles are not available here yet");
          expect(await page.locator("main").innerText()).toContain("no game API key");
        },
      });
    } finally {
      base = saved;
      await other.stop("done");
      await bare.close();
    }
  });
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
        await v.page.screenshot({ path: join(artifacts, `stats-own-${scheme}.png`), fullPage: true });
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

describe("periods, the calendar, charts and rates", () => {
  let pat: Seeded;
  beforeAll(async () => {
    pat = await seedPeriodPlayer(env.t, "Period_Pat");
  });
  // What the seed put on each day (see seedPeriodPlayer), to check the page's sums against.
  const days = PERIOD_OFFSETS.map((o, i) => ({ day: addDays(TODAY, o), mined: 600 + ((i * 37) % 23) * 60 }));
  const mined = (from: string, to: string) =>
    days.filter((d) => d.day >= from && d.day <= to).reduce((n, d) => n + d.mined, 0);
  const number = (n: number) => n.toLocaleString("en-GB");

  for (const width of [1280, 390]) {
    test(`the period view, the calendar, the charts and the rates at ${width} px`, async () => {
      for (const scheme of ["light", "dark"] as const) {
        const v = await visit(`/u/${pat.name}?period=month&range=30`, scheme, undefined, width);
        const shot = (name: string) => join(artifacts, `${name}-${width}-${scheme}.png`);
        try {
          const { page } = v;
          expect(v.status).toBe(200);
          for (const url of v.requests) expect(url.startsWith(base + "/")).toBe(true);
          expect(v.errors).toEqual([]);
          await page.screenshot({ path: shot("stats-periods"), fullPage: true });
          // Nothing is wider than the screen.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

          // Periods: this month so far (1 June) against the same stretch of May (1 May), by kind: the
          // headline figures' table on the statistics page, every figure's on its group's list.
          const table = page.locator("table.periods").first();
          expect(await table.getAttribute("data-period")).toBe("month");
          expect(await page.locator("#periods-h ~ p").first().innerText()).toContain(
            "This month so far (1 June 2026) against the same days of last month (1 May 2026), like with like",
          );
          expect(await page.locator('nav[aria-label="Period"] a[aria-current="page"]').innerText()).toBe("Month");
          await page
            .locator("#periods-h")
            .locator("xpath=..")
            .screenshot({ path: shot("periods") });

          // The calendar: the seeded days are active cells with their tooltips; the other days of 53
          // weeks up to today are one shared path of empty cells.
          const calendar = page.locator("figure.calendar svg");
          expect(await calendar.getAttribute("data-active")).toBe(String(PERIOD_OFFSETS.length));
          expect(await calendar.locator("rect[data-day]").count()).toBe(PERIOD_OFFSETS.length);
          expect(await calendar.locator(`rect[data-day="${TODAY}"] title`).textContent()).toBe(
            `${formatDay(TODAY)}: 5 statistics recorded`,
          );
          const gap = addDays(TODAY, -44 + 3);
          expect(await calendar.locator(`rect[data-day="${gap}"]`).count()).toBe(0);
          expect(((await calendar.locator("path.c0").getAttribute("d")) ?? "").split("M").length - 1).toBe(
            52 * 7 + 1 - PERIOD_OFFSETS.length,
          );
          await page.locator("figure.calendar").screenshot({ path: shot("calendar") });
          const stats = page.url();
          const list = async (group: string) => {
            await page.goto(`${stats}&scope=p&group=${group}`);
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          };

          // A group's list: lifetime, this month, the change ("new": 1 May had nothing recorded).
          await list("mining");
          const row = (key: string) => page.locator(`table.key-list tr[data-key="${key}"] td`);
          const june = mined("2026-06-01", "2026-06-01");
          expect((await row("mining.blocks.total").allInnerTexts()).slice(1)).toEqual([number(june), "new"]);
          // Charts: the count as bars, the purse as a line in its low-high band, the best hit as points.
          const chart = (label: string) =>
            page.locator(".figures li", { has: page.locator(".label", { hasText: new RegExp(`^${label}$`) }) }).first();
          const bars = chart("Blocks mined").locator("svg");
          expect(((await bars.locator("path.bars").getAttribute("d")) ?? "").split("M").length - 1).toBe(
            days.filter((d) => d.day >= addDays(TODAY, -29)).length,
          );
          await chart("Blocks mined").screenshot({ path: shot("chart-count") });
          await list("farming");
          expect((await row("farming.purse.coins").allInnerTexts())[1]).toBe(
            `${number(1_000_000 + (PERIOD_OFFSETS.length - 1) * 15_000)} coins`,
          );
          const purse = chart("Purse").locator("svg");
          expect(await purse.getAttribute("data-kind")).toBe("gauge");
          expect(await purse.locator("path.band").count()).toBeGreaterThan(0);
          const i = PERIOD_OFFSETS.length - 1;
          expect(await purse.locator("g.days path title").last().textContent()).toBe(
            `${formatDay(TODAY)}: ${number(1_000_000 + i * 15_000)} coins (low ${number(1_000_000 + i * 15_000 - 60_000)} coins, high ${number(1_000_000 + i * 15_000 + 40_000)} coins)`,
          );
          await purse.screenshot({ path: shot("chart-gauge") });
          await list("kills");
          expect(await chart("Biggest hit").locator("svg").getAttribute("data-kind")).toBe("max");
          const points = (await chart("Biggest hit").locator("svg path.points").getAttribute("d")) ?? "";
          expect(points.split("M").length - 1).toBe(days.filter((d) => d.day >= addDays(TODAY, -29)).length);
          await chart("Biggest hit").screenshot({ path: shot("chart-max") });
          await list("loot");
          // The long item id wraps inside the list rather than widen the page.
          const long = page.locator(`table.key-list tr[data-key="loot.item.${LONG_ITEM}"] th`);
          expect((await long.boundingBox())!.width).toBeLessThan(width);
          await page.goto(stats);

          // Rates: mining 6 000 blocks in 3 hours; a dungeon run of 50 minutes with 2 drops and 100 000 coins spent.
          const rates = page.locator("table.rates");
          expect(await rates.locator('tr[data-activity="mining"] td').allInnerTexts()).toEqual([
            "3 h 0 min\n2 sessions",
            "Blocks mined: 2,000 / h",
            "none",
          ]);
          expect(await rates.locator('tr[data-activity="dungeon"] td').allInnerTexts()).toEqual([
            "50 min\n1 session",
            `Purse: 300,000 coins / h\nNecron Handle: 2.4 / h\n${LONG_ITEM_WORDS}: 1.2 / h`,
            "Purse: 120,000 coins / h",
          ]);
          // The latest session: a short table of gains and costs with rates per hour, and net coins an hour.
          const session = page.locator("li.session").first();
          expect(await session.locator("h3").innerText()).toContain("Dungeon");
          expect(await session.locator("h3 .length").innerText()).toBe("50 min");
          expect(await session.locator("tbody tr").allInnerTexts()).toEqual([
            "Necron Handle\t2\t2.4 / h",
            `${LONG_ITEM_WORDS}\t1\t1.2 / h`,
            "Purse\t250,000 coins\t300,000 coins / h",
            "Purse spent\t\u2212100,000 coins\t\u2212120,000 coins / h",
          ]);
          expect(await session.locator("tfoot tr").innerText()).toBe("Net coins\t+150,000 coins\t+180,000 coins / h");
          await session.screenshot({ path: shot("session") });
          await page
            .locator("#rates-h")
            .locator("xpath=..")
            .screenshot({ path: shot("rates") });
          await page.screenshot({ path: shot("stats-periods"), fullPage: true });
        } finally {
          await v.close();
        }
      }
    });
  }

  test("on a Wednesday, the week so far against last week's Monday to Wednesday", async () => {
    env.t.clock.advance(2 * 86_400_000); // Wednesday 3 June
    try {
      for (const [scheme, width] of [
        ["light", 1280],
        ["dark", 1280],
        ["light", 390],
        ["dark", 390],
      ] as const) {
        const v = await visit(`/u/${pat.name}`, scheme, undefined, width);
        try {
          expect(v.status).toBe(200);
          expect(v.errors).toEqual([]);
          await expectNoSideways(v.page);
          const table = v.page.locator("table.periods").first();
          expect(await table.getAttribute("data-period")).toBe("week");
          expect(await v.page.locator("#periods-h ~ p").first().innerText()).toContain(
            "This week so far (1 June 2026 to 3 June 2026) against the same days of last week (25 May 2026 to 27 May 2026), like with like",
          );
          expect(await table.locator("thead th").nth(2).innerText()).toBe("Last week (same days)");
          // Nothing was recorded on 2 and 3 June: this week is 1 June's, against 25 to 27 May.
          expect((await table.locator('tr[data-key="mining.blocks.total"] td').allInnerTexts()).slice(0, 2)).toEqual([
            number(mined("2026-06-01", "2026-06-03")),
            number(mined("2026-05-25", "2026-05-27")),
          ]);
          // Better and worse: by kind (a lower fastest time is better), in the theme's colour and in words.
          const changes = await v.page.evaluate(() => {
            const colourOf = (value: string) => {
              const probe = document.body.appendChild(document.createElement("span"));
              probe.style.color = value;
              const c = getComputedStyle(probe).color;
              probe.remove();
              return c;
            };
            const better = colourOf("var(--better)");
            const worse = colourOf("var(--worse)");
            return Array.from(document.querySelectorAll("table.periods tr[data-key]")).map((tr) => {
              const cells = Array.from(tr.querySelectorAll("td"));
              const td = tr.querySelector("td.change")!;
              const judged = td.classList.contains("better")
                ? "better"
                : td.classList.contains("worse")
                  ? "worse"
                  : null;
              const colour = getComputedStyle(td).color;
              return {
                key: tr.getAttribute("data-key")!,
                judged,
                cue: td.querySelector(".cue")?.textContent ?? null,
                coloured: judged === null ? null : colour === (judged === "better" ? better : worse),
                // "4 min 36 s" as seconds (a count's digits read as one number).
                values: cells.slice(0, 2).map((c) => {
                  const text = c.textContent ?? "";
                  const units: Record<string, number> = { d: 86_400, h: 3600, min: 60, s: 1, ms: 0.001 };
                  const parts = [...text.matchAll(/([\d.,]+)\s*(d|h|min|ms|s)\b/g)];
                  return parts.length === 0
                    ? Number(text.replace(/[^0-9]/g, ""))
                    : parts.reduce((n, m) => n + Number(m[1]!.replace(/,/g, "")) * units[m[2]!]!, 0);
                }),
                distinct: better !== worse,
              };
            });
          });
          expect(changes.filter((c) => c.judged !== null).length).toBeGreaterThan(0);
          for (const c of changes) {
            expect(c.distinct).toBe(true);
            if (c.judged === null) expect(c.cue).toBeNull();
            else
              expect({ key: c.key, cue: c.cue, coloured: c.coloured }).toEqual({
                key: c.key,
                cue: c.judged === "better" ? "\u25b2 better" : "\u25bc worse",
                coloured: true,
              });
          }
          // The fastest finish: lower this week than on last week's same days is better.
          const fastest = changes.find((c) => c.key === "dungeon.best_split.F7.finish");
          if (fastest?.judged)
            expect(fastest.judged).toBe(fastest.values[0]! < fastest.values[1]! ? "better" : "worse");
          // Its group's list has every figure of the group, the change in the same colours and words:
          // a fall in time ("\u22126 s") is better, a rise worse.
          const listed = await v.page.context().newPage();
          try {
            await listed.goto(`${base}/u/${pat.name}?scope=p&group=dungeons`);
            const cell = listed.locator('table.key-list tr[data-key="dungeon.best_split.F7.finish"] td.change');
            const text = await cell.innerText();
            const judged = (await cell.getAttribute("class"))!.split(" ").find((c) => c === "better" || c === "worse");
            expect(judged).toBeDefined();
            expect({ text, judged }).toEqual({ text, judged: text.startsWith("\u2212") ? "better" : "worse" });
            // Coloured as in the period table, not the text's own colour.
            const coloured = await cell.evaluate((td, j) => {
              const probe = document.body.appendChild(document.createElement("span"));
              probe.style.color = `var(--${j})`;
              const want = getComputedStyle(probe).color;
              probe.remove();
              return getComputedStyle(td).color === want;
            }, judged!);
            expect(coloured).toBe(true);
          } finally {
            await listed.close();
          }
          await v.page
            .locator("#periods-h")
            .locator("xpath=..")
            .screenshot({ path: join(artifacts, `periods-wednesday-${width}-${scheme}.png`) });
        } finally {
          await v.close();
        }
      }
    } finally {
      env.t.clock.advance(-2 * 86_400_000);
    }
  });
});
