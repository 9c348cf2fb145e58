// The image cache's lifetime: rows older than CACHE_MAX_AGE_HOURS are forgotten (so are unknown
// players after UNKNOWN_PLAYER_CACHE_MINUTES), and erasing an account forgets its head.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { cachedAsset, forgetPlayerAssets, purgeAssets } from "./assets.query.ts";

const HOUR = 3_600_000;

export async function purgeImages(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, "cacheMaxAgeHours" | "unknownPlayerCacheMinutes">;
}) {
  const now = deps.clock.now();
  return purgeAssets(
    deps.db,
    now - deps.config.cacheMaxAgeHours * HOUR,
    now - deps.config.unknownPlayerCacheMinutes * 60_000,
  );
}

export const forgetPlayerImages = (db: Db, uuid: string) => forgetPlayerAssets(db, uuid);

/** When this player's head was fetched, if one is kept. */
export async function headFetchedAt(db: Db, uuid: string): Promise<number | null> {
  return (await cachedAsset(db, "head", uuid))?.fetchedAt ?? null;
}
