// Fixed-window rate limits kept in Postgres, so several instances share one count per client.
// A refused request answers 429 rate_limited with Retry-After (seconds to the next window).
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { ApiError } from "./errors.ts";
import { countRequest, purgeWindows } from "./rate-limit.query.ts";

export type RateLimit = { name: string; perWindow: number; windowMs: number };

export async function enforceRateLimit(deps: { db: Db; clock: Clock }, limit: RateLimit, client: string): Promise<void> {
  if (limit.perWindow <= 0) return;
  const now = deps.clock.now();
  const windowStart = now - (now % limit.windowMs);
  const count = await countRequest(deps.db, `${limit.name}:${client}`, windowStart);
  // The first request of a window tidies buckets idle for a whole window (a cheap indexed delete).
  if (count === 1) await purgeWindows(deps.db, windowStart - limit.windowMs);
  if (count > limit.perWindow) {
    const retryAfter = Math.max(1, Math.ceil((windowStart + limit.windowMs - now) / 1000));
    throw new ApiError("rate_limited", `too many requests; try again in ${retryAfter} s`, undefined, { "retry-after": String(retryAfter) });
  }
}
