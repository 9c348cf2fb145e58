// In chromium (issues 34 and 37): the owner chooses the headline figures with the page's own form (a
// real browser's POST, with its Origin), and they lead the page and the card; a widget page served by
// another origin reads the page's public figures with fetch (CORS), again conditionally (its preflight
// answered, the 304 readable). Screenshots: test/artifacts/headline-*.png and the card after choosing.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(120_000);
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { listen, type Listening } from "../../src/http/serve.ts";
import { pageEnv } from "./env.ts";
import { seedPlayer, pageLink, type Seeded } from "./seed.ts";
import { openPage, releaseChromium, sharedChromium } from "../support/browser.ts";

const artifacts = join(import.meta.dir, "../artifacts");
mkdirSync(artifacts, { recursive: true });

let env: Awaited<ReturnType<typeof pageEnv>>;
let server: Listening;
let widget: ReturnType<typeof Bun.serve>;
let browser: Browser;
let base: string;
let player: Seeded;

/** A stream overlay's page on another origin: it reads the public figures twice, the second time conditionally. */
const overlay = (api: string) => `<!doctype html><meta charset="utf-8"><title>overlay</title>
<ul id="figures"></ul><p id="status">loading</p>
<script>
(async () => {
  const first = await fetch(${JSON.stringify(api)});
  const body = await first.json();
  for (const f of body.headline) {
    const li = document.createElement("li");
    li.textContent = f.label + ": " + f.text;
    document.getElementById("figures").append(li);
  }
  const etag = first.headers.get("etag");
  const again = await fetch(${JSON.stringify(api)}, { headers: { "if-none-match": etag } });
  document.getElementById("status").textContent = first.status + " " + again.status + " " + (etag ? "etag" : "none");
})().catch((e) => { document.getElementById("status").textContent = "failed: " + e; });
</script>`;

beforeAll(async () => {
  env = await pageEnv();
  player = await seedPlayer(env.t, { name: "Head_Liner", findable: true });
  server = listen(env.t.app, { host: "127.0.0.1", port: 0, graceMs: 1000, log: env.t.log });
  base = `http://127.0.0.1:${server.port}`;
  // Another origin: another host name and port.
  widget = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () =>
      new Response(overlay(`${base}/v1/pages/Head_Liner`), { headers: { "content-type": "text/html; charset=utf-8" } }),
  });
  browser = await sharedChromium();
});

afterAll(async () => {
  await releaseChromium(browser);
  widget?.stop(true);
  await server?.stop("tests done");
  await env?.close();
});

describe("the headline in a browser", () => {
  test("the owner chooses with the page's form; the choice leads the page and the card", async () => {
    for (const [scheme, width] of [
      ["light", 1280],
      ["dark", 390],
    ] as const) {
      const { page, close } = await openPage(browser, {
        colorScheme: scheme,
        viewport: { width, height: 900 },
      });
      try {
        await page.goto(base + (await pageLink(env.t, player.player)), { waitUntil: "load" });
        await page.locator("details.headline-choice summary").click();
        await page.selectOption('select[name="key1"]', "tally.playtime.total");
        await page.selectOption('select[name="key2"]', "kills.best.hit");
        await Promise.all([page.waitForURL(/#headline$/), page.click(".headline-form button")]);
        const keys = await page.$$eval("#headline li[data-key]", (els) => els.map((e) => e.getAttribute("data-key")));
        expect(keys.slice(0, 2)).toEqual(["tally.playtime.total", "kills.best.hit"]);
        expect(await page.locator("#headline li").first().innerText()).toContain("Playtime");
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
        await page.locator("details.headline-choice summary").click();
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(artifacts, `headline-owner-${width}-${scheme}.png`) });
      } finally {
        await close();
      }
    }
    const card = await env.t.request("/u/Head_Liner/card.png");
    expect(card.status).toBe(200);
    writeFileSync(join(artifacts, "headline-card.png"), new Uint8Array(await card.arrayBuffer()));
  });

  test("a widget on another origin reads the public figures, then conditionally", async () => {
    const { page, close } = await openPage(browser);
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    try {
      await page.goto(`http://localhost:${widget.port}/`, { waitUntil: "load" });
      await page.waitForFunction(() => document.getElementById("status")?.textContent !== "loading");
      // The ETag is readable (exposed), and a fetch that sets If-None-Match itself is preflighted and
      // gets the 304 as it is (the fetch standard hands author-conditional answers through).
      expect(await page.locator("#status").innerText()).toBe("200 304 etag");
      expect(await page.locator("#figures li").first().innerText()).toStartWith("Playtime: ");
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(artifacts, "headline-widget.png") });
    } finally {
      await close();
    }
  });
});
