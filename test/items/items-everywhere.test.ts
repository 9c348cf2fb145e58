// Item names everywhere (issue 34): the card, the badges, the sessions, the rates and the timeline
// name an item as the statistics page does (the game's own name from the item list), and fall back
// to the id in words when the list does not know it or is absent. A card read after the page (or a
// page after a card) never reuses labels drawn with another copy of the list.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(60_000);
import { pageEnv } from "../web/env.ts";
import { MINING_DAYS } from "../web/seed.ts";
import { PROFILE, envelope, uploader, type Uploader } from "../support/uploads.ts";
import { itemNames, refreshItemList } from "../../src/items/item-names.ts";
import { accountHeadline } from "../../src/cards/cards.ts";
import { lifetimeMemo } from "../../src/stats/lifetime-memo.ts";
import { accountByName } from "../../src/accounts/accounts.ts";

const NAME = "Item_Reader";
// Named by the game "Storm's Leggings": a title-cased id ("Wise Wither Leggings") is wrong.
const NAMED = "loot.item.WISE_WITHER_LEGGINGS";
// Not in the recorded list: its id in words.
const UNNAMED = "loot.item.ENCHANTED_PRISMARINE_CRYSTALS";

let env: Awaited<ReturnType<typeof pageEnv>>;
let player: Uploader;

beforeAll(async () => {
  env = await pageEnv();
  await refreshItemList({ ...env.t, log: env.t.log });
  player = await uploader(env.t, { name: NAME, zone: "Europe/Berlin" });
  const day = MINING_DAYS[8]!;
  const started = Date.parse(`${day}T16:00:00Z`);
  const res = await player.send(
    envelope(env.t, {
      profile: { id: PROFILE, cuteName: "Pomegranate" },
      counters: [
        {
          profileId: PROFILE,
          scope: "day",
          day,
          rows: [
            { k: NAMED, v: 3 },
            { k: UNNAMED, v: 40 },
          ],
        },
      ],
      sessions: [
        {
          id: "sess-items",
          activity: "dungeon",
          day,
          startedAt: started,
          endedAt: started + 30 * 60_000,
          gains: [
            { k: NAMED, v: 3 },
            { k: UNNAMED, v: 40 },
          ],
          costs: [],
        },
      ],
      timeline: [{ id: "evt-items", kind: "rare_drop", day, at: started + 60_000, key: NAMED, value: 1 }],
    }),
  );
  expect(res.status).toBe(200);
  const current = (await (await env.t.request("/v1/stats/settings", { headers: player.auth })).json()) as {
    settingsVersion: number;
  };
  const patched = await env.t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...player.auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: current.settingsVersion, findable: true, headlineKeys: [NAMED, UNNAMED] }),
  });
  expect(patched.status).toBe(200);
});
afterAll(() => env.close());

const section = (html: string, id: string) => {
  const start = html.indexOf(`aria-labelledby="${id}"`);
  expect(start).toBeGreaterThan(0);
  return html.slice(start, html.indexOf("</section>", start));
};

describe("items by the game's names beyond the figures", () => {
  test("the sessions, the rates and the timeline name items as the page's figures do", async () => {
    const html = await (await env.t.request(`/u/${NAME}`, { headers: { accept: "text/html" } })).text();
    for (const id of ["sessions-h", "rates-h", "timeline-h"]) {
      const part = section(html, id).replaceAll("&#x27;", "'");
      expect({ id, named: part.includes("Storm's Leggings") }).toEqual({ id, named: true });
      expect({ id, titleCased: part.includes("Wise Wither Leggings") }).toEqual({ id, titleCased: false });
    }
    // An item the list does not know keeps its id in words.
    expect(section(html, "sessions-h")).toContain("Enchanted Prismarine Crystals");
  });

  test("a badge names the item as the page does", async () => {
    const svg = await (await env.t.request(`/u/${NAME}/badge/${NAMED}.svg`)).text();
    expect(svg).toMatch(/<title>Storm(&#39;|&apos;|')s Leggings: 3<\/title>/);
    const other = await (await env.t.request(`/u/${NAME}/badge/${UNNAMED}.svg`)).text();
    expect(other).toContain("<title>Enchanted Prismarine Crystals: 40</title>");
  });

  test("the card's figures name the item; without the list, the id in words; one memo serves both", async () => {
    const account = (await accountByName(env.t.db, NAME))!;
    const lifetimes = lifetimeMemo({ maxFigures: 10_000, ttlMs: 60_000, clock: env.t.clock });
    const deps = { ...env.t, lifetimes };
    const items = itemNames(env.t);
    const named = await accountHeadline({ ...deps, items }, account);
    expect(named.headline.figures.map((f) => f.label)).toEqual(["Storm's Leggings", "Enchanted Prismarine Crystals"]);
    // The same memo, read without the item list (a list never fetched): the fallback, not the labels kept above.
    const plain = await accountHeadline(deps, account);
    expect(plain.headline.figures.map((f) => f.label)).toEqual([
      "Wise Wither Leggings",
      "Enchanted Prismarine Crystals",
    ]);
    // And back: the names again.
    expect((await accountHeadline({ ...deps, items }, account)).headline.figures[0]!.label).toBe("Storm's Leggings");
  });
});
