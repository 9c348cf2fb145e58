// Phones (issue 34): no public page pans sideways at 320, 390 or 414 px (scrollWidth <= innerWidth)
// — the site's pages and docs, the changelog, the boards, a findable statistics page with its
// sessions, its list pages, a share page, a shared recap, the 404 — and a figure's raw key is one
// tap away (the label takes focus and shows it), not only a hover. Screenshots of a session and the
// share page at 390 and 1280 px in both themes under test/artifacts/phones-*.png.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(120_000);
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../support/app.ts";
import { eachView, servedInChromium, type Served, openPage } from "../support/browser.ts";
import { boardPlayer, upload } from "../boards/support.ts";
import { seedRecapPlayer } from "../recaps/seed-recap.ts";
import { pageLink, patchSettings } from "./seed.ts";
import { addDays, dayIn } from "../../src/wire/day.ts";
import { PROFILE, envelope } from "../support/uploads.ts";
import { pageEnv } from "./env.ts";
import { refreshItemList } from "../../src/items/item-names.ts";

const artifacts = join(import.meta.dir, "../artifacts");
mkdirSync(artifacts, { recursive: true });
const NAME = "Phone_Reader_16c";

let env: Awaited<ReturnType<typeof pageEnv>>;
let t: TestApp;
let served: Served;
let browser: Browser;
let base: string;
const paths: string[] = [];

