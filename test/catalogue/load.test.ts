// Loading a catalogue (contract 2.7): a valid document builds; an invalid one is refused with the
// JSON path of its first fault and a message that says what is wrong there.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CatalogueError, MAX_CATEGORIES, loadCatalogue, parseCatalogue } from "../../src/catalogue/load.ts";
import { bytesOf, smallDocument } from "./documents.ts";

/** Parses a document, expecting a refusal; answers the error. */
function refusal(document: unknown, source = "test.json"): CatalogueError {
  try {
    parseCatalogue(bytesOf(document), source);
  } catch (e) {
    expect(e).toBeInstanceOf(CatalogueError);
    return e as CatalogueError;
  }
  throw new Error("the catalogue was accepted, but it should have been refused");
}

/** The small document with one change applied. */
function changed(change: (d: ReturnType<typeof smallDocument>) => void) {
  const d = smallDocument();
  change(d);
  return d;
}

describe("a valid document", () => {
  test("builds a catalogue with its version, bytes and index", () => {
    const bytes = bytesOf(smallDocument(), 2);
    const catalogue = parseCatalogue(bytes, "test.json");
    expect(catalogue.version).toBe(7);
    expect(catalogue.bytes).toEqual(bytes);
    expect(catalogue.categories).toEqual(["combat", "gathering"]);
    expect(catalogue.categoryOf.get("mining")).toBe("gathering");
    expect(catalogue.lookup("mining.blocks.total")?.label).toBe("Blocks");
    expect(catalogue.list("cuteNames")).toEqual(["Apple", "Banana"]);
    expect(catalogue.list("noSuchList")).toEqual([]);
  });

  test("the ETag is a quoted tag that follows the bytes, not the meaning", () => {
    const a = parseCatalogue(bytesOf(smallDocument()), "a");
    const again = parseCatalogue(bytesOf(smallDocument()), "b");
    const reformatted = parseCatalogue(bytesOf(smallDocument(), "\t"), "c");
    const newer = parseCatalogue(bytesOf(changed((d) => (d.catalogueVersion = 8))), "d");
    expect(a.etag).toMatch(/^"[^"]+"$/);
    expect(again.etag).toBe(a.etag);
    // A client holding the compact bytes must not be told it holds the tab-indented ones.
    expect(reformatted.etag).not.toBe(a.etag);
    expect(newer.etag).not.toBe(a.etag);
  });

  test(`exactly ${MAX_CATEGORIES} categories are accepted`, () => {
    expect(MAX_CATEGORIES).toBe(10); // contract 8
    const d = changed((d) => {
      for (let i = d.categories.length; i < 10; i++) d.categories.push({ id: `extra_${i}`, label: `Extra ${i}` });
    });
    expect(parseCatalogue(bytesOf(d), "ten").categories).toHaveLength(10);
  });

  test("levelling tables may repeat a threshold; they only must not go down", () => {
    const d = changed((d) => (d.levelling = { flat: [0, 0, 10, 10], single: [5], empty: [] }));
    expect(() => parseCatalogue(bytesOf(d), "levels")).not.toThrow();
  });

  test("a pattern may mix fixed segments and placeholders anywhere after the namespace", () => {
    const d = changed((d) => {
      d.patterns.push({
        pattern: "dungeon.{FLOOR}.split.{PHASE_2}",
        kind: "min",
        unit: "ms",
        category: "combat",
        label: "x",
        group: "x",
        scope: "profile",
      });
    });
    expect(parseCatalogue(bytesOf(d), "mixed").lookup("dungeon.F7.split.boss")?.kind).toBe("min");
  });
});

