// Fixed-window rate limits kept in Postgres, so several instances share one count per client.
// IPv6 addresses share one bucket per /64. A refused request answers 429 rate_limited with Retry-After (seconds to the next window).
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { ApiError } from "./errors.ts";
import { countRequest, countRequestNoFlush, purgeWindows, uncountRequest } from "./rate-limit.query.ts";
import { addressSubject } from "./client-address.ts";

/** `what` names what is counted in the refusal ("requests" unless said). */
export type RateLimit = { name: string; perWindow: number; windowMs: number; what?: string };

/** `client` is an address (counted per IPv4 address, per IPv6 /64) or another subject such as an account. */
export async function enforceRateLimit(
  deps: { db: Db; clock: Clock },
  limit: RateLimit,
  client: string,
): Promise<void> {
  if (limit.perWindow > 0) await countInWindow(deps, limit, client);
}

/**
 * A limit on failed attempts at a secret rather than on requests. The attempt is counted before
 * `correct` is asked, so concurrent guesses cannot all slip in under the count: past the limit it
 * is refused (429) without being tried. A correct attempt is then uncounted, so only failures fill
 * the window and an operator's own requests never use it up. Answers what `correct` answered.
 */
export async function limitFailures(
  deps: { db: Db; clock: Clock },
  limit: RateLimit,
  client: string,
  correct: () => boolean,
): Promise<boolean> {
  if (limit.perWindow <= 0) return correct();
  const counted = await countInWindow(deps, limit, client);
  if (!correct()) return false;
  await uncountRequest(deps.db, counted.bucket, counted.windowStart);
  return true;
}

/**
 * Buckets this instance has seen past their limit, with that window and the count it had: a client
 * that goes on after its refusal is refused from here, with no statement, while the window lasts.
 * What the database would answer cannot change meanwhile (a window's count only grows, and a
 * refused attempt is never tried, so never uncounted), so every instance still agrees. One map per
 * database, at most REFUSED_MEMO_BUCKETS entries (the oldest go first).
 */
const refusedIn = new WeakMap<Db, Map<string, { windowStart: number; count: number }>>();
const REFUSED_MEMO_BUCKETS = 10_000;

function refusedFor(db: Db) {
  let memo = refusedIn.get(db);
  if (!memo) refusedIn.set(db, (memo = new Map()));
  return memo;
}

/** Counts one request of `client` in the limit's current window; throws 429 past the limit. */
async function countInWindow(deps: { db: Db; clock: Clock }, limit: RateLimit, client: string) {
  const bucket = `${limit.name}:${addressSubject(client)}`;
  const now = deps.clock.now();
  const windowStart = now - (now % limit.windowMs);
  const memo = refusedFor(deps.db);
  const refused = memo.get(bucket);
  if (refused && refused.windowStart === windowStart && refused.count > limit.perWindow)
    throw tooMany(windowStart + limit.windowMs - now, limit.what);
  const count = await countRequest(deps.db, bucket, windowStart);
  // The first request of a window tidies buckets idle for a whole window (a cheap indexed delete).
  if (count === 1) await purgeWindows(deps.db, limit.name, windowStart - limit.windowMs);
  if (count > limit.perWindow) {
    memo.delete(bucket);
    if (memo.size >= REFUSED_MEMO_BUCKETS) memo.delete(memo.keys().next().value!);
    memo.set(bucket, { windowStart, count });
    throw tooMany(windowStart + limit.windowMs - now, limit.what);
  }
  return { bucket, windowStart };
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
  if (spent >= limit.perWindow) throw tooMany(windowStart + limit.windowMs - now, limit.what);
  try {
    return await work();
  } finally {
    await countRequest(deps.db, bucket, windowStart, Math.max(1, Math.ceil(deps.clock.now() - now)));
  }
}

/**
 * Counts one request of a metered subject (a personal access token) in the limit's window and
 * answers its RateLimit-Limit, -Remaining and -Reset headers (seconds to the window's end); past
 * the limit throws 429 rate_limited carrying them and Retry-After.
 */
export async function meterRequest(
  deps: { db: Db; clock: Clock },
  limit: RateLimit,
  subject: string,
): Promise<Record<string, string>> {
  const now = deps.clock.now();
  const windowStart = now - (now % limit.windowMs);
  const count = await countRequestNoFlush(deps.db, `${limit.name}:${subject}`, windowStart);
  if (count === 1) await purgeWindows(deps.db, limit.name, windowStart - limit.windowMs);
  const reset = Math.max(1, Math.ceil((windowStart + limit.windowMs - now) / 1000));
  const headers = {
    "ratelimit-limit": String(limit.perWindow),
    "ratelimit-remaining": String(Math.max(0, limit.perWindow - count)),
    "ratelimit-reset": String(reset),
  };
  if (count > limit.perWindow) {
    const refusal = tooMany(windowStart + limit.windowMs - now, limit.what);
    Object.assign(refusal.headers, headers);
    throw refusal;
  }
  return headers;
}

function tooMany(waitMs: number, what = "requests") {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError("rate_limited", `too many ${what}; try again in ${retryAfter} s`, undefined, {
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
