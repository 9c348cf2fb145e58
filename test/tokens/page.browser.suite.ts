// The owner's tokens on their page in chromium, at a phone's width (390 px) and a desktop's
// (1280 px): listed in words, nothing wider than the screen, and the revoke button revoking the
// token at once. Screenshots under test/artifacts/tokens-*.png.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(120_000);
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, type Uploader } from "../support/uploads.ts";
import { servedInChromium, type Served, openPage } from "../support/browser.ts";
import { makeToken, type Made } from "./support.ts";

const artifacts = join(import.meta.dir, "../artifacts");
mkdirSync(artifacts, { recursive: true });

let t: TestApp;
let p: Uploader;
let served: Served;
let browser: Browser;
let base: string;
const made: Made[] = [];

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-06-01T12:00:00Z" });
  p = await uploader(t, { name: "Token_Owner", zone: "Europe/Berlin" });
  const counters = [
    { profileId: PROFILE, scope: "day" as const, day: "2026-06-01", rows: [{ k: "mining.blocks.stone", v: 120 }] },
  ];
  expect((await p.send(envelope(t, { counters }))).status).toBe(200);
  made.push(await makeToken(t, p.auth, { label: "Discord bot", scopes: ["stats:read"] }));
  t.clock.advance(60_000);
  made.push(await makeToken(t, p.auth, { label: "Stream overlay", scopes: ["page:read"], expiresInDays: 30 }));
  t.clock.advance(60_000);
  made.push(
    await makeToken(t, p.auth, {
      label: "Spreadsheet of every mining session since the season began",
      scopes: ["export", "stats:read"],
    }),
  );
  t.clock.advance(3_600_000);
  await t.request("/v1/stats/profiles", { headers: made[0]!.auth });
  served = await servedInChromium(t);
  ({ base, browser } = served);
});

afterAll(async () => {
  await served?.close();
  await t?.close();
});

async function ownPage(width: number) {
  const { url } = (await (await t.request("/v1/stats/me/page-token", { method: "POST", headers: p.auth })).json()) as {
    url: string;
  };
  const u = new URL(url);
  const { page, close } = await openPage(browser, { viewport: { width, height: 800 } });
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(base + u.pathname + u.search, { waitUntil: "load" });
  return { page, requests, close };
}

test.each([1280, 390])("at %i px the owner sees each token in words, nothing wider than the screen", async (width) => {
  const v = await ownPage(width);
  try {
    const section = v.page.locator("#tokens");
    expect(await section.locator("h2").innerText()).toBe("Tokens for your own tools");
    const items = section.locator(".token-list li");
    expect(await items.count()).toBe(3);
    const first = await items.nth(0).innerText();
    expect(first).toContain("Discord bot");
    expect(first).toContain("Can read the folded statistics");
    expect(first).toMatch(/Last used\s+1 June 2026 at 15:02/);
    expect(await items.nth(1).innerText()).toMatch(/Ends\s+1 July 2026 at 14:01/);
    expect(await items.nth(2).innerText()).toMatch(/Last used\s+never/);
    expect(await section.locator("strong").first().getAttribute("title")).toBe(`token ${made[0]!.id}`);
    const { scrollWidth, innerWidth } = await v.page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    for (const url of v.requests) expect(url.startsWith(`${base}/`)).toBe(true);
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: join(artifacts, `tokens-${width}.png`) });
  } finally {
    await v.close();
  }
});

test("the revoke button revokes the token at once and the page shows it gone", async () => {
  const v = await ownPage(390);
  try {
    await v.page.getByRole("button", { name: "Revoke Stream overlay" }).click();
    await v.page.waitForURL(`${base}/u/Token_Owner#tokens`);
    expect(await v.page.locator("#tokens .token-list li").count()).toBe(2);
    expect(await v.page.locator("#tokens").innerText()).not.toContain("Stream overlay");
    expect((await t.request("/v1/stats/profiles", { headers: made[1]!.auth })).status).toBe(401);
    await v.page.locator("#tokens").screenshot({ path: join(artifacts, "tokens-after-revoke-390.png") });
  } finally {
    await v.close();
  }
});
