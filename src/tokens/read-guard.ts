// The guard of the read routes: a device session as everywhere, or a personal access token with
// one of the scopes the route's plugin lists for it (a route not listed refuses every token). A
// token's request is counted against its own rate limit before anything else, and every answer to
// it, refusals included, carries RateLimit-Limit, -Remaining and -Reset.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { meterRequest } from "../http/rate-limit.ts";
import { PERSONAL_TOKEN_PREFIX } from "../http/secret.ts";
import { readerGuard, type TokenPolicy } from "../http/signed-in.ts";
import { authenticate } from "../auth/sessions.ts";
import { tokenNotAccepted, tokenOwner } from "./tokens.ts";
import type { Scope } from "./scopes.ts";

export type ReadGuardDeps = { db: Db; clock: Clock; config: Pick<Config, "tokenRateLimit"> };

/** `policy`: the plugin's routes that take a token, `METHOD /path` to the scopes any one of which admits it. */
export function readGuard(deps: ReadGuardDeps, policy: Readonly<Record<string, readonly Scope[]>>) {
  const limit = {
    name: "token",
    perWindow: deps.config.tokenRateLimit,
    windowMs: 60_000,
    what: "requests with this token",
  };
  return readerGuard(async (authorization, scopes, headers) => {
    const bearer = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
    if (!bearer?.startsWith(PERSONAL_TOKEN_PREFIX)) return authenticate(deps, authorization);
    const owner = await tokenOwner(deps, bearer);
    Object.assign(headers, await meterRequest(deps, limit, owner.tokenId));
    if (!scopes) throw tokenNotAccepted();
    if (!scopes.some((s) => (owner.scopes as string[]).includes(s)))
      throw new ApiError("missing_scope", `this token's scopes do not include ${scopes.join(" or ")}`);
    return { uuid: owner.uuid, tokenId: owner.tokenId };
  }, policy as TokenPolicy);
}
