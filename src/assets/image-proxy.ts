// The image proxy's logic (contract 1.3). Each image is addressed by an id that matched its pattern;
// the upstream URL is rebuilt from settings and that id, never taken from an answer. Every image is
// decoded, size-checked and re-encoded, then cached in Postgres:
//   skin <texture hash> content-addressed: never asked again while cached, served immutable. The
//                       texture server throttling us (a 429, or its CDN's HTML 403) pauses it for
//                       every instance: 503 upstream_rate_limited meanwhile, heads from the cache or
//                       the default.
//   head <uuid>         rendered from the player's current skin, refreshed after ASSET_CACHE_HOURS;
//                       no skin, an unknown player, or an upstream in trouble: the default head.
//                       An unknown uuid is remembered UNKNOWN_PLAYER_CACHE_MINUTES (no head is
//                       stored for it), so asking again costs no upstream call meanwhile.
//                       The identity provider throttling (a 429, or its gateway's HTML 403) pauses
//                       head look-ups for every instance (it also answers sign-ins, which must not
//                       starve because of pictures).
//   item <item id>      from ITEM_IMAGES_URL, refreshed after ASSET_CACHE_HOURS
// Every cache miss spends one unit of its upstream's budget (UPSTREAM_MISS_BUDGET_PER_MINUTE, a row
// shared by every instance); with it spent, a stale copy or the default head is served, else 503.
// The caches job forgets every row after CACHE_MAX_AGE_HOURS.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { UpstreamError } from "../upstream/upstream-error.ts";
import { profileSkinHash } from "../upstream/identity.ts";
import { textureBytes } from "../upstream/textures.ts";
import { itemImageBytes } from "../upstream/item-images.ts";
import { backOff, backoffRemaining, DEFAULT_BACKOFF_MS, IDENTITY_HEADS, TEXTURES } from "../upstream/backoff.ts";
import { BadImage, decodePng, encodePng, etagOf } from "./png.ts";
import { defaultHead, renderHead } from "./head.ts";
import { cachedAsset, forgetAsset, storeAsset, type CachedAsset } from "./assets.query.ts";
import { countCache, type CacheOutcome, type Metrics } from "../metrics/metrics.ts";
import { spendBudget } from "../http/rate-limit.ts";

export type AssetDeps = {
  db: Db;
  clock: Clock;
  log: Log;
  fetch: typeof fetch;
  config: Pick<
    Config,
    | "identityUrl"
    | "texturesUrl"
    | "itemImagesUrl"
    | "upstreamTimeoutMs"
    | "assetCacheHours"
    | "imageMaxBytes"
    | "itemImageMaxSide"
    | "upstreamMissBudget"
    | "unknownPlayerCacheMinutes"
  >;
  metrics?: Metrics;
};

export type Image = { png: Uint8Array; etag: string; cacheControl: string };

const HOUR = 3_600_000;
export const IMMUTABLE = "public, max-age=31536000, immutable";
export const HEAD_CACHE = "public, max-age=3600";
export const ITEM_CACHE = "public, max-age=86400";
/** A default head shown because an upstream is in trouble: the browser asks again soon. */
export const FALLBACK_CACHE = "public, max-age=60";

const isSkinSize = (w: number, h: number) => w === 64 && (h === 64 || h === 32);

const retryAfter = (ms: number) => ({ "retry-after": String(Math.max(1, Math.ceil(ms / 1000))) });

/** An upstream's miss budget is spent for this minute. */
class BudgetSpent extends Error {
  constructor(
    readonly what: string,
    readonly retryAfterMs: number,
  ) {
    super(`this service's ${what} look-ups are spent for this minute`);
  }
}

const budgetFailure = (e: BudgetSpent) =>
  new ApiError("upstream_rate_limited", `${e.message}; try again shortly`, undefined, retryAfter(e.retryAfterMs));

