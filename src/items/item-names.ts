// The game's own item names (issue 34): the game API's public item list, fetched by a job
// (items.jobs.ts) at most once per ITEM_LIST_MAX_AGE_HOURS and kept in the database (one row,
// items.table.ts), so every instance shares it and a restart does not fetch it again. A failed
// fetch keeps the last good copy. Each instance holds the names in one Map (about 4 700 entries,
// well under a MiB), reloaded from the row at most every ITEM_NAMES_RELOAD_MS: a look-up is a Map
// read, O(1), and never waits on the upstream.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Log } from "../log.ts";
import { skyblockItems } from "../upstream/item-list.ts";
import { UpstreamError } from "../upstream/upstream-error.ts";
import { itemListFetchedAt, storedItemList, storeItemList, type StoredNames } from "./items.query.ts";

/**
 * What a label needs: an item's name by its id (undefined: the list does not know it), and which
 * copy of the list answers (labels kept in memory are kept per copy, so a refreshed list shows).
 */
export type ItemNamer = { itemName(id: string): string | undefined; readonly version?: string };

const HOUR = 3_600_000;

export type ItemsDeps = {
  db: Db;
  clock: Clock;
  fetch: typeof fetch;
  log?: Log;
  config: Pick<Config, "gameApiUrl" | "upstreamTimeoutMs" | "gameApiMaxBytes" | "itemListMaxAgeHours">;
};

/**
 * Fetches the item list when the stored one is older than ITEM_LIST_MAX_AGE_HOURS (or `force`) and
 * stores it; a failing upstream leaves the stored copy as it was. Answers counts for the job's log.
 */
export async function refreshItemList(deps: ItemsDeps, opts: { force?: boolean } = {}) {
  const now = deps.clock.now();
  const fetchedAt = await itemListFetchedAt(deps.db);
  if (!opts.force && fetchedAt !== undefined && now - fetchedAt < deps.config.itemListMaxAgeHours * HOUR)
    return { fetched: 0, items: 0, failed: 0 };
  let list: Awaited<ReturnType<typeof skyblockItems>>;
  try {
    list = await skyblockItems({
      fetch: deps.fetch,
      gameApiUrl: deps.config.gameApiUrl,
      timeoutMs: deps.config.upstreamTimeoutMs,
      maxBytes: deps.config.gameApiMaxBytes,
    });
  } catch (e) {
    if (!(e instanceof UpstreamError)) throw e;
    deps.log?.warn("item list not refreshed: the last good copy stays", { reason: e.reason, message: e.message });
    return { fetched: 0, items: 0, failed: 1 };
  }
  // An answer with no usable item would wipe every name: keep the last good copy instead.
  if (list.items.length === 0) {
    deps.log?.warn("item list not refreshed: the answer held no usable item; the last good copy stays");
    return { fetched: 0, items: 0, failed: 1 };
  }
  const names: StoredNames = {};
  for (const item of list.items) names[item.id] = item.tier ? [item.name, item.tier] : [item.name];
  await storeItemList(deps.db, {
    names,
    items: Object.keys(names).length,
    fetchedAt: now,
    lastUpdated: list.lastUpdated,
  });
  return { fetched: 1, items: Object.keys(names).length, failed: 0 };
}

/**
 * The words of the item names (split on anything not a letter, lower-case, 3 letters or more):
 * "SkyMart Hyper Vacuum", "InfiniVacuum™", "McGrubber's Burger" give "skymart", "hyper", "vacuum",
 * "infinivacuum", "mcgrubber", "burger". The game's own words, which the report scrubber's fallback
 * keeps (issue 36) however a player's name they look.
 */
export function itemWords(names: Iterable<string>): Set<string> {
  const words = new Set<string>();
  for (const name of names)
    for (const w of name.split(/[^A-Za-z]+/)) if (w.length >= 3 && w.length <= 16) words.add(w.toLowerCase());
  return words;
}

export type ItemNames = ItemNamer & {
  /** The names as this instance holds them, reloaded from the stored list when older than the reload interval. */
  current(): Promise<ItemNamer>;
  /** The words of the names held (itemWords), built once per reload. */
  words(): ReadonlySet<string>;
  /** How many names are held. */
  size(): number;
};

/** This instance's copy of the stored item names. */
export function itemNames(deps: { db: Db; clock: Clock; config: Pick<Config, "itemNamesReloadMs"> }): ItemNames {
  let names = new Map<string, string>();
  let loadedAt = Number.NEGATIVE_INFINITY;
  let version = "none";
  let loading: Promise<void> | null = null;
  let words: Set<string> | undefined; // built on first use after each reload
  const reload = async () => {
    const row = await storedItemList(deps.db);
    const next = new Map<string, string>();
    if (row) for (const [id, [name]] of Object.entries(row.names)) next.set(id, name);
    names = next;
    words = undefined;
    version = row ? String(row.fetchedAt) : "none";
    loadedAt = deps.clock.now();
  };
  const self: ItemNames = {
    itemName: (id) => names.get(id),
    get version() {
      return version;
    },
    size: () => names.size,
    words: () => {
      words ??= itemWords(names.values());
      return words;
    },
    async current() {
      if (deps.clock.now() - loadedAt >= deps.config.itemNamesReloadMs) {
        // One reload at a time; a failed one (the database away) keeps the names held.
        loading ??= reload()
          .catch(() => {})
          .finally(() => {
            loading = null;
          });
        await loading;
      }
      return self;
    },
  };
  return self;
}
