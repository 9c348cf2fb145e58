// What every statistics page of an account has: its dependencies, its profiles, and how a page
// names them (by a handle, never the game's profile id: issue 34).
import { createHmac } from "node:crypto";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Account } from "../accounts/accounts.ts";
import { latestProfile, type listProfiles } from "../stats/fold.ts";
import type { LifetimeMemo } from "../stats/lifetime-memo.ts";
import type { WorkGate } from "../http/work-gate.ts";
import type { ItemNames } from "../items/item-names.ts";
import type { PageCache } from "./page-cache.ts";

export type StatsPageDeps = {
  db: Db;
  /** Every key's lifetime figure, shared with the cards (read once per upload). */
  lifetimes: LifetimeMemo;
  /** The instance's page, card and badge renders, taking turns (PAGE_RENDERS_AT_ONCE). */
  renders: WorkGate;
  clock: Clock;
  catalogue: Catalogue;
  /** The game's item names (absent: item ids in words). */
  items?: ItemNames;
  /** The kept pages others see, shared with the public figures (GET /v1/pages/<name>). */
  pages: PageCache;
  config: Pick<
    Config,
    | "baseUrl"
    | "itemImagesUrl"
    | "pageCookieTtlMs"
    | "pageRateLimit"
    | "pageCacheTtlMs"
    | "pageCacheMaxBytes"
    | "pageRenderBudgetMs"
    | "pageStatementTimeoutMs"
    | "trustProxy"
    | "exportPageRows"
    | "tokensMaxPerAccount"
  >;
};

export type Profiles = Awaited<ReturnType<typeof listProfiles>>;

/** How a page names a profile in its links: a handle, never the game's profile id (issue 34). */
export type HandleOf = (profileId: string) => string;

/**
 * A profile's handle on a page: an HMAC of its id under a secret of that page (a share page: its
 * share key, so the handle means nothing without the key and changes when the key is rotated; a
 * page by name: the account's uuid). 12 base64url characters: no 32-hex id ever reaches a link.
 */
export function profileHandle(secret: string): HandleOf {
  return (profileId) => createHmac("sha256", secret).update(profileId).digest("base64url").slice(0, 12);
}

/** The handle secret of a page by name (the share page's is its key). */
export const namePageSecret = (account: Account) => `tally page ${account.uuid}`;

/** The profile a page shows: the one asked for (by handle) if the account holds it, else the one last uploaded for. */
export function shownProfile(profiles: Profiles, asked: string | null, handleOf: HandleOf): Profiles[number] | null {
  return (asked !== null ? profiles.find((p) => handleOf(p.id) === asked) : undefined) ?? latestProfile(profiles);
}
