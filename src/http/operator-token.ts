// Operator tokens (ADMIN_TOKEN, METRICS_TOKEN) against guessing. Each attempt that presents a token
// is counted per client address (per IPv4 address, per IPv6 /64; rows shared by every instance)
// before it is compared, and uncounted when it was right. Past OPERATOR_FAILURES_PER_MINUTE
// wrong ones in a minute, every attempt from that address is answered 429 rate_limited with
// Retry-After, untried, until the minute ends; other addresses are not slowed, so the right token
// elsewhere works as before. A request without an Authorization header guesses nothing: it is
// refused 401 without a row written.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { ApiError } from "./errors.ts";
import { sameSecret } from "./secret.ts";
import { clientAddress } from "./client-address.ts";
import { limitFailures } from "./rate-limit.ts";

export type OperatorDeps = {
  db: Db;
  clock: Clock;
  config: { trustProxy: boolean; operatorFailures: number };
};
type Caller = { request: Request; server: Parameters<typeof clientAddress>[1] };

/** True when `given` is `secret` (compared in constant time); 429 when its address has guessed too often. */
export function operatorSecretMatches(deps: OperatorDeps, caller: Caller, given: string, secret: string) {
  const limit = {
    name: "operator_auth",
    perWindow: deps.config.operatorFailures,
    windowMs: 60_000,
    what: "wrong operator tokens from this address",
  };
  const address = clientAddress(caller.request, caller.server, deps.config.trustProxy);
  return limitFailures(deps, limit, address, () => sameSecret(given, secret));
}

/** Throws 401 (or 429, as above) unless the request carries `Authorization: Bearer <secret>`. */
export async function requireOperatorBearer(
  deps: OperatorDeps,
  caller: Caller,
  secret: string,
  refusal: { realm: string; message: string },
): Promise<void> {
  const authorization = caller.request.headers.get("authorization");
  if (authorization !== null && (await operatorSecretMatches(deps, caller, authorization, `Bearer ${secret}`))) return;
  throw new ApiError("unauthorized", refusal.message, undefined, {
    "www-authenticate": `Bearer realm="${refusal.realm}"`,
  });
}
