// A loaded catalogue: its exact bytes (served as they are), its ETag, and an index for look-ups
// (key -> entry, namespace -> category, patterns by namespace and segment count).
import type { CatalogueDocument, CatalogueEntry } from "./catalogue.schema.ts";
import { parseKey } from "../wire/key.ts";

export type KeyInfo = Omit<CatalogueEntry, "key"> & { source: "key" | "pattern"; pattern?: string };

export type Catalogue = {
  version: number;
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
  document: CatalogueDocument;
  categories: readonly string[];
  /** namespace -> its one consent category */
  categoryOf: ReadonlyMap<string, string>;
  /** The entry for a key, exact first, then the most specific matching pattern; undefined if absent. */
  lookup(key: string): KeyInfo | undefined;
  /** A closed list by name (empty when the catalogue has none of that name). */
  list(name: string): readonly string[];
};

/** Most pattern look-ups remembered at once (each key is at most 128 bytes). */
const MATCHED_KEPT = 50_000;

type CompiledPattern = { segments: (string | null)[]; placeholders: number; info: KeyInfo };

export function buildCatalogue(document: CatalogueDocument, bytes: Uint8Array<ArrayBuffer>): Catalogue {
  const exact = new Map<string, KeyInfo>();
  for (const { key, ...rest } of document.keys) exact.set(key, { ...rest, source: "key" });

  const buckets = new Map<string, CompiledPattern[]>();
  for (const { pattern, ...rest } of document.patterns) {
    const [namespace, ...parts] = pattern.split(".");
    const segments = parts.map((p) => (/^\{[A-Z][A-Z0-9_]*\}$/.test(p) ? null : p));
    const bucket = `${namespace}/${segments.length}`;
    const list = buckets.get(bucket) ?? [];
    list.push({
      segments,
      placeholders: segments.filter((s) => s === null).length,
      info: { ...rest, source: "pattern", pattern },
    });
    buckets.set(bucket, list);
  }
  // Most specific first (fewest placeholders); ties keep catalogue order (sort is stable).
  for (const list of buckets.values()) list.sort((a, b) => a.placeholders - b.placeholders);

  const lists = new Map(Object.entries(document.lists));
  // Keys matched against the patterns before: an upload names the same keys again and again.
  const matched = new Map<string, KeyInfo | undefined>();
  const etag = `"${new Bun.CryptoHasher("sha256").update(bytes).digest("base64url").slice(0, 32)}"`;

  return {
    version: document.catalogueVersion,
    bytes,
    etag,
    document,
    categories: document.categories.map((c) => c.id),
    categoryOf: new Map(document.namespaces.map((n) => [n.id, n.category])),
    lookup(key) {
      const hit = exact.get(key);
      if (hit) return hit;
      if (matched.has(key)) return matched.get(key);
      const parsed = parseKey(key);
      if ("fault" in parsed) return undefined;
      const candidates = buckets.get(`${parsed.namespace}/${parsed.segments.length}`) ?? [];
      const info = candidates.find((c) => c.segments.every((s, i) => s === null || s === parsed.segments[i]))?.info;
      if (matched.size >= MATCHED_KEPT) matched.clear();
      matched.set(key, info);
      return info;
    },
    list: (name) => lists.get(name) ?? [],
  };
}
