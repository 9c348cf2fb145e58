// Every cache of another player's public data, in one place: the profile documents and names of
// this module and the images of the assets module. Each row lives at most CACHE_MAX_AGE_HOURS
// (the caches job); erasing an account removes the player's rows from all of them at once.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import {
  cachedNamesAmong,
  cachedNamesOf,
  cachedProfiles,
  forgetPlayerProfiles,
  purgeProfileCaches,
} from "./profiles.query.ts";
import { forgetPlayerImages, headFetchedAt, purgeImages } from "../assets/asset-caches.ts";

const HOUR = 3_600_000;

export type CachesDeps = {
  db: Db;
  clock: Clock;
  config: Pick<Config, "cacheMaxAgeHours" | "unknownPlayerCacheMinutes">;
};

/** Forgets every cached row past its maximum age; answers the rows removed per cache. */
export async function purgeCaches(deps: CachesDeps) {
  const { profiles, names } = await purgeProfileCaches(deps.db, deps.clock.now() - deps.config.cacheMaxAgeHours * HOUR);
  const images = await purgeImages(deps);
  return { profiles, names, images };
}

/**
 * Which of these lower-case words are a player's name the name cache holds now (bug intake: a name
 * this instance looked up is replaced in a report, issue 36). Read, never written: the cache keeps
 * its own maximum age.
 */
export { cachedNamesAmong };

/** Removes the player's rows from every cache (account erasure); answers how many. */
export async function forgetPlayerCaches(db: Db, uuid: string): Promise<number> {
  return (await forgetPlayerProfiles(db, uuid)) + (await forgetPlayerImages(db, uuid));
}

export type CachePolicy = Pick<Config, "cacheMaxAgeHours" | "profileCacheHours" | "nameCacheHours" | "assetCacheHours">;

/**
 * For the export: what the caches of public data hold about this player now, and how long each
 * is kept. These are copies of public game data anyone may look up, not what the player recorded.
 */
export async function playerCaches(deps: { db: Db; config: CachePolicy }, uuid: string) {
  const { db, config } = deps;
  const profile = await cachedProfiles(db, uuid);
  return {
    maxAgeHours: config.cacheMaxAgeHours,
    gameProfiles: {
      refreshedAfterHours: config.profileCacheHours,
      fetchedAt: profile?.fetchedAt ?? null,
      profiles: profile?.profiles.length ?? 0,
    },
    names: { refreshedAfterHours: config.nameCacheHours, held: await cachedNamesOf(db, uuid) },
    head: { refreshedAfterHours: config.assetCacheHours, fetchedAt: await headFetchedAt(db, uuid) },
  };
}
