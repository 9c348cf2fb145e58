// The catalogue built into the service (contract 2.2, 2.7, 8): it loads, keeps within ten
// categories, maps every namespace to one category, and is served byte for byte.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadCatalogue } from "../../src/catalogue/load.ts";
import type { Catalogue } from "../../src/catalogue/catalogue.ts";
import type { CatalogueDocument } from "../../src/catalogue/catalogue.schema.ts";
import { testApp, type TestApp } from "../support/app.ts";

const file = join(import.meta.dir, "../../catalogue/catalogue.json");
let fileBytes: Uint8Array<ArrayBuffer>;
let doc: CatalogueDocument;
let catalogue: Catalogue;

beforeAll(async () => {
  fileBytes = new Uint8Array(await Bun.file(file).arrayBuffer());
  doc = JSON.parse(new TextDecoder().decode(fileBytes)) as CatalogueDocument;
  catalogue = await loadCatalogue("");
});

describe("the built-in catalogue", () => {
  test("loads, with the version the file declares", () => {
    expect(catalogue.version).toBe(doc.catalogueVersion);
    expect(Number.isSafeInteger(catalogue.version) && catalogue.version >= 1).toBe(true);
  });

  test("has at least one and at most ten consent categories", () => {
    expect(catalogue.categories.length).toBeGreaterThanOrEqual(1);
    expect(catalogue.categories.length).toBeLessThanOrEqual(10);
    expect(new Set(catalogue.categories).size).toBe(catalogue.categories.length);
  });

  test("turning gathering off stops exactly mining, farming, fishing, foraging and hunting", () => {
    const gathering = [...catalogue.categoryOf]
      .filter(([, category]) => category === "gathering")
      .map(([namespace]) => namespace);
    expect(gathering.sort()).toEqual(["farming", "fishing", "foraging", "hunting", "mining"]);
  });

  test("the contract's example namespaces and categories are there", () => {
    for (const namespace of ["loot", "kills", "dungeon", "mining"])
      expect(catalogue.categoryOf.has(namespace)).toBe(true);
    for (const category of ["combat", "gathering"]) expect(catalogue.categories).toContain(category);
  });

  test("every namespace is listed once and has exactly one known category", () => {
    const ids = doc.namespaces.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(catalogue.categoryOf.size).toBe(ids.length);
    for (const id of ids) expect(catalogue.categories).toContain(catalogue.categoryOf.get(id)!);
  });

  test("every exact key looks up to its own entry, in its namespace's category", () => {
    expect(doc.keys.length).toBeGreaterThan(0);
    for (const { key, ...rest } of doc.keys) {
      expect(catalogue.lookup(key)).toEqual({ ...rest, source: "key" });
      expect(catalogue.lookup(key)?.category).toBe(catalogue.categoryOf.get(key.split(".")[0]!)!);
    }
  });

  test("every pattern matches keys made from it, with its kind, unit and category", () => {
    expect(doc.patterns.length).toBeGreaterThan(0);
    for (const { pattern, ...rest } of doc.patterns) {
      const key = pattern.replace(/\{[A-Z][A-Z0-9_]*\}/g, "SOME_ID");
      const info = catalogue.lookup(key);
      expect(info).toMatchObject({ kind: rest.kind, unit: rest.unit, category: rest.category, source: "pattern" });
      expect(info?.category).toBe(catalogue.categoryOf.get(pattern.split(".")[0]!)!);
    }
  });

  test("loot items and dungeon splits look up the way the mod sends them", () => {
    const item = catalogue.lookup("loot.item.ENCHANTED_DIAMOND");
    expect(item).toMatchObject({ source: "pattern", kind: "count", category: catalogue.categoryOf.get("loot")! });
    // A fastest run is a min counter (contract 2.3), a duration in milliseconds.
    expect(catalogue.lookup("dungeon.best_split.F7.finish")).toMatchObject({
      kind: "min",
      unit: "ms",
      source: "pattern",
    });
    expect(catalogue.lookup("loot.item")).toBeUndefined();
    expect(catalogue.lookup("loot.item.ENCHANTED_DIAMOND.extra")).toBeUndefined();
    expect(catalogue.lookup("nosuch.item.X")).toBeUndefined();
  });

  test("the closed list of profile display names is there", () => {
    expect(catalogue.list("cuteNames").length).toBeGreaterThan(0);
    expect(catalogue.list("cuteNames")).toEqual(doc.lists.cuteNames!);
  });
});

describe("GET /v1/stats/catalogue with the built-in catalogue", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  test("serves catalogue/catalogue.json byte for byte", async () => {
    const res = await t.request("/v1/stats/catalogue");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(fileBytes);
  });

  test("/v1/health reports the built-in catalogueVersion", async () => {
    const res = await t.request("/v1/health");
    expect(((await res.json()) as { catalogueVersion: number }).catalogueVersion).toBe(doc.catalogueVersion);
  });
});
