// The world of the pages' browser suites (site, profiles, stats and periods .browser.suite.ts, one
// test file each so the suite's workers share them): an app over a fresh database with two seeded
// players (Steve_Stats findable and shared, Hidden_One not) and the fake upstreams of env.ts, served
// to chromium; and the checks every page gets. Each suite calls pagesInChromium() once: its hooks
// are the file's own (a worker keeps this module loaded across the files it runs).
import { afterAll, beforeAll, expect, setDefaultTimeout } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { pageEnv } from "./env.ts";
import { seedPlayer, type Seeded } from "./seed.ts";
import { eachView, openPage, pictured, servedInChromium, type Served } from "../support/browser.ts";

export const artifacts = join(import.meta.dir, "../artifacts");
mkdirSync(artifacts, { recursive: true });

/** The current file's world, there once its tests run. */
export const world = {} as {
  env: Awaited<ReturnType<typeof pageEnv>>;
  browser: Browser;
  base: string;
  findable: Seeded;
  hidden: Seeded;
};

/** The file's world: built before its tests, closed after them. */
export function pagesInChromium() {
  setDefaultTimeout(240_000); // a page is looked at in four views (two themes, desktop and phone) on a busy machine
  let served: Served | undefined;
  let env: typeof world.env | undefined;
  beforeAll(async () => {
    env = await pageEnv();
    world.env = env;
    world.findable = await seedPlayer(env.t, { name: "Steve_Stats", findable: true, share: true });
    world.hidden = await seedPlayer(env.t, { name: "Hidden_One" });
    served = await servedInChromium(env.t);
    world.base = served.base;
    world.browser = served.browser;
  });
  afterAll(async () => {
    await served?.close();
    await env?.close();
  });
}

export type Visit = { page: Page; status: number; requests: string[]; errors: string[]; close(): Promise<void> };

/** Opens a page as new (test/support/browser.ts's openPage) in the given theme, recording every request and console error. */
export async function visit(
  path: string,
  scheme: "light" | "dark",
  setup?: (page: Page) => Promise<void>,
  width = 1280,
): Promise<Visit> {
  const { page, close } = await openPage(world.browser, { colorScheme: scheme, viewport: { width, height: 800 } });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  if (setup) await setup(page);
  const res = await page.goto(world.base + path, { waitUntil: "load" });
  return { page, status: res?.status() ?? 0, requests, errors, close };
}

/** Nothing is wider than the screen: the page never pans sideways (issue 34). */
export async function expectNoSideways(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/**
 * The checks every page gets in both themes, on a desktop and on a phone (390 px), and its
 * screenshots (`pictured`): the page is loaded once and looked at in each view (`eachView`).
 */
export async function checkPage(
  name: string,
  path: string,
  opts: { status?: number; see?: (page: Page) => Promise<void>; setup?: (page: Page) => Promise<void> } = {},
) {
  const v = await visit(path, "light", opts.setup);
  try {
    await eachView(v.page, async (scheme, width) => {
      const shot = width === 390 ? `${name}-390` : name;
      expect(v.status).toBe(opts.status ?? 200);
      expect(v.requests.length).toBeGreaterThan(0);
      for (const url of v.requests) expect(url.startsWith(world.base + "/") || url.startsWith("data:")).toBe(true);
      // A page answered 404 or 503 on purpose: the browser notes the status of the document itself.
      const errors = v.errors.filter(
        (e) => !(opts.status && opts.status >= 400 && e.includes(`status of ${opts.status}`)),
      );
      expect(errors).toEqual([]);
      expect(await v.page.locator("main h1").count()).toBe(1);
      if (opts.see) await opts.see(v.page);
      await expectNoSideways(v.page);
      if (!pictured(scheme, width)) return;
      // A long page also gets its first screen, legible at a glance; a very long page (the API
      // reference: 78 000 px on a desktop, 131 000 on a phone) gets only that: a whole one took
      // chromium 6-7 s a theme and is no picture anyone can read (its ingest route has its own).
      const height = await v.page.evaluate(() => document.documentElement.scrollHeight);
      if (height <= 12_000)
        await v.page.screenshot({ path: join(artifacts, `${shot}-${scheme}.png`), fullPage: true, timeout: 120_000 });
      if (height > 3000) await v.page.screenshot({ path: join(artifacts, `${shot}-${scheme}-top.png`) });
    });
  } finally {
    await v.close();
  }
}
