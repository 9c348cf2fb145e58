// Settings: Profile and player look-ups and the caches of other players' public data (src/profiles/).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting } from "./setting.ts";

export const profilesSettings = {
  profileCacheHours: setting({
    env: "PROFILE_CACHE_HOURS",
    schema: T.Integer({ minimum: 1, maximum: 48 }),
    default: "2",
    doc: "How long a profile lookup is answered from the cache before the game API is asked again, in hours.",
  }),
  profileStaleHours: setting({
    env: "PROFILE_STALE_HOURS",
    schema: T.Integer({ minimum: 0, maximum: 720 }),
    default: "72",
    doc: "How old a cached profile may be and still be served (marked stale) while the game API fails, in hours. 0: never.",
  }),
  nameCacheHours: setting({
    env: "NAME_CACHE_HOURS",
    schema: T.Integer({ minimum: 1, maximum: 720 }),
    default: "24",
    doc: "How long a player name's uuid is kept before the name service is asked again, in hours.",
  }),
  cacheMaxAgeHours: setting({
    env: "CACHE_MAX_AGE_HOURS",
    schema: T.Integer({ minimum: 1, maximum: 8760 }),
    default: "72",
    doc: "Longest any cached copy of another player's public data (profile documents, name look-ups, heads, skins, item images) is kept, fresh or stale; the caches job deletes older rows. At least PROFILE_CACHE_HOURS, NAME_CACHE_HOURS and ASSET_CACHE_HOURS.",
  }),
  lookupRateLimit: setting({
    env: "LOOKUP_RATE_LIMIT_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "60",
    doc: "Profile and player look-ups one client address may make per minute. 0: no limit.",
  }),
} as const;
