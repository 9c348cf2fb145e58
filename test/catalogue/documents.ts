// Catalogue documents built in tests: a small valid one to start from, and a way to turn one into bytes.
import type { CatalogueDocument } from "../../src/catalogue/catalogue.schema.ts";

/** A small, valid catalogue document; each call returns a fresh copy a test may change. */
export function smallDocument(): CatalogueDocument {
  return {
    catalogueVersion: 7,
    categories: [
      { id: "combat", label: "Combat" },
      { id: "gathering", label: "Gathering", description: "Mining and farming." },
    ],
    namespaces: [
      { id: "loot", category: "combat", label: "Loot" },
      { id: "dungeon", category: "combat", label: "Dungeons" },
      { id: "mining", category: "gathering", label: "Mining" },
    ],
    units: [
      { id: "count", label: "count", scale: 1 },
      { id: "ms", label: "duration", scale: 1 },
    ],
    keys: [
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
    patterns: [
      {
        pattern: "loot.item.{ITEM_ID}",
        kind: "count",
        unit: "count",
        category: "combat",
        label: "{ITEM_ID}",
        group: "Loot",
        scope: "profile",
      },
    ],
    mirrorSections: [{ id: "skills", label: "Skills" }],
    lists: { cuteNames: ["Apple", "Banana"] },
    levelling: { skill: [0, 50, 175, 375] },
  };
}

/** The document as bytes, the way a file would hold it. */
export function bytesOf(document: unknown, space?: string | number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(typeof document === "string" ? document : JSON.stringify(document, null, space));
}
