// Where the browser tests find chromium: CHROMIUM_PATH when set, else `chromium` (or
// `chromium-browser`) on PATH. Without it the browser tests skip with one line saying how to get
// it; with CI=true a missing chromium fails the run instead.
import { accessSync, constants, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, test } from "bun:test";
import { chromium, type Browser } from "playwright-core";
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
  await Promise.all((browser?.contexts() ?? []).map((c) => c.close()));
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
