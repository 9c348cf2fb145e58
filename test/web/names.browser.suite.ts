// Names, not ids (issue 34), in chromium at a phone's width (390 px) and a desktop's (1280 px): the
// game's item names with their pictures, pets and islands in words, unknown keys keeping their
// namespace so no two rows of one list read the same, the raw key a hover away; the share page and
// the styled 404. Screenshots under test/artifacts/names-*.png.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(60_000);
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { pageEnv } from "./env.ts";
import { seedPlayer, MINING_DAYS, type Seeded } from "./seed.ts";
import { PROFILE, envelope } from "../support/uploads.ts";
import { fakeImageServer, itemPng } from "../support/fakes/skins.ts";
import { openPage, type Served, servedInChromium } from "../support/browser.ts";
import { refreshItemList } from "../../src/items/item-names.ts";

const artifacts = join(import.meta.dir, "../artifacts");
mkdirSync(artifacts, { recursive: true });

const ITEMS = [
  "loot.item.WISE_WITHER_LEGGINGS",
  "loot.item.TANK_DUNGEON_ABILITY_2",
  "loot.item.SKULL_ITEM:4",
  "loot.item.PET;ENDER_DRAGON;4",
  "loot.item.ENCHANTED_PRISMARINE_CRYSTALS",
];
const SKILLS = ["mining.skill.xp", "farming.skill.xp", "fishing.skill.xp", "foraging.skill.xp"];

let env: Awaited<ReturnType<typeof pageEnv>>;
let images: ReturnType<typeof fakeImageServer>;
let served: Served;
let browser: Browser;
let base: string;
let player: Seeded;

beforeAll(async () => {
  images = fakeImageServer();
  for (const id of ["WISE_WITHER_LEGGINGS", "TANK_DUNGEON_ABILITY_2", "SKULL_ITEM%3A4", "PET%3BENDER_DRAGON%3B4"])
    images.files.set(`/${id}.png`, itemPng(16));
  env = await pageEnv({ settings: { itemImagesUrl: images.url } });
  await refreshItemList({ ...env.t, log: env.t.log });
  player = await seedPlayer(env.t, { name: "Item_Viewer", findable: true, share: true });
  env.t.clock.advance(60_000);
  const rows = [
    ...ITEMS.map((k, i) => ({ k, v: i + 1 })),
    ...SKILLS.map((k, i) => ({ k, v: 1000 * (i + 1) })),
    { k: "kills.island.combat_3", v: 12 },
  ];
  const res = await player.player.send(
    envelope(env.t, {
      profile: { id: PROFILE, cuteName: "Pomegranate" },
      counters: [{ profileId: PROFILE, scope: "day", day: MINING_DAYS[8]!, rows }],
    }),
  );
  expect(res.status).toBe(200);
  served = await servedInChromium(env.t);
  ({ base, browser } = served);
});

afterAll(async () => {
  await served?.close();
  await env?.close();
  await images?.stop();
});

async function open(path: string, width: number): Promise<{ page: Page; status: number; close(): Promise<void> }> {
  const { page, close } = await openPage(browser, { viewport: { width, height: 900 } });
  const res = await page.goto(base + path, { waitUntil: "load" });
  return { page, status: res?.status() ?? 0, close };
}

/** The labels of every list and table of the page, list by list (a row's label, else its first cell). */
const labelsByList = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll("ul.figures, table")).map((list) =>
      Array.from(list.querySelectorAll("li[data-key], tbody tr")).map((row) =>
        ((row.querySelector(".label") ?? row.querySelector("th, td"))?.textContent ?? "").trim(),
      ),
    ),
  );

for (const width of [390, 1280]) {
  describe(`at ${width} px`, () => {
    test("items by the game's names with their pictures; pets, islands and skills in words; no two rows alike", async () => {
      // Every figure of the profile, by name: the list the page's search form asks for.
      const v = await open("/u/Item_Viewer?scope=p&sort=name", width);
      try {
        expect(v.status).toBe(200);
        const label = (key: string) => v.page.locator(`[data-key="${key}"] .label`).first();
        expect(await label("loot.item.WISE_WITHER_LEGGINGS").innerText()).toBe("Storm's Leggings");
        expect(await label("loot.item.TANK_DUNGEON_ABILITY_2").innerText()).toBe("Absorption Potion");
        expect(await label("loot.item.SKULL_ITEM:4").innerText()).toBe("Creeper Skull");
        expect(await label("loot.item.PET;ENDER_DRAGON;4").innerText()).toBe("Ender Dragon (Legendary)");
        expect(await label("loot.item.ENCHANTED_PRISMARINE_CRYSTALS").innerText()).toBe(
          "Enchanted Prismarine Crystals",
        );
        expect(await label("kills.island.combat_3").innerText()).toBe("Kills on Combat 3");
        for (const k of SKILLS)
          expect(await label(k).innerText()).toBe(`${k[0]!.toUpperCase()}${k.split(".")[0]!.slice(1)} skill xp`);
        // The raw key is a hover away.
        expect(await label("mining.skill.xp").getAttribute("title")).toBe("mining.skill.xp");
        // Each item's picture came through the image proxy and was drawn.
        const picture = label("loot.item.WISE_WITHER_LEGGINGS").locator("img.item");
        expect(await picture.getAttribute("src")).toBe("/v1/assets/item/WISE_WITHER_LEGGINGS.png");
        // (lazy: drawn once it is near the screen)
        await picture.scrollIntoViewIfNeeded();
        await picture.evaluate((img: HTMLImageElement) => img.decode());
        expect(await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
        await v.page
          .locator('tr[data-key="loot.item.WISE_WITHER_LEGGINGS"]')
          .locator("xpath=ancestor::table[1]")
          .screenshot({ path: join(artifacts, `names-loot-${width}.png`) });
        await v.page.evaluate(() => window.scrollTo(0, 0));
        // An item the game's list does not name gets no picture (it would be a broken one).
        expect(await label("loot.item.ENCHANTED_PRISMARINE_CRYSTALS").locator("img").count()).toBe(0);
        // No id of the catalogue's item pattern shows as a label.
        const lists = await labelsByList(v.page);
        expect(lists.length).toBeGreaterThan(0);
        for (const list of lists) expect(new Set(list).size).toBe(list.length);
        const text = await v.page.locator("main").innerText();
        for (const raw of ["WISE_WITHER_LEGGINGS", "ENDER_DRAGON", "combat_3", "Skill xp\n"])
          expect(text).not.toContain(raw);
        await v.page.screenshot({ path: join(artifacts, `names-${width}.png`), fullPage: true });
        await v.page.screenshot({ path: join(artifacts, `names-${width}-top.png`) });
      } finally {
        await v.close();
      }
    });

    test("the share page and the styled 404", async () => {
      const share = await open(`/s/${player.shareKey}`, width);
      try {
        expect(share.status).toBe(200);
        expect(await share.page.locator("main").innerText()).not.toContain("Item_Viewer");
        await share.page.screenshot({ path: join(artifacts, `names-share-${width}.png`), fullPage: true });
        await share.page.screenshot({ path: join(artifacts, `names-share-${width}-top.png`) });
      } finally {
        await share.close();
      }
      const missing = await open("/no/such/page", width);
      try {
        expect(missing.status).toBe(404);
        expect(await missing.page.locator("main h1").innerText()).toBe("Not found");
        expect(await missing.page.locator('nav[aria-label="Site"] a').count()).toBeGreaterThan(2);
        await missing.page.screenshot({ path: join(artifacts, `names-404-${width}.png`) });
      } finally {
        await missing.close();
      }
    });
  });
}
