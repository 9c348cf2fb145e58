// Looking a key up in the catalogue: the exact key first, else the most specific matching pattern
// (fewest placeholders; ties go to the one listed first); a key the catalogue does not know is
// undefined, so the page can make a label from the key itself (contract 2.2).
import { describe, expect, test } from "bun:test";
import { parseCatalogue } from "../../src/catalogue/load.ts";
import type { CatalogueDocument } from "../../src/catalogue/catalogue.schema.ts";
import { bytesOf, smallDocument } from "./documents.ts";

type Pattern = CatalogueDocument["patterns"][number];

const entry = (pattern: string, label: string, extra: Partial<Pattern> = {}): Pattern => ({
  pattern,
  kind: "count",
  unit: "count",
  category: pattern.startsWith("mining.") ? "gathering" : "combat",
  label,
  group: "Test",
  scope: "profile",
  ...extra,
});

function catalogueWith(patterns: Pattern[], keys: CatalogueDocument["keys"] = []) {
  const d = smallDocument();
  d.patterns = patterns;
  d.keys = keys;
  return parseCatalogue(bytesOf(d), "lookup-test");
}

describe("exact keys", () => {
  const catalogue = catalogueWith(
    [entry("loot.item.{ITEM_ID}", "any item")],
    [
      {
        key: "loot.item.SPECIAL",
        kind: "max",
        unit: "ms",
        category: "combat",
        label: "Special",
        group: "Loot",
        scope: "account",
        icon: "SPECIAL",
      },
    ],
  );

  test("an exact key answers its own entry, whole", () => {
    expect(catalogue.lookup("loot.item.SPECIAL")).toEqual({
      kind: "max",
      unit: "ms",
      category: "combat",
      label: "Special",
      group: "Loot",
      scope: "account",
      icon: "SPECIAL",
      source: "key",
    });
  });

  test("an exact key wins over a pattern that also matches it", () => {
    expect(catalogue.lookup("loot.item.SPECIAL")?.source).toBe("key");
    expect(catalogue.lookup("loot.item.OTHER")).toMatchObject({ source: "pattern", label: "any item" });
  });

  test("exact keys are case-sensitive", () => {
    expect(catalogue.lookup("loot.item.special")).toMatchObject({ source: "pattern", label: "any item" });
  });
});