describe("an invalid document is refused with the path of the fault", () => {
  test("bytes that are not JSON", () => {
    const e = refusal('{ "catalogueVersion": 1, ', "broken.json");
    expect(e.path).toBe("/");
    expect(e.message).toContain("broken.json");
    expect(e.message).toContain("not JSON");
  });

  test("bytes that are not UTF-8", () => {
    let error: unknown;
    try {
      parseCatalogue(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), "latin.json");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CatalogueError);
    expect((error as CatalogueError).path).toBe("/");
  });

  test("JSON that is not an object", () => {
    for (const doc of ["[]", "null", "42", '"catalogue"']) {
      expect(refusal(doc).path).toBe("/");
    }
  });

  test("an unknown field on a key", () => {
    const e = refusal(changed((d) => Object.assign(d.keys[0]!, { colour: "red" })));
    expect(e.path).toBe("/keys/0/colour");
    expect(e.message).toContain("/keys/0/colour");
    expect(e.message.toLowerCase()).toContain("unexpected property");
  });

  test("an unknown field at the top", () => {
    expect(refusal(changed((d) => Object.assign(d, { version: 2 }))).path).toBe("/version");
  });

  test("a missing section", () => {
    const e = refusal(changed((d) => delete (d as Partial<typeof d>).units));
    expect(e.path).toBe("/units");
    expect(e.message.toLowerCase()).toContain("required");
  });

  test("more than ten categories", () => {
    const e = refusal(
      changed((d) => {
        for (let i = d.categories.length; i < 11; i++) d.categories.push({ id: `extra_${i}`, label: `Extra ${i}` });
      }),
    );
    expect(e.path).toBe("/categories");
    expect(e.message).toContain("10");
    expect(e.message).toContain("11");
  });

  test("a namespace naming an unknown category", () => {
    const e = refusal(changed((d) => (d.namespaces[2]!.category = "crafting")));
    expect(e.path).toBe("/namespaces/2/category");
    expect(e.message).toContain('"crafting"');
  });

  test("a key whose namespace is not listed", () => {
    const e = refusal(changed((d) => d.keys.push({ ...d.keys[0]!, key: "fishing.catches.total" })));
    expect(e.path).toBe("/keys/1/key");
    expect(e.message).toContain('"fishing"');
  });

  test("a pattern whose namespace is not listed", () => {
    const e = refusal(changed((d) => (d.patterns[0]!.pattern = "kills.island.{ISLAND_ID}")));
    expect(e.path).toBe("/patterns/0/pattern");
    expect(e.message).toContain('"kills"');
  });

  test("a key with an unknown unit", () => {
    const e = refusal(changed((d) => (d.keys[0]!.unit = "furlongs")));
    expect(e.path).toBe("/keys/0/unit");
    expect(e.message).toContain('"furlongs"');
  });

  test("a pattern with an unknown unit", () => {
    expect(refusal(changed((d) => (d.patterns[0]!.unit = "coins"))).path).toBe("/patterns/0/unit");
  });

  test("a key whose category differs from its namespace's", () => {
    const e = refusal(changed((d) => (d.keys[0]!.category = "combat")));
    expect(e.path).toBe("/keys/0/category");
    // The message names the category the key must have.
    expect(e.message).toContain('"gathering"');
    expect(e.message).toContain("mining");
  });

  test("a key whose category is not a category at all", () => {
    expect(refusal(changed((d) => (d.keys[0]!.category = "nothing"))).path).toBe("/keys/0/category");
  });

  test("a duplicate key: the second one is named", () => {
    const e = refusal(changed((d) => d.keys.push({ ...d.keys[0]!, label: "Blocks again" })));
    expect(e.path).toBe("/keys/1");
    expect(e.message).toContain("duplicate");
    expect(e.message).toContain('"mining.blocks.total"');
  });

  test("duplicate namespaces, categories, units, patterns and mirror sections", () => {
    expect(
      refusal(changed((d) => d.namespaces.push({ id: "loot", category: "gathering", label: "Loot 2" }))).path,
    ).toBe("/namespaces/3");
    expect(refusal(changed((d) => d.categories.unshift({ id: "gathering", label: "Again" }))).path).toBe(
      "/categories/2",
    );
    expect(refusal(changed((d) => d.units.push({ id: "ms", label: "again", scale: 1000 }))).path).toBe("/units/2");
    expect(refusal(changed((d) => d.patterns.push({ ...d.patterns[0]! }))).path).toBe("/patterns/1/pattern");
    expect(refusal(changed((d) => d.mirrorSections.push({ id: "skills", label: "Again" }))).path).toBe(
      "/mirrorSections/1",
    );
  });

  test("two patterns differing only in placeholder names match the same keys: the second is refused", () => {
    const e = refusal(
      changed((d) => {
        const [namespace, ...rest] = d.patterns[0]!.pattern.split(".");
        d.patterns.push({
          ...d.patterns[0]!,
          kind: "max",
          pattern: [namespace, ...rest.map((seg) => (seg.startsWith("{") ? "{OTHER_NAME}" : seg))].join("."),
        });
      }),
    );
    expect(e.path).toBe("/patterns/1/pattern");
    expect(e.message).toContain("matches the same keys as an earlier pattern");
    expect(e.message).toContain("{OTHER_NAME}");
  });

  test.each([
    ["a segment with a space", "loot.it em.{ITEM_ID}"],
    ["a segment starting with '-'", "loot.-item.{ITEM_ID}"],
    ["a lower-case placeholder", "loot.item.{item_id}"],
    ["a placeholder glued to text", "loot.item_{ITEM_ID}"],
    ["two placeholders in one segment", "loot.{A}{B}"],
    ["an empty segment", "loot..{ITEM_ID}"],
    ["a trailing dot", "loot.item.{ITEM_ID}."],
    ["six segments", "loot.{A}.{B}.{C}.{D}.{E}.{F}"],
    ["no segment at all", "loot"],
    ["a placeholder for the namespace", "{NS}.item.{ITEM_ID}"],
  ])("a bad pattern: %s (%s)", (_why, pattern) => {
    const e = refusal(changed((d) => (d.patterns[0]!.pattern = pattern)));
    expect(e.path).toBe("/patterns/0/pattern");
    expect(e.message).toContain("/patterns/0/pattern");
  });

  test("a key that breaks the key grammar says which rule", () => {
    const six = refusal(changed((d) => (d.keys[0]!.key = "mining.a.b.c.d.e.f")));
    expect(six.path).toBe("/keys/0/key");
    expect(six.message).toMatch(/1 to 5 segments/);
    const segment = refusal(changed((d) => (d.keys[0]!.key = "mining.blocks.")));
    expect(segment.path).toBe("/keys/0/key");
    expect(segment.message).toMatch(/segment/);
  });

  test("a decreasing levelling table names the first level that goes down", () => {
    const e = refusal(changed((d) => (d.levelling = { skill: [0, 50, 175, 375], slayer: [0, 10, 30, 25, 100] })));
    expect(e.path).toBe("/levelling/slayer/3");
    expect(e.message).toContain("decrease");
    expect(refusal(changed((d) => (d.levelling = { skill: [10, 5] }))).path).toBe("/levelling/skill/1");
  });

  test("a catalogueVersion of the wrong type", () => {
    for (const version of ["7", 7.5, 0, -1, null, true]) {
      const e = refusal(changed((d) => ((d as { catalogueVersion: unknown }).catalogueVersion = version)));
      expect(e.path).toBe("/catalogueVersion");
      expect(e.message).toContain("/catalogueVersion");
    }
  });

  test("a counter kind outside the four kinds", () => {
    expect(refusal(changed((d) => ((d.keys[0] as { kind: string }).kind = "sum"))).path).toBe("/keys/0/kind");
  });

  test("a scope outside profile and account", () => {
    expect(refusal(changed((d) => ((d.patterns[0] as { scope: string }).scope = "day"))).path).toBe(
      "/patterns/0/scope",
    );
  });

  test("the error names its source and is an Error a start-up can print", () => {
    const e = refusal(
      changed((d) => (d.keys[0]!.unit = "furlongs")),
      "/etc/tally/catalogue.json",
    );
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("CatalogueError");
    expect(e.source).toBe("/etc/tally/catalogue.json");
    expect(e.message).toContain("/etc/tally/catalogue.json");
  });
});

