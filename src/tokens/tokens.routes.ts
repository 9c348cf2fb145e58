// The personal access token routes: make, list, revoke one, revoke all. They take the mod's
// sign-in only (a device session): a token never makes, lists or revokes tokens.
import { Elysia } from "elysia";
import { authGuard } from "../auth/auth-guard.ts";
import { validBody } from "../http/valid-body.ts";
import { refuses } from "../http/route-detail.ts";
import { createToken, listTokens, revokeAllTokens, revokeToken, type TokenDeps } from "./tokens.ts";
import { CreatedToken, CreateTokenBody, RevokedAnswer, TokenIdParams, TokensAnswer } from "./tokens.schema.ts";

export function tokenRoutes(deps: TokenDeps) {
  const tags = ["tokens"];
  return new Elysia({ name: "tally.tokens" })
    .use(authGuard(deps))
    .post("/v1/stats/tokens", ({ signedIn, body }) => createToken(deps, signedIn.uuid, body), {
      body: CreateTokenBody,
      transform: validBody(CreateTokenBody),
      response: CreatedToken,
      detail: {
        tags,
        summary: "Make a personal access token for one's own tools; its secret is in this answer only",
        ...refuses("denylisted_string", "too_many_tokens", "invalid_expiry"),
      },
    })
    .get(
      "/v1/stats/tokens",
      async ({ signedIn }) => ({
        tokens: await listTokens(deps, signedIn.uuid),
        maxTokens: deps.config.tokensMaxPerAccount,
      }),
      {
        response: TokensAnswer,
        detail: { tags, summary: "This account's personal access tokens (never their secrets)" },
      },
    )
    .delete("/v1/stats/tokens", async ({ signedIn }) => ({ revoked: await revokeAllTokens(deps.db, signedIn.uuid) }), {
      response: RevokedAnswer,
      detail: { tags, summary: "Revoke every personal access token of this account" },
    })
    .delete("/v1/stats/tokens/:id", ({ signedIn, params }) => revokeToken(deps.db, signedIn.uuid, params.id), {
      params: TokenIdParams,
      response: RevokedAnswer,
      detail: { tags, summary: "Revoke one personal access token; its next request is refused" },
    });
}
