// The game platform's API (Hypixel): the SkyBlock profiles of one player.
//   GET {GAME_API_URL}/v2/skyblock/profiles?uuid=<uuid>   header API-Key: <the project's key>
//   200 { success: true, profiles: [...] | null }; errors { success: false, cause } with 403 (bad
//   key), 422 (malformed uuid), 429 (throttled, RateLimit-* headers); Cloudflare 5xx HTML pages.
// The key goes into the header and nowhere else: no message below ever carries it.
// Every status carries a JSON body worth reading (its `cause`), so this client takes the call and
// the capped read from call.ts and sorts the statuses itself. The body is read under maxBytes
// (GAME_API_MAX_BYTES): real answers run to about 3 MB for a player with five co-op profiles.
import { bodyBytes } from "./call.ts";
import { callUpstream, UpstreamError } from "./upstream-error.ts";

export type GameApiDeps = {
  fetch: typeof fetch;
  gameApiUrl: string;
  gameApiKey: string;
  timeoutMs: number;
  maxBytes: number;
};

/** The upstream's rate-limit budget as its headers told it (absent headers: unknown). */
export type RateBudget = { remaining?: number; resetSeconds?: number };

export type GameApiFault = "key_rejected" | "malformed_uuid" | "throttled" | "unavailable" | "timeout";

export class GameApiError extends Error {
  override name = "GameApiError";
  constructor(
    readonly fault: GameApiFault,
    message: string,
    readonly budget: RateBudget = {},
    readonly status?: number,
  ) {
    super(message);
  }
}

function budgetOf(headers: Headers): RateBudget {
  const int = (name: string) => {
    const v = headers.get(name);
    return v !== null && /^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : undefined;
  };
  return { remaining: int("ratelimit-remaining"), resetSeconds: int("ratelimit-reset") };
}

/** The raw `profiles` value (an array, or null for a player without profiles) and the budget left. */
export async function skyblockProfiles(
  deps: GameApiDeps,
  uuid: string,
): Promise<{ profiles: unknown[] | null; budget: RateBudget }> {
  const url = `${deps.gameApiUrl}/v2/skyblock/profiles?uuid=${encodeURIComponent(uuid)}`;
  let res: Response;
  try {
    res = await callUpstream(deps.fetch, "game API", url, deps.timeoutMs, {
      headers: { "API-Key": deps.gameApiKey, accept: "application/json" },
    });
  } catch (e) {
    if (e instanceof UpstreamError)
      throw new GameApiError(e.reason === "timeout" ? "timeout" : "unavailable", e.message);
    throw e;
  }
  const budget = budgetOf(res.headers);
  let body: { success?: unknown; profiles?: unknown; cause?: unknown } | undefined;
  let bytes: Uint8Array;
  try {
    bytes = await bodyBytes(res, "game API", deps.maxBytes, deps.timeoutMs);
  } catch (e) {
    if (!(e instanceof UpstreamError)) throw e;
    throw new GameApiError(e.reason === "timeout" ? "timeout" : "unavailable", e.message, budget, res.status);
  }
  try {
    body = JSON.parse(new TextDecoder().decode(bytes)) as typeof body;
  } catch {
    body = undefined; // a Cloudflare HTML page, or a cut-off body
  }
  const cause = typeof body?.cause === "string" ? body.cause.slice(0, 200) : undefined;
  switch (res.status) {
    case 200:
      if (body?.success === true && (body.profiles === null || Array.isArray(body.profiles)))
        return { profiles: body.profiles as unknown[] | null, budget };
      throw new GameApiError("unavailable", "game API answered 200 without a profiles list", budget, 200);
    case 403:
      throw new GameApiError("key_rejected", `game API refused the key (${cause ?? "403"})`, budget, 403);
    case 422:
      throw new GameApiError("malformed_uuid", `game API refused the uuid (${cause ?? "422"})`, budget, 422);
    case 429:
      throw new GameApiError("throttled", `game API throttled the key (${cause ?? "429"})`, budget, 429);
    default:
      throw new GameApiError("unavailable", `game API answered ${res.status}`, budget, res.status);
  }
}
