// The profile source (contract 1): answers lookups with the project's one game API key, from the
// cache while it is fresh (PROFILE_CACHE_HOURS), else from the game API. Concurrent misses for one
// uuid make one upstream call: within an instance they share one promise; across instances (only
// possible on Postgres) the refresh runs under a transaction-scoped advisory lock and re-reads the
// cache once it has the lock. The embedded database belongs to one process (DATA_DIR is flocked),
// and PGlite runs one statement at a time, so there the refresh holds no transaction open across
// the upstream call (that would stall every other query for as long as the upstream takes).
// When the upstream fails, the last good document is served, marked stale, for PROFILE_STALE_HOURS.
import type { Db } from "../db/database.ts";
import { isEmbedded } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { countCache, type Metrics } from "../metrics/metrics.ts";
import { GameApiError, skyblockProfiles } from "../upstream/game-api.ts";
import { backOff, backoffRemaining, DEFAULT_BACKOFF_MS } from "../upstream/backoff.ts";
import { spendBudget } from "../http/rate-limit.ts";
import { allowlistProfiles, type ProfileEntry } from "./allowlist.ts";
import { cachedProfiles, lockProfileRefresh, storeProfiles, type CachedProfiles } from "./profiles.query.ts";

export type ProfileDeps = {
  db: Db;
  clock: Clock;
  log: Log;
  fetch: typeof fetch;
  config: Pick<
    Config,
    | "gameApiUrl"
    | "gameApiKey"
    | "gameApiMaxBytes"
    | "upstreamTimeoutMs"
    | "profileCacheHours"
    | "profileStaleHours"
    | "gameApiReserve"
    | "upstreamMissBudget"
    | "cacheMaxAgeHours"
  >;
  metrics?: Metrics;
};

export type ProfileLookup = { uuid: string; fetchedAt: number; stale: boolean; profiles: ProfileEntry[] };

const HOUR = 3_600_000;
const UPSTREAM = "game-api";

type Refresh = { ok: CachedProfiles } | { failed: GameApiError; retryAfterMs?: number };

