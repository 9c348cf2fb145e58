// A short in-process cache of rendered statistics pages (issue 22): a findable page or a share link
// is one unauthenticated GET that reads and renders every key of an account, repeatable by anyone.
// An entry is keyed by the account, its last upload and settings version and the page asked for, so
// a new upload or a settings change is never answered from an older copy; it lives PAGE_CACHE_TTL_MS
// at most (today's date moves the charts), and the cache holds at most PAGE_CACHE_ENTRIES pages and
// PAGE_CACHE_MAX_BYTES of them, the least recently used forgotten first.
import type { Clock } from "../clock.ts";

export type CachedPage = { html: string; etag: string };
type Entry = CachedPage & { at: number; bytes: number };

/** Most pages kept at once, whatever their size. */
export const PAGE_CACHE_ENTRIES = 512;

export type PageCache = {
  get(key: string): CachedPage | undefined;
  /** Keeps a rendered page (unless it alone passes the byte bound) and answers it with its tag. */
  put(key: string, html: string): CachedPage;
};

/** A strong entity tag of a page's bytes. */
export const pageEtag = (html: string) =>
  `"${new Bun.CryptoHasher("sha256").update(html).digest("base64url").slice(0, 27)}"`;

export function pageCache(deps: { clock: Clock }, opts: { ttlMs: number; maxBytes: number }): PageCache {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  const drop = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
    bytes -= e.bytes;
  };
  const get = (key: string) => {
    const e = entries.get(key);
    if (!e) return undefined;
    if (deps.clock.now() - e.at >= opts.ttlMs) {
      drop(key);
      return undefined;
    }
    // Most recently used last.
    entries.delete(key);
    entries.set(key, e);
    return e;
  };
  return {
    get,
    put(key, text) {
      const page = { html: text, etag: pageEtag(text) };
      // A string is at most 2 bytes a character in memory.
      const size = text.length * 2;
      if (opts.ttlMs <= 0 || size > opts.maxBytes) return page;
      drop(key);
      entries.set(key, { ...page, at: deps.clock.now(), bytes: size });
      bytes += size;
      while (entries.size > PAGE_CACHE_ENTRIES || bytes > opts.maxBytes) drop(entries.keys().next().value as string);
      return page;
    },
  };
}
