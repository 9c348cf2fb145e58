// Link preview cards and badges as chromium shows them: the card PNG opened by its address, a
// badge in both themes (alone, zoomed, and inside the owner's snippet section), no request to
// any host but tally, no console error. Screenshots under test/artifacts/cards/ (git-ignored).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(60_000);
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { pageEnv, alice } from "../web/env.ts";
import { seedPlayer, pageLink, type Seeded } from "../web/seed.ts";
import { openPage, type Served, servedInChromium } from "../support/browser.ts";

const artifacts = join(import.meta.dir, "../artifacts/cards");
mkdirSync(artifacts, { recursive: true });

let env: Awaited<ReturnType<typeof pageEnv>>;
let served: Served;
let browser: Browser;
let base: string;
let owner: Seeded;

beforeAll(async () => {
  env = await pageEnv();
  owner = await seedPlayer(env.t, { name: alice.name, uuid: alice.uuid, findable: true, share: true });
  served = await servedInChromium(env.t);
  ({ base, browser } = served);
});

afterAll(async () => {
  await served?.close();
  await env?.close();
});

async function open(
  path: string,
  scheme: "light" | "dark",
  opts: { width?: number; height?: number; scale?: number; cookie?: string } = {},
) {
  const { page, context, close } = await openPage(browser, {
    colorScheme: scheme,
    viewport: { width: opts.width ?? 1200, height: opts.height ?? 630 },
    deviceScaleFactor: opts.scale ?? 1,
  });
  if (opts.cookie) {
    const [name, value] = opts.cookie.split("=") as [string, string];
    await context.addCookies([{ name, value, url: base }]);
  }
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  // A browser showing an image alone asks for /favicon.ico (this service has none): that 404 is the browser's.
  page.on("response", (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname !== "/favicon.ico") errors.push(`${r.status()} ${r.url()}`);
  });
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  const res = await page.goto(base + path, { waitUntil: "load" });
  const done = async () => {
    for (const r of requests) expect(r.startsWith(`${base}/`)).toBe(true);
    expect(errors).toEqual([]);
    await close();
  };
  return { page, status: res?.status() ?? 0, done };
}

const naturalSize = (page: Page) =>
  page.evaluate(() => {
    const img = document.querySelector("img")!;
    return [img.naturalWidth, img.naturalHeight];
  });

test("the statistics card, the share card and the profile card, opened by their addresses", async () => {
  const cards: [string, string][] = [
    [`/u/${alice.name}/card.png`, "card-u.browser.png"],
    [`/s/${owner.shareKey}/card.png`, "card-s.browser.png"],
    [`/p/${alice.name}/card.png`, "card-p.browser.png"],
  ];
  for (const [path, file] of cards) {
    const { page, status, done } = await open(path, "light");
    expect(status).toBe(200);
    expect(await naturalSize(page)).toEqual([1200, 630]);
    await page.screenshot({ path: join(artifacts, file), clip: { x: 0, y: 0, width: 1200, height: 630 } });
    await done();
  }
});

test("the card of a 16-character name: the widest legal names stay on the card (issue 34)", async () => {
  for (const name of ["WWWWWWWWWWWWWWWW", "MMMMMMMMMMMMMMMM"]) {
    await seedPlayer(env.t, { name, findable: true });
    const { page, status, done } = await open(`/u/${name}/card.png`, "light");
    expect(status).toBe(200);
    expect(await naturalSize(page)).toEqual([1200, 630]);
    await page.screenshot({
      path: join(artifacts, `card-${name.slice(0, 1)}16.browser.png`),
      clip: { x: 0, y: 0, width: 1200, height: 630 },
    });
    await done();
  }
});

test("a badge in both themes, alone and in the owner's snippet section", async () => {
  for (const scheme of ["light", "dark"] as const) {
    // The SVG opened by its address, zoomed so its text can be read in the screenshot.
    const alone = await open(`/u/${alice.name}/badge/mining.blocks.total.svg`, scheme, {
      width: 240,
      height: 40,
      scale: 3,
    });
    expect(alone.status).toBe(200);
    await alone.page.screenshot({ path: join(artifacts, `badge-${scheme}.png`) });
    await alone.done();

    const cookie = (await env.t.request(await pageLink(env.t, owner.player))).headers.get("set-cookie")!.split(";")[0]!;
    const own = await open(`/u/${alice.name}`, scheme, { width: 900, height: 800, cookie });
    expect(own.status).toBe(200);
    const section = own.page.locator("section.badges");
    await section
      .locator("details")
      .first()
      .evaluate((d) => ((d as HTMLDetailsElement).open = true));
    await section.scrollIntoViewIfNeeded();
    const loaded = await own.page.evaluate(() =>
      Array.from(document.querySelectorAll("section.badges img"), (i) => (i as HTMLImageElement).naturalWidth),
    );
    expect(loaded.length).toBeGreaterThan(0);
    for (const w of loaded) expect(w).toBeGreaterThan(40);
    await section.screenshot({ path: join(artifacts, `badges-section-${scheme}.png`) });
    await own.done();
  }
});
