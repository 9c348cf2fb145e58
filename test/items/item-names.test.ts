// The game's item names (issue 34): fetched from the game API's public item list (the recorded real
// body), stored, refreshed daily, the last good copy kept when the upstream fails; and the labels a
// person reads for keys the catalogue does not name.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, loopbackFetch, type TestApp } from "../support/app.ts";
import { fakeGameApi } from "../support/fakes/game-api.ts";
import { recordedItemList } from "../support/recorded.ts";
import { itemNames, refreshItemList } from "../../src/items/item-names.ts";
import { distinctLabels, labelFromKey, petName, readableSegment } from "../../src/stats/labels.ts";
import { describeKey } from "../../src/stats/fold.ts";

const KEY = "0b5e8c1a-7d3f-4e2a-9c6b-1f0e2d3c4b5a";
const HOUR = 3_600_000;
let t: TestApp;
let game: ReturnType<typeof fakeGameApi>;
const deps = () => ({ ...t, log: t.log });

beforeAll(async () => {
  game = fakeGameApi({ key: KEY });
  t = await testApp({
    settings: { gameApiUrl: game.url, gameApiKey: "", upstreamTimeoutMs: 500, itemNamesReloadMs: 60_000 },
    fetch: loopbackFetch,
  });
});
afterAll(async () => {
  await t.close();
  await game.stop();
});

describe("the item list", () => {
  test("is fetched without a key, stored, and names items by the game's own names", async () => {
    const recorded = recordedItemList();
    expect(await refreshItemList(deps())).toEqual({ fetched: 1, items: recorded.items.length, failed: 0 });
    expect(game.itemListCalls()).toBe(1);
    // No key went with it (the public resource needs none).
    expect(game.calls.at(-1)!.headers.get("api-key")).toBeNull();
    const names = await itemNames(t).current();
    // Names that a title-cased id would get wrong, straight from the recorded body.
    expect(names.itemName("WISE_WITHER_LEGGINGS")).toBe("Storm's Leggings");
    expect(names.itemName("TANK_DUNGEON_ABILITY_2")).toBe("Absorption Potion");
    expect(names.itemName("SKULL_ITEM:4")).toBe("Creeper Skull");
    expect(names.itemName("ENCHANTED_GOLD")).toBeUndefined();
  });

  test("is not fetched again within ITEM_LIST_MAX_AGE_HOURS; after it, it is", async () => {
    const before = game.itemListCalls();
    expect((await refreshItemList(deps())).fetched).toBe(0);
    expect(game.itemListCalls()).toBe(before);
    t.clock.advance(24 * HOUR);
    expect((await refreshItemList(deps())).fetched).toBe(1);
    expect(game.itemListCalls()).toBe(before + 1);
  });

  test("an upstream down, an answer that is not JSON, or a list with no usable item keep the last good copy", async () => {
    for (const failure of ["cloudflare502", "notJson"] as const) {
      game.state.failure = failure;
      expect(await refreshItemList(deps(), { force: true })).toEqual({ fetched: 0, items: 0, failed: 1 });
    }
    game.state.failure = "none";
    // Hostile entries are skipped one by one: a bad id, a name too long, colour codes removed.
    game.state.items = {
      success: true,
      lastUpdated: 1,
      items: [{ id: "../../etc", name: "x" }, { id: "A", name: "y".repeat(101) }, { id: "B" }, null],
    };
    expect(await refreshItemList(deps(), { force: true })).toEqual({ fetched: 0, items: 0, failed: 1 });
    t.clock.advance(HOUR);
    const names = await itemNames(t).current();
    expect(names.itemName("WISE_WITHER_LEGGINGS")).toBe("Storm's Leggings");
    game.state.items = { success: true, items: [{ id: "FOO", name: "§6Golden §lFoo" }] };
    expect(await refreshItemList(deps(), { force: true })).toEqual({ fetched: 1, items: 1, failed: 0 });
    expect((await itemNames(t).current()).itemName("FOO")).toBe("Golden Foo");
    game.state.items = null;
    await refreshItemList(deps(), { force: true });
  });

  test("an instance reloads the stored names only after ITEM_NAMES_RELOAD_MS", async () => {
    const names = itemNames(t);
    await names.current();
    const held = names.size();
    expect(held).toBe(recordedItemList().items.length);
    game.state.items = { success: true, items: [{ id: "ONLY_ONE", name: "Only One" }] };
    await refreshItemList(deps(), { force: true });
    await names.current();
    expect(names.itemName("ONLY_ONE")).toBeUndefined();
    t.clock.advance(60_000);
    await names.current();
    expect(names.itemName("ONLY_ONE")).toBe("Only One");
    game.state.items = null;
    await refreshItemList(deps(), { force: true });
  });
});

describe("labels a person reads", () => {
  test("pets by name and rarity, ids in title case", () => {
    expect(petName("PET;ENDER_DRAGON;4")).toBe("Ender Dragon (Legendary)");
    expect(petName("PET;SCATHA;2")).toBe("Scatha (Rare)");
    expect(petName("PET;BEE;5")).toBe("Bee (Mythic)");
    expect(petName("PET;BEE;6")).toBeUndefined();
    expect(readableSegment("ENCHANTED_PRISMARINE_CRYSTALS")).toBe("Enchanted Prismarine Crystals");
    expect(readableSegment("combat_3")).toBe("Combat 3");
  });

  test("the catalogue's patterns fill in words: the game's item name, else the id in words", async () => {
    const names = await itemNames(t).current();
    const c = t.catalogue;
    expect(describeKey(c, "loot.item.WISE_WITHER_LEGGINGS", names).label).toBe("Storm's Leggings");
    expect(describeKey(c, "loot.item.ENCHANTED_PRISMARINE_CRYSTALS", names).label).toBe(
      "Enchanted Prismarine Crystals",
    );
    expect(describeKey(c, "loot.item.PET;ENDER_DRAGON;4", names).label).toBe("Ender Dragon (Legendary)");
    expect(describeKey(c, "kills.island.combat_3").label).toBe("Kills on Combat 3");
  });

  test("a label made from an unknown key keeps its namespace: four skills, four labels", () => {
    const c = t.catalogue;
    const keys = ["mining.skill.xp", "farming.skill.xp", "fishing.skill.xp", "foraging.skill.xp"];
    const labels = keys.map((k) => describeKey(c, k).label);
    expect(labels).toEqual(["Mining skill xp", "Farming skill xp", "Fishing skill xp", "Foraging skill xp"]);
    expect(labelFromKey("nowhere.a_b")).toBe("Nowhere a b");
  });

  test("two keys of one list that still read the same get their key", () => {
    const list = distinctLabels([
      { key: "mining.a_b", label: "Mining a b" },
      { key: "mining.a.b", label: "Mining a b" },
      { key: "mining.c", label: "Mining c" },
    ]);
    expect(list.map((f) => f.label)).toEqual(["Mining a b (mining.a_b)", "Mining a b (mining.a.b)", "Mining c"]);
  });
});
