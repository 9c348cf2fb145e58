// What the OpenAPI document says about credentials (http/openapi.ts): which routes need a sign-in,
// which take a personal access token and with which scopes (from the guard's TokenPolicy,
// http/signed-in.ts), and the rate-limit headers every answer to a token carries.
import { SIGNED_IN, TOKEN_POLICY, type TokenPolicy } from "./signed-in.ts";

/** On every signed-in operation: the personal access token scopes it takes (empty: device sessions only). */
const TOKEN_SCOPES = "x-tally-token-scopes";

type Hooks = Record<string, unknown>;
type GuardHook = { fn?: Record<symbol, unknown> };

/** Whether a route runs the token guard (its derive hook carries the SIGNED_IN mark). */
export function signedIn(hooks: Hooks): boolean {
  const transform = hooks.transform as GuardHook[] | undefined;
  return Array.isArray(transform) && transform.some((h) => h.fn?.[SIGNED_IN] === true);
}

/**
 * The scopes of personal access token a signed-in route takes, from its guard's policy (an empty
 * list: it takes the mod's device sessions only); undefined for a route that needs no sign-in.
 */
export function tokenScopesOf(hooks: Hooks, method: string, path: string): readonly string[] | undefined {
  if (!signedIn(hooks)) return undefined;
  const transform = hooks.transform as GuardHook[];
  const policy = transform.find((h) => h.fn?.[TOKEN_POLICY])?.fn?.[TOKEN_POLICY] as TokenPolicy | undefined;
  return policy?.[`${method} ${path}`] ?? [];
}

/** Marks a public route's `detail` that a personal access token reads more on (its own handler checks it). */
const OPTIONAL_TOKEN = "x-tally-optional-token";

/**
 * For a public route's `detail`: a personal access token with one of `scopes` may be sent and reads
 * more (GET /v1/pages/<name>: the owner's page that is not findable). The document gives the
 * operation an optional security (`{}` or the token) and the token's rate-limit headers.
 */
export const optionalToken = (...scopes: string[]): object => ({ [OPTIONAL_TOKEN]: scopes });

/** The scopes of an optional token a route's `detail` declares (undefined: none), and the detail without the mark. */
export function optionalTokenOf(detail: Record<string, unknown>) {
  const { [OPTIONAL_TOKEN]: scopes, ...rest } = detail;
  return { scopes: scopes as readonly string[] | undefined, rest };
}

/** An operation's `security`, its scope mark and the sentence its description gains. */
export function tokenSecurity(
  scopes: readonly string[] | undefined,
  description: string | undefined,
  optional?: readonly string[],
) {
  if (optional?.length) {
    const takes = `No sign-in needed; also takes a personal access token with the scope ${optional.map((x) => `\`${x}\``).join(" or ")}.`;
    return {
      security: [{}, { personalToken: [...optional] }],
      [TOKEN_SCOPES]: [...optional],
      description: description ? `${description}\n\n${takes}` : takes,
    };
  }
  if (!scopes) return { security: [] };
  const takes = scopes.length
    ? `Takes a personal access token with the scope ${scopes.map((x) => `\`${x}\``).join(" or ")}.`
    : "Takes the mod's sign-in only: a personal access token is refused (`token_not_accepted`).";
  return {
    security: [{ bearer: [] }, ...(scopes.length ? [{ personalToken: [...scopes] }] : [])],
    [TOKEN_SCOPES]: [...scopes],
    description: description ? `${description}\n\n${takes}` : takes,
  };
}

const integer = { type: "integer" };
export const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": { description: "To a personal access token: its requests per window.", schema: integer },
  "RateLimit-Remaining": { description: "To a personal access token: requests left in this window.", schema: integer },
  "RateLimit-Reset": { description: "To a personal access token: seconds until the window ends.", schema: integer },
};

export const PERSONAL_TOKEN_SCHEME = {
  type: "http",
  scheme: "bearer",
  description:
    "A personal access token from POST /v1/stats/tokens (`tly_` and 43 characters): read-only, limited to its scopes, rate limited per token.",
};