export function profileSource(deps: ProfileDeps) {
  const inFlight = new Map<string, Promise<Refresh>>();
  const fresh = (c: CachedProfiles | undefined): c is CachedProfiles =>
    !!c && deps.clock.now() - c.fetchedAt < deps.config.profileCacheHours * HOUR;

  /** Asks the game API (unless it asked us to wait) and stores the allowlisted answer. */
  async function fetchAndStore(db: Db, uuid: string): Promise<Refresh> {
    const wait = await backoffRemaining({ db, clock: deps.clock }, UPSTREAM);
    if (wait > 0)
      return {
        failed: new GameApiError("throttled", "game API budget spent; waiting for its reset"),
        retryAfterMs: wait,
      };
    // The key's quota is shared by every client: at most UPSTREAM_MISS_BUDGET_PER_MINUTE misses a minute.
    const spent = await spendBudget({ db, clock: deps.clock }, UPSTREAM, deps.config.upstreamMissBudget);
    if (spent > 0)
      return {
        failed: new GameApiError("throttled", "this service's game API misses are spent for this minute"),
        retryAfterMs: spent,
      };
    try {
      const { gameApiUrl, gameApiKey, gameApiMaxBytes: maxBytes, upstreamTimeoutMs: timeoutMs } = deps.config;
      const answer = await skyblockProfiles({ fetch: deps.fetch, gameApiUrl, gameApiKey, timeoutMs, maxBytes }, uuid);
      const stored = { profiles: allowlistProfiles(answer.profiles, uuid), fetchedAt: deps.clock.now() };
      await storeProfiles(db, uuid, stored.profiles, stored.fetchedAt);
      const { remaining, resetSeconds } = answer.budget;
      if (remaining !== undefined && remaining <= deps.config.gameApiReserve) {
        const ms = (resetSeconds ?? DEFAULT_BACKOFF_MS / 1000) * 1000;
        deps.log.warn("game API budget at its reserve; pausing lookups until its reset", { remaining, resetSeconds });
        await backOff({ db, clock: deps.clock }, UPSTREAM, ms);
      }
      return { ok: stored };
    } catch (e) {
      if (!(e instanceof GameApiError)) throw e;
      let retryAfterMs: number | undefined;
      if (e.fault === "throttled") {
        retryAfterMs = (e.budget.resetSeconds ?? DEFAULT_BACKOFF_MS / 1000) * 1000;
        await backOff({ db, clock: deps.clock }, UPSTREAM, retryAfterMs);
      }
      const level = e.fault === "key_rejected" ? "error" : "warn";
      deps.log[level]("game API lookup failed", { fault: e.fault, status: e.status, detail: e.message });
      return { failed: e, retryAfterMs };
    }
  }

  async function refresh(uuid: string): Promise<Refresh> {
    if (isEmbedded(deps.db)) return fetchAndStore(deps.db, uuid);
    return deps.db.transaction(async (tx) => {
      await lockProfileRefresh(tx as unknown as Db, uuid);
      const again = await cachedProfiles(tx as unknown as Db, uuid);
      if (fresh(again)) return { ok: again }; // another instance refreshed it while we waited
      return fetchAndStore(tx as unknown as Db, uuid);
    });
  }

  function refreshOnce(uuid: string): Promise<Refresh> {
    let pending = inFlight.get(uuid);
    if (!pending) {
      pending = refresh(uuid).finally(() => inFlight.delete(uuid));
      inFlight.set(uuid, pending);
    }
    return pending;
  }

  return {
    async lookup(uuid: string): Promise<ProfileLookup> {
      if (!deps.config.gameApiKey) {
        throw new ApiError(
          "no_upstream_key",
          "profile lookups are not available: this service has no game API key configured yet",
        );
      }
      const cached = await cachedProfiles(deps.db, uuid);
      if (fresh(cached)) {
        countCache(deps.metrics, "profiles", "hit");
        return { uuid, fetchedAt: cached.fetchedAt, stale: false, profiles: cached.profiles };
      }
      const result = await refreshOnce(uuid);
      if ("ok" in result) {
        countCache(deps.metrics, "profiles", "miss");
        return { uuid, fetchedAt: result.ok.fetchedAt, stale: false, profiles: result.ok.profiles };
      }
      const fault = result.failed.fault;
      if (fault === "malformed_uuid")
        throw new ApiError("upstream_refused_uuid", "the game API does not accept this uuid");
      // Anything else is the upstream's trouble, not the player's: the last good document will do.
      const last = cached ?? (await cachedProfiles(deps.db, uuid));
      if (
        last &&
        deps.clock.now() - last.fetchedAt <=
          Math.min(deps.config.profileStaleHours, deps.config.cacheMaxAgeHours) * HOUR
      ) {
        countCache(deps.metrics, "profiles", "stale");
        return { uuid, fetchedAt: last.fetchedAt, stale: true, profiles: last.profiles };
      }
      throw upstreamFailure(fault, result.retryAfterMs);
    },
  };
}

function upstreamFailure(fault: GameApiError["fault"], retryAfterMs?: number): ApiError {
  const retry = (ms: number) => ({ "retry-after": String(Math.max(1, Math.ceil(ms / 1000))) });
  switch (fault) {
    case "key_rejected":
      return new ApiError(
        "upstream_key_rejected",
        "the game API refused this service's key; profile lookups are unavailable until its operator replaces it",
      );
    case "throttled":
      return new ApiError(
        "upstream_rate_limited",
        "the game API's rate limit for this service is spent; try again later",
        undefined,
        retry(retryAfterMs ?? DEFAULT_BACKOFF_MS),
      );
    case "timeout":
      return new ApiError(
        "upstream_timeout",
        "the game API did not answer in time; try again shortly",
        undefined,
        retry(30_000),
      );
    default:
      return new ApiError(
        "upstream_unavailable",
        "the game API is not answering properly; try again shortly",
        undefined,
        retry(30_000),
      );
  }
}
