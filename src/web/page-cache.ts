// A short in-process cache of rendered statistics pages (issue 22): a findable page or a share link
// is one unauthenticated GET that reads and renders every key of an account, repeatable by anyone.
// An entry is keyed by the account, its last upload and settings version and the page asked for, so
// a new upload or a settings change is never answered from an older copy; it lives PAGE_CACHE_TTL_MS
// at most (today's date moves the charts), and the cache holds at most PAGE_CACHE_ENTRIES pages and
// PAGE_CACHE_MAX_BYTES of them, the least recently used forgotten first.
//
// Issue 40: a page asked for while the same page is being rendered waits for that render instead of
// starting its own (120 requests at once for one page cost one render), and a page that turned out
// not to exist (a list of a group the account does not have) is kept as that answer too, so asking
// again costs nothing.
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/database.ts";
import type { WorkGate } from "../http/work-gate.ts";
import { withinCostLimit } from "../http/rate-limit.ts";

export type CachedPage = { html: string; etag: string };
type Entry = { page: CachedPage | null; at: number; bytes: number };

/** Most pages kept at once, whatever their size. */
export const PAGE_CACHE_ENTRIES = 512;

export type PageCache = {
  /**
   * The kept page of `key`, else the one being rendered, else `render`'s (kept unless it alone
   * passes the byte bound); null: the page does not exist (kept as such). A render that fails is
   * not kept, and every request waiting for it gets its error.
   */
  fetch(key: string, render: () => Promise<string | null>): Promise<CachedPage | null>;
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
  const put = (key: string, text: string | null): CachedPage | null => {
    const page = text === null ? null : { html: text, etag: pageEtag(text) };
    // A string is at most 2 bytes a character in memory; a missing page costs its key.
    const size = (text?.length ?? 0) * 2 + key.length * 2;
    if (opts.ttlMs <= 0 || size > opts.maxBytes) return page;
    drop(key);
    entries.set(key, { page, at: deps.clock.now(), bytes: size });
    bytes += size;
    while (entries.size > PAGE_CACHE_ENTRIES || bytes > opts.maxBytes) drop(entries.keys().next().value as string);
    return page;
  };
  const rendering = new Map<string, Promise<CachedPage | null>>();
  return {
    fetch(key, render) {
      const kept = get(key);
      if (kept) return Promise.resolve(kept.page);
      let flight = rendering.get(key);
      if (!flight) {
        flight = render()
          .then((html) => put(key, html))
          .finally(() => rendering.delete(key));
        rendering.set(key, flight);
      }
      return flight;
    },
  };
}

/**
 * Runs one render of an account's page, badge or card within that account's render budget
 * (PAGE_RENDER_MS_PER_ACCOUNT_PER_MINUTE, whoever asks, every instance together): a large account
 * costs its renders, and past its budget its pages answer 429 until the next minute (issue 40).
 */
export function renderBudget(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, "pageRenderBudgetMs">;
  renders: WorkGate;
}) {
  const limit = { name: "page-renders", perWindow: deps.config.pageRenderBudgetMs, windowMs: 60_000 };
  // The instance's renders take turns (PAGE_RENDERS_AT_ONCE): a render waiting its turn spends no budget.
  return <T>(uuid: string, render: () => Promise<T>) =>
    deps.renders.run(() => withinCostLimit(deps, limit, uuid, render));
}
