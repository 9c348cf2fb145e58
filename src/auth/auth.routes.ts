// POST /v1/auth/challenge, /v1/auth/verify, and /v1/auth/dev when DEV_SIGNIN=true (otherwise that
// route does not exist and answers 404 like any unknown path). All three are rate limited per
// client address.
import { Elysia } from "elysia";
import { validBody } from "../http/valid-body.ts";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { deviceLabel } from "./device-label.ts";
import { createChallenge, devSignIn, verify, type SignInDeps } from "./sign-in.ts";
import { ChallengeAnswer, ChallengeBody, DevSignInBody, SignInAnswer, VerifyBody } from "./auth.schema.ts";
import type { Config } from "../config.ts";
import { refuses } from "../http/route-detail.ts";

export function authRoutes(deps: SignInDeps & { config: Config }) {
  const limit = { name: "auth", perWindow: deps.config.authRateLimit, windowMs: 60_000 };
  const tags = ["auth"];
  const app = new Elysia({ name: "tally.auth" })
    .onTransform(({ request, server }) =>
      enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy)),
    )
    .post("/v1/auth/challenge", () => createChallenge(deps), {
      body: ChallengeBody,
      transform: validBody(ChallengeBody),
      response: ChallengeAnswer,
      detail: { tags, summary: "A single-use serverId for the identity provider's join", ...refuses("rate_limited") },
    })
    .post(
      "/v1/auth/verify",
      ({ body, request }) => verify(deps, body, deviceLabel(request.headers.get("user-agent"))),
      {
        body: VerifyBody,
        transform: validBody(VerifyBody),
        response: SignInAnswer,
        detail: {
          tags,
          summary: "Confirms the join with the identity provider and issues a token",
          ...refuses("rate_limited", "challenge_invalid", "not_joined", "identity_unavailable", "unknown_zone"),
        },
      },
    );
  if (!deps.config.devSignin) return app;
  return app.post(
    "/v1/auth/dev",
    ({ body, request }) => devSignIn(deps, body, deviceLabel(request.headers.get("user-agent"))),
    {
      body: DevSignInBody,
      transform: validBody(DevSignInBody),
      response: SignInAnswer,
      detail: {
        tags,
        summary: "Development sign-in (only with DEV_SIGNIN=true)",
        ...refuses("rate_limited", "unknown_zone"),
      },
    },
  );
}