describe("patterns", () => {
  test("a placeholder matches any one segment, and the answer names the pattern", () => {
    const catalogue = catalogueWith([entry("loot.item.{ITEM_ID}", "item", { kind: "max", unit: "ms" })]);
    for (const id of ["ENCHANTED_DIAMOND", "x", "ENCHANTED_BOOK;5", "PET:LION+3#a-b", "7"]) {
      expect(catalogue.lookup(`loot.item.${id}`)).toMatchObject({
        kind: "max",
        unit: "ms",
        category: "combat",
        source: "pattern",
        pattern: "loot.item.{ITEM_ID}",
      });
    }
  });

  test("a fixed segment must match exactly, case included", () => {
    const catalogue = catalogueWith([entry("loot.item.{ITEM_ID}", "item")]);
    expect(catalogue.lookup("loot.items.X")).toBeUndefined();
    expect(catalogue.lookup("loot.ITEM.X")).toBeUndefined();
  });

  test("a pattern belongs to its namespace: the same shape under another namespace does not match", () => {
    const catalogue = catalogueWith([entry("loot.item.{ITEM_ID}", "item")]);
    expect(catalogue.lookup("dungeon.item.X")).toBeUndefined();
  });

  test("a key with more or fewer segments than the pattern does not match it", () => {
    const catalogue = catalogueWith([
      entry("loot.item.{ITEM_ID}", "item"),
      entry("dungeon.best_split.{FLOOR}.finish", "split"),
    ]);
    expect(catalogue.lookup("loot.item")).toBeUndefined();
    expect(catalogue.lookup("loot.item.A.B")).toBeUndefined();
    expect(catalogue.lookup("loot")).toBeUndefined();
    expect(catalogue.lookup("dungeon.best_split.F7")).toBeUndefined();
    expect(catalogue.lookup("dungeon.best_split.F7.finish.extra")).toBeUndefined();
    expect(catalogue.lookup("dungeon.best_split.F7.finish")?.label).toBe("split");
  });

  test("a placeholder in the middle matches only with the fixed segments around it", () => {
    const catalogue = catalogueWith([entry("dungeon.best_split.{FLOOR}.finish", "split")]);
    expect(catalogue.lookup("dungeon.best_split.M3.finish")?.label).toBe("split");
    expect(catalogue.lookup("dungeon.best_split.M3.start")).toBeUndefined();
    expect(catalogue.lookup("dungeon.worst_split.M3.finish")).toBeUndefined();
  });

  test("the most specific pattern wins, whatever the catalogue order", () => {
    const generic = entry("loot.{SOURCE}.{ID}", "generic");
    const items = entry("loot.item.{ITEM_ID}", "item", { kind: "max" });
    const diamond = entry("loot.item.DIAMOND", "diamond pattern", { kind: "gauge" });
    for (const order of [
      [generic, items, diamond],
      [diamond, items, generic],
      [items, generic, diamond],
    ]) {
      const catalogue = catalogueWith(order);
      expect(catalogue.lookup("loot.item.ENCHANTED_DIAMOND")).toMatchObject({
        label: "item",
        kind: "max",
        pattern: "loot.item.{ITEM_ID}",
      });
      expect(catalogue.lookup("loot.item.DIAMOND")).toMatchObject({ label: "diamond pattern", kind: "gauge" });
      expect(catalogue.lookup("loot.pet.LION")).toMatchObject({ label: "generic", pattern: "loot.{SOURCE}.{ID}" });
    }
  });

  test("two equally specific patterns: the one listed first wins", () => {
    const byFloor = entry("dungeon.{FLOOR}.finish", "by floor");
    const bySplit = entry("dungeon.best_split.{PHASE}", "by split");
    const key = "dungeon.best_split.finish";
    expect(catalogueWith([byFloor, bySplit]).lookup(key)?.label).toBe("by floor");
    expect(catalogueWith([bySplit, byFloor]).lookup(key)?.label).toBe("by split");
    // Keys only one of them matches are not affected by the order.
    expect(catalogueWith([byFloor, bySplit]).lookup("dungeon.best_split.boss")?.label).toBe("by split");
    expect(catalogueWith([bySplit, byFloor]).lookup("dungeon.F7.finish")?.label).toBe("by floor");
  });

  test("specificity counts placeholders, not where they stand", () => {
    const early = entry("mining.{ORE}.mined.total", "one placeholder, early");
    const late = entry("mining.{A}.{B}.total", "two placeholders");
    const catalogue = catalogueWith([late, early]);
    expect(catalogue.lookup("mining.coal.mined.total")?.label).toBe("one placeholder, early");
    expect(catalogue.lookup("mining.coal.broken.total")?.label).toBe("two placeholders");
  });
});

describe("keys the catalogue does not know", () => {
  const catalogue = catalogueWith(
    [entry("loot.item.{ITEM_ID}", "item")],
    [
      {
        key: "mining.blocks.total",
        kind: "count",
        unit: "count",
        category: "gathering",
        label: "Blocks",
        group: "Mining",
        scope: "profile",
      },
    ],
  );

  test("a well-formed key absent from the catalogue is undefined", () => {
    expect(catalogue.lookup("mining.blocks.today")).toBeUndefined();
    expect(catalogue.lookup("mining.blocks.total.x")).toBeUndefined();
    expect(catalogue.lookup("fishing.catches.total")).toBeUndefined();
  });

  test("a key that breaks the grammar is undefined, never an exception", () => {
    for (const key of [
      "",
      "loot",
      "loot.",
      "loot..X",
      "Loot.item.X",
      "loot.item.ÉPÉE",
      "loot.item.{ITEM_ID}",
      `loot.item.${"a".repeat(200)}`,
    ]) {
      expect(catalogue.lookup(key)).toBeUndefined();
    }
  });
});
