// The mod's own pages in a real browser, in both themes on a desktop and a phone
// (browser-world.ts: the app, its seeded players and the checks every page gets), imported by its
// .browser.test.ts when chromium is there (test/support/browser.ts).
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { alice } from "./env.ts";
import { artifacts, checkPage, pagesInChromium, visit, world } from "./browser-world.ts";

pagesInChromium();
let base: string;
beforeAll(() => {
  ({ base } = world);
});

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
