// Public profile pages in a real browser, and a service without a game API key
// (browser-world.ts: the app, its seeded players and the checks every page gets), imported by its
// .browser.test.ts when chromium is there (test/support/browser.ts).
import { beforeAll, describe, expect, test } from "bun:test";
import { pageEnv, alice, empty, stale } from "./env.ts";
import { listen } from "../../src/http/serve.ts";
import { checkPage, pagesInChromium, visit, world } from "./browser-world.ts";

pagesInChromium();
let env: typeof world.env;
beforeAll(() => {
  ({ env } = world);
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
    // checkPage opens the world's address: this service's, for this test.
    const saved = world.base;
    world.base = `http://127.0.0.1:${other.port}`;
    try {
      await checkPage("profile-no-key", `/p/${alice.name}`, {
        status: 503,
        see: async (page) => {
          expect(await page.locator("h1").innerText()).toBe("Profiles are not available here yet");
          expect(await page.locator("main").innerText()).toContain("no game API key");
        },
      });
    } finally {
      world.base = saved;
      await other.stop("done");
      await bare.close();
    }
  });
});
