// The mechanics of a signed-in route: a plugin that gives every route of the module using it
// `signedIn` ({ uuid, sessionId }), from a check of the request's Authorization header that the
// caller supplies (auth/auth-guard.ts supplies the device-session check). It runs before body
// validation, so a request without a valid token is told 401 whatever its body holds.
import { Elysia } from "elysia";

export type SignedIn = { uuid: string; sessionId: string };

/** Answers who signed in from an Authorization header, or throws the 401. */
export type Authenticate = (authorization: string | null) => Promise<SignedIn>;

/** Marks the guard's hook, so the OpenAPI document knows which routes need a token (http/openapi.ts). */
export const SIGNED_IN = Symbol.for("tally.signedIn");

export function signedInGuard(authenticate: Authenticate) {
  const guard = async ({ request }: { request: Request }) => ({
    signedIn: await authenticate(request.headers.get("authorization")),
  });
  // Unnamed on purpose: Elysia de-duplicates named plugins, and every module needs its own guard.
  return new Elysia().derive({ as: "scoped" }, Object.assign(guard, { [SIGNED_IN]: true }));
}

/** A request signed with a personal access token (src/tokens/): whose it is and which token. */
export type TokenSignedIn = { uuid: string; tokenId: string };

/**
 * Which routes of a plugin accept a personal access token, and with which scopes: keys are
 * `METHOD /path` as registered (`GET /v1/stats/totals`); a route not listed takes device sessions
 * only. The OpenAPI document reads it from the guard (http/openapi.ts).
 */
export type TokenPolicy = Readonly<Record<string, readonly string[]>>;
export const TOKEN_POLICY = Symbol.for("tally.tokenPolicy");

/**
 * Answers who signed in from an Authorization header: a device session, or a token whose scopes
 * must include one of `scopes` (undefined: the route takes no token). `headers` are the answer's,
 * for what every answer to a token carries (its rate limit).
 */
export type AuthenticateReader = (
  authorization: string | null,
  scopes: readonly string[] | undefined,
  headers: Record<string, unknown>,
) => Promise<SignedIn | TokenSignedIn>;

/** The guard of a plugin whose read routes accept personal access tokens as well as device sessions. */
export function readerGuard(authenticate: AuthenticateReader, policy: TokenPolicy) {
  const guard = async ({
    request,
    route,
    set,
  }: {
    request: Request;
    route: string;
    set: { headers: Record<string, unknown> };
  }) => ({
    signedIn: await authenticate(
      request.headers.get("authorization"),
      policy[`${request.method} ${route}`],
      set.headers,
    ),
  });
  return new Elysia().derive({ as: "scoped" }, Object.assign(guard, { [SIGNED_IN]: true, [TOKEN_POLICY]: policy }));
}
