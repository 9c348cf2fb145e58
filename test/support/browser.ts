// Where the browser tests find chromium: CHROMIUM_PATH when set, else `chromium` (or
// `chromium-browser`) on PATH. Without it the browser tests skip with one line saying how to get
// it; with CI=true a missing chromium fails the run instead.
import { accessSync, constants, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, test } from "bun:test";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { listen } from "../../src/http/serve.ts";
import type { Log } from "../../src/log.ts";

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The chromium to drive, or null when there is none. */
export function findChromium(): string | null {
  const given = process.env.CHROMIUM_PATH;
  if (given !== undefined) return executable(given) ? given : null;
  return Bun.which("chromium") ?? Bun.which("chromium-browser");
}

export const CHROMIUM_MISSING =
  "chromium is missing: browser tests skipped (install it: apt-get install chromium, or set CHROMIUM_PATH to a chromium binary)";

/** True on CI, where every test must run. */
export const onCi = process.env.CI === "true";

/**
 * Loads a browser suite when chromium is there; without it the suite is one skipped test saying so,
 * and with CI=true a missing chromium is a failure.
 */
export async function browserSuite(load: () => Promise<unknown>): Promise<void> {
  if (findChromium()) await load();
  else if (onCi)
    test("chromium is installed (CI=true runs the browser tests)", () => {
      throw new Error(CHROMIUM_MISSING.replace("browser tests skipped", "CI needs the browser tests"));
    });
  else test.skip(CHROMIUM_MISSING, () => {});
}

/** Headless chromium as this machine's closed network needs it (no background connections). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium()!,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

// One chromium per process: the browser files a worker of `bun run test` runs one after another
// (--no-isolate keeps this global) share it, each in contexts of its own, which keep nothing of
// another's (cookies, storage, cache). Starting and stopping one took 2-3 s a file on the shared
// machine. Playwright stops it when the process exits.
const shared = globalThis as { __tallyChromium?: Promise<Browser> };

/** This process's chromium: a file opens contexts in it and hands it back with `releaseChromium`. */
export function sharedChromium(): Promise<Browser> {
  shared.__tallyChromium ??= launchChromium().then(
    (browser) => {
      browser.on("disconnected", () => (shared.__tallyChromium = undefined));
      return browser;
    },
    (error) => {
      shared.__tallyChromium = undefined;
      throw error;
    },
  );
  return shared.__tallyChromium;
}

/** The next file gets the browser as new: no context of this one's left open. */
export async function releaseChromium(browser: Browser | undefined) {
  if (browser) idle.delete(browser);
  await Promise.all((browser?.contexts() ?? []).map((c) => c.close()));
}

// A page that a visit has finished with waits here, per browser and context options, for the next
// visit with the same options. A new page costs chromium a renderer process: about 0.45 s of CPU,
// which was a third of the browser suites' time (measured: 20 new pages 11.5 s of CPU, 20 visits of
// one page 4.8 s). Handed back, a page is made as new: every page but it closed, its listeners and
// routes removed, its viewport as asked, about:blank, the context's cookies and permissions cleared,
// and its cache emptied (a new context's cache is empty: a visit asks for everything again, and
// within a visit it caches as a new context would).
const idle = new Map<Browser, Map<string, Opened[]>>();

/** A page of a context of its own options, as new; `close()` hands it back. */
export type Opened = { page: Page; context: BrowserContext; close(): Promise<void> };

