// Shared back-off for a rate-limited upstream: a 429 (or, behind Mojang's gateway, an HTML 403), or a
// budget down to the reserve, stops every instance from calling it until the upstream's own reset
// time (rows, not memory).
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { backoffUntil, extendBackoff } from "./backoff.query.ts";

/** The upstreams paused by name (a row each in upstream_backoff). */
export const IDENTITY_HEADS = "identity-heads";
export const TEXTURES = "textures";

/** When none is given, how long a 429 without RateLimit-Reset keeps an upstream quiet. */
export const DEFAULT_BACKOFF_MS = 60_000;

/** Milliseconds the upstream must still be left alone (0: it may be called). */
export async function backoffRemaining(deps: { db: Db; clock: Clock }, upstream: string): Promise<number> {
  return Math.max(0, (await backoffUntil(deps.db, upstream)) - deps.clock.now());
}

export async function backOff(deps: { db: Db; clock: Clock }, upstream: string, ms: number) {
  await extendBackoff(deps.db, upstream, deps.clock.now() + Math.max(1000, ms));
}
