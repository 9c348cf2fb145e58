// Player lookups by name for the public profile pages (/v1/players/<name>...): the name resolves
// to a uuid through the name service (cached NAME_CACHE_HOURS; an unknown name is not cached), and
// the profiles come from the profile source.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { countCache, type Metrics } from "../metrics/metrics.ts";
import { uuidForName } from "../upstream/names.ts";
import { UpstreamError } from "../upstream/upstream-error.ts";
import { backOff, backoffRemaining, DEFAULT_BACKOFF_MS } from "../upstream/backoff.ts";
import { spendBudget } from "../http/rate-limit.ts";
import { cachedName, forgetName, storeName } from "./profiles.query.ts";
import type { ProfileLookup } from "./profile-source.ts";

export type PlayerDeps = {
  db: Db;
  clock: Clock;
  log: Log;
  fetch: typeof fetch;
  config: Pick<Config, "namesUrl" | "upstreamTimeoutMs" | "nameCacheHours" | "baseUrl" | "upstreamMissBudget">;
  metrics?: Metrics;
};

const HOUR = 3_600_000;
const UPSTREAM = "names";

export type Player = { uuid: string; name: string; head: string };

export async function findPlayer(deps: PlayerDeps, name: string): Promise<Player> {
  const cached = await cachedName(deps.db, name);
  const player = (p: { uuid: string; name: string }): Player => ({
    uuid: p.uuid,
    name: p.name,
    head: `${deps.config.baseUrl}/v1/assets/head/${p.uuid}.png`,
  });
  if (cached && deps.clock.now() - cached.fetchedAt < deps.config.nameCacheHours * HOUR) {
    countCache(deps.metrics, "names", "hit");
    return player(cached);
  }
  const stale = (p: { uuid: string; name: string }) => (countCache(deps.metrics, "names", "stale"), player(p));
  const wait = await backoffRemaining(deps, UPSTREAM);
  if (wait > 0) {
    if (cached) return stale(cached);
    throw new ApiError(
      "upstream_rate_limited",
      "the name service asked us to slow down; try again shortly",
      undefined,
      { "retry-after": String(Math.ceil(wait / 1000)) },
    );
  }
  // A miss costs the name service's quota, shared by every client: UPSTREAM_MISS_BUDGET_PER_MINUTE.
  const spent = await spendBudget(deps, UPSTREAM, deps.config.upstreamMissBudget);
  if (spent > 0) {
    if (cached) return stale(cached);
    throw new ApiError(
      "upstream_rate_limited",
      "this service's look-ups of the name service are spent for this minute; try again shortly",
      undefined,
      { "retry-after": String(Math.ceil(spent / 1000)) },
    );
  }
  let found: Awaited<ReturnType<typeof uuidForName>>;
  try {
    found = await uuidForName(
      { fetch: deps.fetch, namesUrl: deps.config.namesUrl, timeoutMs: deps.config.upstreamTimeoutMs },
      name,
    );
  } catch (e) {
    if (!(e instanceof UpstreamError)) throw e;
    // A 429, or its gateway's HTML 403: every instance leaves the name service alone for a while.
    const pause = e.reason === "throttled" ? (e.waitMs ?? DEFAULT_BACKOFF_MS) : 0;
    if (pause) await backOff(deps, UPSTREAM, pause);
    deps.log.warn("name lookup failed", { reason: e.reason, status: e.status });
    if (cached) return stale(cached); // the name held this uuid a while ago: better than nothing
    if (pause) {
      const retryAfter = String(Math.ceil(Math.max(1000, pause) / 1000));
      throw new ApiError(
        "upstream_rate_limited",
        "the name service asked us to slow down; try again shortly",
        undefined,
        { "retry-after": retryAfter },
      );
    }
    if (e.reason === "timeout")
      throw new ApiError("upstream_timeout", "the name service did not answer in time; try again shortly", undefined, {
        "retry-after": "30",
      });
    throw new ApiError(
      "upstream_unavailable",
      "the name service is not answering properly; try again shortly",
      undefined,
      { "retry-after": "30" },
    );
  }
  if (!found) {
    if (cached) await forgetName(deps.db, name);
    throw new ApiError("unknown_player", `no player is named ${name}`);
  }
  await storeName(deps.db, { ...found, fetchedAt: deps.clock.now() });
  countCache(deps.metrics, "names", "miss");
  return player(found);
}

/** What a profile page shows at the top: which profile is selected and how many there are. */
export function summarise(player: Player, lookup: ProfileLookup) {
  const selected = lookup.profiles.find((p) => p.selected) ?? lookup.profiles[0];
  return {
    ...player,
    fetchedAt: lookup.fetchedAt,
    stale: lookup.stale,
    profileCount: lookup.profiles.length,
    ...(selected
      ? {
          selected: {
            profileId: selected.profileId,
            ...(selected.cuteName ? { cuteName: selected.cuteName } : {}),
            ...(selected.gameMode ? { gameMode: selected.gameMode } : {}),
          },
        }
      : {}),
  };
}