beforeAll(async () => {
  // The pages' world (fake game API for /p/ and the item list; the fixture catalogue, whose
  // farming.purse.coins has the coins unit, so a session nets its coins).
  env = await pageEnv();
  t = env.t;
  await refreshItemList({ ...t, log: t.log });
  const owner = await seedRecapPlayer(t, NAME, { year: true });
  const cookie = (await t.request(await pageLink(t, owner))).headers.get("set-cookie")!.split(";")[0]!;
  const recaps: string[] = [];
  for (const period of ["2026-10", "2026"]) {
    await t.request(`/u/${NAME}/recap/${period}/share`, {
      method: "POST",
      headers: { cookie, origin: t.config.baseUrl },
    });
    const html = await (await t.request(`/u/${NAME}/recap/${period}`, { headers: { cookie } })).text();
    recaps.push(html.match(/href="(\/r\/[A-Za-z0-9_-]{32})"/)![1]!);
  }
  // A session as a player reads it: its length to the second, gains and costs with rates, net coins.
  const day = addDays(dayIn("Europe/Berlin", t.clock.now()), -1);
  const started = Date.parse(`${day}T15:00:00Z`);
  const sent = await owner.send(
    envelope(t, {
      profile: { id: PROFILE, cuteName: "Pomegranate" },
      counters: [{ profileId: PROFILE, scope: "day", day, rows: [{ k: "mining.blocks.total", v: 900 }] }],
      sessions: [
        {
          id: "phone-session",
          activity: "dungeon",
          day,
          startedAt: started,
          endedAt: started + 25 * 60_000 + 42_444,
          gains: [
            { k: "loot.item.ENCHANTED_GOLDEN_CARROT_OF_THE_MOUNTAIN_KING_SUPREME_EDITION", v: 2 },
            { k: "loot.item.WISE_WITHER_LEGGINGS", v: 1 },
            { k: "farming.purse.coins", v: 1_850_000 },
          ],
          costs: [{ k: "farming.purse.coins", v: 420_000 }],
        },
      ],
    }),
  );
  expect(sent.status).toBe(200);
  // Findable and shared, so its page, its lists and its share page are public.
  await patchSettings(t, owner, { findable: true });
  const share = (await (await t.request("/v1/stats/share/rotate", { method: "POST", headers: owner.auth })).json()) as {
    shareUrl: string;
  };
  const shareKey = share.shareUrl.split("/s/")[1]!;
  // A board with a few findable players (long names among them).
  const yesterday = addDays(dayIn("Europe/Berlin", t.clock.now()), -1);
  for (const [i, name] of ["Technoblade_Fan1", "MiningMarta", "Hidden_Hal"].entries()) {
    const p = await boardPlayer(t, name, { findable: !name.startsWith("Hidden") });
    t.clock.advance(1000);
    await upload(t, p, { [yesterday]: { "kills.island.hub": 1200 - i * 130, "kills.island.spider_den": 40 * i } });
  }
  const page = await (await t.request(`/u/${NAME}`)).text();
  // The page's own list pages (a group's every figure), as a visitor follows them, when it has any.
  const lists = [...new Set([...page.matchAll(/href="(\/u\/[^"?]+\?[^"]*group=[^"]*)"/g)].map((m) => m[1]!))].slice(
    0,
    2,
  );
  paths.push(
    "/",
    "/features",
    "/fork",
    "/changelog",
    "/docs/",
    "/docs/statistics",
    "/docs/uploads",
    "/docs/tokens",
    "/docs/moving",
    "/docs/protocol",
    "/docs/architecture",
    "/docs/api",
    "/boards",
    "/boards/kills",
    "/p/Alice_01",
    `/u/${NAME}`,
    `/u/${NAME}?period=month`,
    ...lists.map((l) => l.replaceAll("&amp;", "&")),
    `/s/${shareKey}`,
    ...recaps,
    "/no/such/page",
    "/admin",
  );
  served = await servedInChromium(t);
  ({ base, browser } = served);
});

afterAll(async () => {
  await served?.close();
  await env?.close();
});

/** What sticks out past the right edge (for a failure that says where). */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const w = window.innerWidth;
    return Array.from(document.querySelectorAll("body *"))
      .filter((e) => e.getBoundingClientRect().right > w + 0.5)
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)} px)`);
  });

describe("no page pans sideways", () => {
  // Each page is loaded once and narrowed in place: the pages have no script, so a page resized is
  // laid out as the page loaded at that width (test/support/browser.ts, eachView).
  test("at 320, 390 and 414 px", async () => {
    const { page, close } = await openPage(browser, { viewport: { width: 320, height: 800 } });
    try {
      for (const path of paths) {
        await page.setViewportSize({ width: 320, height: 800 });
        const res = await page.goto(base + path, { waitUntil: "load" });
        expect({ path, status: res?.status() }).toEqual({
          path,
          status: path === "/no/such/page" || path === "/admin" ? 404 : 200,
        });
        for (const width of [320, 390, 414]) {
          await page.setViewportSize({ width, height: 800 });
          const { scrollWidth, innerWidth } = await page.evaluate(() => ({
            scrollWidth: document.documentElement.scrollWidth,
            innerWidth: window.innerWidth,
          }));
          const wide = scrollWidth > innerWidth ? await overflowing(page) : [];
          expect({ path, width, innerWidth, scrollWidth, wide }).toEqual({
            path,
            width,
            innerWidth: width,
            scrollWidth: Math.min(scrollWidth, innerWidth),
            wide: [],
          });
        }
      }
    } finally {
      await close();
    }
  });
});

describe("a phone's first screen", () => {
  test("holds the headline figures and the period's summary (a 390 x 844 screen)", async () => {
    const { page, close } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    try {
      await page.goto(`${base}/u/${NAME}`, { waitUntil: "load" });
      const bottom = async (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((e) => e.getBoundingClientRect().bottom);
      await page.screenshot({ path: join(artifacts, "phones-first-screen.png") });
      // The headline's figures, the period's tabs, its summary sentence and the table's first row.
      for (const selector of [
        'section[aria-label="Headline figures"]',
        'nav[aria-label="Period"]',
        "#periods-h ~ p",
        "table.periods tbody tr",
      ])
        expect({ selector, onScreen: (await bottom(selector)) <= 844 }).toEqual({ selector, onScreen: true });
    } finally {
      await close();
    }
  });
});

describe("the raw key on a phone", () => {
  test("a tap on a figure's label shows its key, without script", async () => {
    const { page, close } = await openPage(browser, {
      viewport: { width: 390, height: 800 },
      hasTouch: true,
      javaScriptEnabled: false,
    });
    try {
      await page.goto(`${base}/u/${NAME}`, { waitUntil: "load" });
      const label = page.locator('li[data-key="mining.blocks.total"] .label').first();
      await label.tap();
      const shown = await label.evaluate((e) => getComputedStyle(e, "::after").content);
      expect(shown).toContain("mining.blocks.total");
      await label.screenshot({ path: join(artifacts, "phones-key-tap.png") });
      // The same in a period table's row and a session's gains.
      for (const selector of ["table.periods tr[data-key] th[title]", "table.amounts th[title]"]) {
        const name = page.locator(selector).first();
        const key = (await name.getAttribute("title"))!;
        await name.tap();
        expect(await name.evaluate((e) => getComputedStyle(e, "::after").content)).toContain(key);
        await name
          .locator("xpath=ancestor::table[1]")
          .screenshot({ path: join(artifacts, `phones-key-tap-${selector.split(" ")[0]}.png`) });
      }
    } finally {
      await close();
    }
  });
});

describe("screenshots", () => {
  test("a session and the share page, in both themes on a phone and a desktop", async () => {
    const { page, close } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(`${base}/u/${NAME}`, { waitUntil: "load" });
      await eachView(
        page,
        async (scheme, width) => {
          await page
            .locator('li.session[data-activity="dungeon"]:has(tr.net)')
            .first()
            .screenshot({ path: join(artifacts, `phones-session-${width}-${scheme}.png`) });
        },
        900,
      );
      const share = paths.find((p) => p.startsWith("/s/"))!;
      await page.goto(base + share, { waitUntil: "load" });
      await eachView(
        page,
        async (scheme, width) => {
          await page.screenshot({ path: join(artifacts, `phones-share-${width}-${scheme}.png`) });
        },
        900,
      );
      // The card of a 16-character name (the share page's card names nobody; the page by name's does).
      await Bun.write(
        join(artifacts, "phones-card-16.png"),
        await (await fetch(`${base}/u/${NAME}/card.png`)).arrayBuffer(),
      );
    } finally {
      await close();
    }
  });
});
