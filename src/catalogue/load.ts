// Loads the catalogue: the built-in file, or CATALOGUE_FILE. A document that fails its schema or
// its own consistency rules stops start-up with the JSON path of the first fault.
import { statSync, type Stats } from "node:fs";
import { Value } from "@sinclair/typebox/value";
import builtInFile from "../../catalogue/catalogue.json" with { type: "file" };
import { CatalogueDocument } from "./catalogue.schema.ts";
import { buildCatalogue, type Catalogue } from "./catalogue.ts";
import { parseKey, keyFaultMessage, SEGMENT } from "../wire/key.ts";

/** The built-in catalogue's embedded path (the import is a file, not parsed JSON). */
const builtIn = builtInFile as unknown as string;

/** Contract 8: there are at most ten consent categories. */
export const MAX_CATEGORIES = 10;

export class CatalogueError extends Error {
  override name = "CatalogueError";
  constructor(
    readonly source: string,
    readonly path: string,
    detail: string,
  ) {
    super(`catalogue ${source} is not valid at ${path}: ${detail}`);
  }
}

function duplicates(ids: string[]): number {
  const seen = new Set<string>();
  return ids.findIndex((id) => (seen.has(id) ? true : (seen.add(id), false)));
}

/** The rules a schema cannot say: sizes, references between sections, key grammar. */
function consistencyFault(doc: CatalogueDocument): [string, string] | undefined {
  if (doc.categories.length > MAX_CATEGORIES)
    return ["/categories", `at most ${MAX_CATEGORIES} categories (found ${doc.categories.length})`];
  for (const [section, ids] of [
    ["categories", doc.categories.map((c) => c.id)],
    ["namespaces", doc.namespaces.map((n) => n.id)],
    ["units", doc.units.map((u) => u.id)],
    ["keys", doc.keys.map((k) => k.key)],
    // Two patterns that differ only in placeholder names match the same keys: the second would be dead.
    ["patterns", doc.patterns.map((p) => p.pattern.replace(/\{[A-Z][A-Z0-9_]*\}/g, "{}"))],
    ["mirrorSections", doc.mirrorSections.map((m) => m.id)],
  ] as const) {
    const at = duplicates([...ids]);
    if (at >= 0) {
      if (section === "patterns")
        return [
          `/patterns/${at}/pattern`,
          `matches the same keys as an earlier pattern (${doc.patterns[at]!.pattern})`,
        ];
      return [`/${section}/${at}`, `duplicate ${JSON.stringify(ids[at])}`];
    }
  }
  const categories = new Set(doc.categories.map((c) => c.id));
  const categoryOf = new Map(doc.namespaces.map((n) => [n.id, n.category]));
  const units = new Set(doc.units.map((u) => u.id));
  for (const [i, n] of doc.namespaces.entries()) {
    if (!categories.has(n.category))
      return [`/namespaces/${i}/category`, `unknown category ${JSON.stringify(n.category)}`];
  }
  const entries = [
    ...doc.keys.map((k, i) => ({ at: `/keys/${i}`, name: k.key, entry: k, pattern: false })),
    ...doc.patterns.map((p, i) => ({ at: `/patterns/${i}`, name: p.pattern, entry: p, pattern: true })),
  ];
  for (const { at, name, entry, pattern } of entries) {
    // A pattern's placeholders stand for one segment each; check it as the key it would match.
    const probe = pattern ? name.replace(/\{[A-Z][A-Z0-9_]*\}/g, "x") : name;
    const parsed = parseKey(probe);
    if ("fault" in parsed) return [`${at}/${pattern ? "pattern" : "key"}`, keyFaultMessage[parsed.fault]];
    if (
      pattern &&
      !name
        .split(".")
        .slice(1)
        .every((s) => /^\{[A-Z][A-Z0-9_]*\}$/.test(s) || SEGMENT.test(s))
    ) {
      return [`${at}/pattern`, "a pattern segment is a key segment or a {PLACEHOLDER}"];
    }
    const namespace = categoryOf.get(parsed.namespace);
    if (!namespace)
      return [
        `${at}/${pattern ? "pattern" : "key"}`,
        `namespace ${JSON.stringify(parsed.namespace)} is not in namespaces`,
      ];
    if (entry.category !== namespace)
      return [`${at}/category`, `must be ${JSON.stringify(namespace)}, the category of namespace ${parsed.namespace}`];
    if (!units.has(entry.unit)) return [`${at}/unit`, `unknown unit ${JSON.stringify(entry.unit)}`];
  }
  for (const [name, levels] of Object.entries(doc.levelling)) {
    const at = levels.findIndex((v, i) => i > 0 && v < levels[i - 1]!);
    if (at > 0) return [`/levelling/${name}/${at}`, "levelling thresholds must not decrease"];
  }
  return undefined;
}

/** Validates catalogue bytes and builds the catalogue, or throws CatalogueError naming the fault. */
export function parseCatalogue(bytes: Uint8Array<ArrayBuffer>, source: string): Catalogue {
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (e) {
    throw new CatalogueError(source, "/", `not JSON (${(e as Error).message})`);
  }
  const first = Value.Errors(CatalogueDocument, document).First();
  if (first) throw new CatalogueError(source, first.path || "/", first.message);
  const doc = document as CatalogueDocument;
  const fault = consistencyFault(doc);
  if (fault) throw new CatalogueError(source, fault[0], fault[1]);
  return buildCatalogue(doc, bytes);
}

/** The catalogue a server runs with: CATALOGUE_FILE when set, else the one built into the binary. */
export async function loadCatalogue(file: string): Promise<Catalogue> {
  if (!file) return parseCatalogue(await Bun.file(builtIn).bytes(), "(built in)");
  // A self-hoster's file: say plainly what is wrong with the path before reading it.
  let stat: Stats;
  try {
    stat = statSync(file);
  } catch {
    throw new CatalogueError(file, "/", "no such file");
  }
  if (!stat.isFile())
    throw new CatalogueError(file, "/", "not a file (a directory?); CATALOGUE_FILE names the catalogue's JSON file");
  return parseCatalogue(await Bun.file(file).bytes(), file);
}