export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Opened> {
  const key = JSON.stringify(options);
  const pool = idle.get(browser) ?? new Map<string, Opened[]>();
  idle.set(browser, pool);
  const waiting = pool.get(key)?.pop();
  if (waiting) return waiting;
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const opened: Opened = {
    page,
    context,
    async close() {
      try {
        for (const other of context.pages()) if (other !== page) await other.close();
        page.removeAllListeners();
        await page.unrouteAll({ behavior: "ignoreErrors" });
        await context.unrouteAll({ behavior: "ignoreErrors" });
        if (options.viewport) await page.setViewportSize(options.viewport);
        await page.emulateMedia({ colorScheme: options.colorScheme ?? "light" });
        await page.goto("about:blank");
        await cdp.send("Network.clearBrowserCache");
        await context.clearCookies();
        await context.clearPermissions();
      } catch {
        await context.close().catch(() => {});
        return;
      }
      if (idle.get(browser) === pool) pool.set(key, [...(pool.get(key) ?? []), opened]);
      else await context.close().catch(() => {});
    },
  };
  return opened;
}

/** An app served on a free local port, and chromium to open it: a browser suite's beforeAll. */
export type Served = { base: string; browser: Browser; close(): Promise<void> };

export async function servedInChromium(t: { app: Parameters<typeof listen>[0]; log: Log }): Promise<Served> {
  const server = listen(t.app, { host: "127.0.0.1", port: 0, graceMs: 1000, log: t.log });
  let browser: Browser;
  try {
    browser = await sharedChromium();
  } catch (error) {
    await server.stop("tests done");
    throw error;
  }
  return {
    base: `http://127.0.0.1:${server.port}`,
    browser,
    async close() {
      await releaseChromium(browser);
      await server.stop("tests done");
    },
  };
}

/** The folder a browser suite's screenshots go to (test/artifacts, git-ignored), made when missing. */
export function artifactsDir(): string {
  const dir = join(import.meta.dir, "../artifacts");
  mkdirSync(dir, { recursive: true });
  return dir;
}

type ServableApp = Parameters<typeof servedInChromium>[0] & { close(): Promise<void> };

/**
 * A browser suite's world: before its tests, the app `make` builds, seeded by `seed`, served to
 * chromium; after them, both closed. Its fields are there once the suite's tests run.
 */
export function inChromium<T extends ServableApp>(
  make: () => Promise<T>,
  seed: (t: T) => Promise<void>,
): { t: T; base: string; browser: Browser } {
  const world = {} as { t: T; base: string; browser: Browser };
  let served: Served | undefined;
  beforeAll(async () => {
    world.t = await make();
    await seed(world.t);
    served = await servedInChromium(world.t);
    world.base = served.base;
    world.browser = served.browser;
  });
  afterAll(async () => {
    await served?.close();
    await world.t?.close();
  });
  return world;
}

/** The views every page is looked at in: both themes, on a desktop and on a phone (390 px wide). */
export const VIEWS = [
  ["light", 1280],
  ["dark", 1280],
  ["light", 390],
  ["dark", 390],
] as const;

/**
 * Looks at a loaded page in each of VIEWS in turn, without loading it again: its theme by
 * `emulateMedia` and its width by the viewport. The pages have no script, so a page restyled in
 * place is laid out as the same page loaded in that view (its media queries are live; an image a
 * view asks for is requested then, and the visit's request and error lists keep counting). A load
 * per view cost chromium four renders and navigations a page, most of the browser suites' CPU.
 */
export async function eachView(
  page: Page,
  look: (scheme: "light" | "dark", width: number) => Promise<void>,
  height = 800,
  views: readonly (readonly ["light" | "dark", number])[] = VIEWS,
) {
  for (const [scheme, width] of views) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height });
    await look(scheme, width);
  }
}

/**
 * Whether a page's whole-page screenshot is taken in this view. Every view is checked; by default
 * two are pictured, light on a desktop and dark on a phone, so each theme and each width is seen once
 * (a whole-page screenshot cost chromium 0.4-1.5 s, more than the page's checks in all four views).
 * TALLY_SCREENSHOTS=all pictures all four: for the engineer changing how a page looks.
 */
export function pictured(scheme: "light" | "dark", width: number): boolean {
  return process.env.TALLY_SCREENSHOTS === "all" || (scheme === "light") === width > 390;
}