describe("loadCatalogue", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "tally-catalogue-load-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test('"" loads the built-in catalogue, byte for byte', async () => {
    const catalogue = await loadCatalogue("");
    const file = new Uint8Array(await Bun.file(join(import.meta.dir, "../../catalogue/catalogue.json")).arrayBuffer());
    expect(catalogue.bytes).toEqual(file);
  });

  test("a file path loads that file", async () => {
    const path = join(dir, "mine.json");
    await Bun.write(path, bytesOf(smallDocument(), 1));
    const catalogue = await loadCatalogue(path);
    expect(catalogue.version).toBe(7);
    expect(catalogue.bytes).toEqual(new Uint8Array(await Bun.file(path).arrayBuffer()));
  });

  test("a missing file is refused with a CatalogueError naming it", async () => {
    const path = join(dir, "no-such-catalogue.json");
    const error = await loadCatalogue(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CatalogueError);
    expect((error as CatalogueError).message).toContain(path);
  });

  test("a directory given as the file is refused saying so", async () => {
    const error = await loadCatalogue(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CatalogueError);
    expect((error as CatalogueError).message).toContain("not a file");
  });

  test("an invalid file is refused with a CatalogueError naming it and the fault", async () => {
    const path = join(dir, "bad.json");
    await Bun.write(path, bytesOf(changed((d) => (d.keys[0]!.unit = "furlongs"))));
    const error = await loadCatalogue(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CatalogueError);
    expect((error as CatalogueError).path).toBe("/keys/0/unit");
    expect((error as CatalogueError).message).toContain(path);
  });
});
