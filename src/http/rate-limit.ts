// Fixed-window rate limits kept in Postgres, so several instances share one count per client.
// IPv6 addresses share one bucket per /64. A refused request answers 429 rate_limited with Retry-After (seconds to the next window).
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { ApiError } from "./errors.ts";
import { countRequest, purgeWindows } from "./rate-limit.query.ts";
import { addressSubject } from "./client-address.ts";

export type RateLimit = { name: string; perWindow: number; windowMs: number };

/** `client` is an address (counted per IPv4 address, per IPv6 /64) or another subject such as an account. */
export async function enforceRateLimit(
  deps: { db: Db; clock: Clock },
  limit: RateLimit,
  client: string,
): Promise<void> {
  if (limit.perWindow <= 0) return;
  client = addressSubject(client);
  const now = deps.clock.now();
  const windowStart = now - (now % limit.windowMs);
  const count = await countRequest(deps.db, `${limit.name}:${client}`, windowStart);
  // The first request of a window tidies buckets idle for a whole window (a cheap indexed delete).
  if (count === 1) await purgeWindows(deps.db, limit.name, windowStart - limit.windowMs);
  if (count > limit.perWindow) throw tooMany(windowStart + limit.windowMs - now);
}

/**
 * A limit by cost (issue 40): runs `work` unless the subject has spent its window's `perWindow`
 * units (then 429 rate_limited with Retry-After), and charges the milliseconds it took (at least
 * one), by the service's clock. Work already under way when the budget runs out finishes; the next
 * is refused.
 */
export async function withinCostLimit<T>(
  deps: { db: Db; clock: Clock },
  limit: RateLimit,
  subject: string,
  work: () => Promise<T>,
): Promise<T> {
  if (limit.perWindow <= 0) return work();
  const now = deps.clock.now();
  const windowStart = now - (now % limit.windowMs);
  const bucket = `${limit.name}:${subject}`;
  const spent = await countRequest(deps.db, bucket, windowStart, 0);
  if (spent === 0) await purgeWindows(deps.db, limit.name, windowStart - limit.windowMs);
  if (spent >= limit.perWindow) throw tooMany(windowStart + limit.windowMs - now);
  try {
    return await work();
  } finally {
    await countRequest(deps.db, bucket, windowStart, Math.max(1, Math.ceil(deps.clock.now() - now)));
  }
}

function tooMany(waitMs: number) {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError("rate_limited", `too many requests; try again in ${retryAfter} s`, undefined, {
    "retry-after": String(retryAfter),
  });
}

/**
 * Spends one unit of a service-wide budget per minute (one row shared by every instance and every
 * client), such as the cache misses an upstream may cost. Answers 0 when the unit was spent, else
 * the milliseconds until the budget refills.
 */
export async function spendBudget(deps: { db: Db; clock: Clock }, name: string, perMinute: number): Promise<number> {
  if (perMinute <= 0) return 0;
  const windowMs = 60_000;
  const now = deps.clock.now();
  const windowStart = now - (now % windowMs);
  const count = await countRequest(deps.db, `budget:${name}`, windowStart);
  return count > perMinute ? windowStart + windowMs - now : 0;
}