function upstreamFailure(e: UpstreamError | BadImage, what: string): ApiError {
  if (e instanceof BadImage)
    return new ApiError("upstream_bad_image", `the ${what} upstream did not answer an acceptable PNG`);
  if (e.reason === "throttled") {
    const message = `the ${what} upstream asked us to slow down; try again shortly`;
    return new ApiError("upstream_rate_limited", message, undefined, retryAfter(e.waitMs ?? DEFAULT_BACKOFF_MS));
  }
  if (e.reason === "timeout")
    return new ApiError("upstream_timeout", `the ${what} upstream did not answer in time`, undefined, {
      "retry-after": "30",
    });
  if (e.reason === "malformed")
    return new ApiError("upstream_bad_image", `the ${what} upstream did not answer an acceptable PNG`);
  return new ApiError("upstream_unavailable", `the ${what} upstream is not answering properly`, undefined, {
    "retry-after": "30",
  });
}

export function imageProxy(deps: AssetDeps) {
  const fresh = (c: CachedAsset | undefined): boolean =>
    !!c && deps.clock.now() - c.fetchedAt < deps.config.assetCacheHours * HOUR;
  const fallbackHead = defaultHead();
  const fallback: Image = { png: fallbackHead, etag: etagOf(fallbackHead), cacheControl: FALLBACK_CACHE };
  const timeoutMs = deps.config.upstreamTimeoutMs;
  const maxBytes = deps.config.imageMaxBytes;
  const count = (outcome: CacheOutcome) => countCache(deps.metrics, "images", outcome);
  /** Spends one miss of `upstream`'s budget, or throws BudgetSpent. */
  const spend = async (upstream: string, what: string) => {
    const wait = await spendBudget(deps, upstream, deps.config.upstreamMissBudget);
    if (wait > 0) throw new BudgetSpent(what, wait);
  };

  /** The decoded skin, from the cache or the texture server; null when the server has none. */
  async function skinPng(hash: string): Promise<{ png: Uint8Array; hit: boolean } | null> {
    const cached = await cachedAsset(deps.db, "skin", hash);
    if (cached) return { png: cached.png, hit: true };
    const wait = await backoffRemaining(deps, TEXTURES);
    if (wait > 0)
      throw new UpstreamError("texture server", "throttled", "the texture server asked us to wait", undefined, wait);
    await spend("textures", "texture");
    let bytes: Awaited<ReturnType<typeof textureBytes>>;
    try {
      bytes = await textureBytes(
        { fetch: deps.fetch, texturesUrl: deps.config.texturesUrl, timeoutMs, maxBytes },
        hash,
      );
    } catch (e) {
      if (e instanceof UpstreamError && e.reason === "throttled")
        await backOff(deps, TEXTURES, e.waitMs ?? DEFAULT_BACKOFF_MS);
      throw e;
    }
    if (!bytes) return null;
    const png = encodePng(decodePng(bytes, isSkinSize));
    await storeAsset(deps.db, "skin", hash, { png, etag: etagOf(png), fetchedAt: deps.clock.now() });
    return { png, hit: false };
  }

  return {
    async skin(hash: string): Promise<Image> {
      let skin: Awaited<ReturnType<typeof skinPng>>;
      try {
        skin = await skinPng(hash);
      } catch (e) {
        if (e instanceof BudgetSpent) throw budgetFailure(e);
        if (!(e instanceof UpstreamError || e instanceof BadImage)) throw e;
        deps.log.warn("skin unavailable", { reason: e.message });
        throw upstreamFailure(e, "texture");
      }
      if (!skin) throw new ApiError("not_found", "no skin has this texture hash");
      count(skin.hit ? "hit" : "miss");
      return { png: skin.png, etag: etagOf(skin.png), cacheControl: IMMUTABLE };
    },

    async head(uuid: string): Promise<Image> {
      const cached = await cachedAsset(deps.db, "head", uuid);
      if (cached && fresh(cached)) return (count("hit"), { ...cached, cacheControl: HEAD_CACHE });
      const stale = () => (count("stale"), cached ? { ...cached, cacheControl: FALLBACK_CACHE } : fallback);
      // A uuid the identity provider did not know a moment ago: the default head, no upstream call.
      const unknown = await cachedAsset(deps.db, "unknown-head", uuid);
      if (unknown && deps.clock.now() - unknown.fetchedAt < deps.config.unknownPlayerCacheMinutes * 60_000)
        return (count("hit"), fallback);
      if ((await backoffRemaining(deps, IDENTITY_HEADS)) > 0) return stale();
      let png: Uint8Array;
      try {
        await spend(IDENTITY_HEADS, "identity provider");
        const profile = await profileSkinHash(
          { fetch: deps.fetch, identityUrl: deps.config.identityUrl, timeoutMs },
          uuid,
        );
        if (!profile) {
          // No such player: nothing is kept of it but the fact, briefly (the caches job forgets it).
          await storeAsset(deps.db, "unknown-head", uuid, {
            png: new Uint8Array(0),
            etag: "",
            fetchedAt: deps.clock.now(),
          });
          if (cached) await forgetAsset(deps.db, "head", uuid);
          count("miss");
          return fallback;
        }
        const skin = profile.skinHash ? await skinPng(profile.skinHash) : null;
        png = skin ? renderHead(decodePng(skin.png, isSkinSize)) : fallbackHead;
      } catch (e) {
        if (e instanceof BudgetSpent) return stale();
        if (e instanceof BadImage) {
          // The skin itself is unusable, and will stay so: the default head is this player's head.
          deps.log.warn("skin unusable; the head is the default head", { reason: e.message });
          png = fallbackHead;
        } else if (e instanceof UpstreamError) {
          if (e.upstream === "identity provider" && e.reason === "throttled") {
            await backOff(deps, IDENTITY_HEADS, e.waitMs ?? DEFAULT_BACKOFF_MS);
          }
          deps.log.warn("head unavailable; serving the last one or the default head", { reason: e.message });
          return stale();
        } else throw e;
      }
      const etag = etagOf(png);
      await storeAsset(deps.db, "head", uuid, { png, etag, fetchedAt: deps.clock.now() });
      count("miss");
      return { png, etag, cacheControl: HEAD_CACHE };
    },

    async item(id: string): Promise<Image> {
      if (!deps.config.itemImagesUrl)
        throw new ApiError("not_found", "item images are not served here (ITEM_IMAGES_URL is not set)");
      const cached = await cachedAsset(deps.db, "item", id);
      if (cached && fresh(cached)) return (count("hit"), { ...cached, cacheControl: ITEM_CACHE });
      let png: Uint8Array | null;
      try {
        await spend("item-images", "item image");
        const bytes = await itemImageBytes(
          { fetch: deps.fetch, itemImagesUrl: deps.config.itemImagesUrl, timeoutMs, maxBytes },
          id,
        );
        const max = deps.config.itemImageMaxSide;
        png = bytes && encodePng(decodePng(bytes, (w, h) => w >= 1 && h >= 1 && w <= max && h <= max));
      } catch (e) {
        if (e instanceof BudgetSpent) {
          if (cached) return (count("stale"), { ...cached, cacheControl: FALLBACK_CACHE });
          throw budgetFailure(e);
        }
        if (!(e instanceof UpstreamError || e instanceof BadImage)) throw e;
        deps.log.warn("item image unavailable", { reason: e.message });
        if (cached) return (count("stale"), { ...cached, cacheControl: FALLBACK_CACHE });
        throw upstreamFailure(e, "item image");
      }
      if (!png) throw new ApiError("not_found", "no image for this item");
      const etag = etagOf(png);
      await storeAsset(deps.db, "item", id, { png, etag, fetchedAt: deps.clock.now() });
      count("miss");
      return { png, etag, cacheControl: ITEM_CACHE };
    },
  };
}
