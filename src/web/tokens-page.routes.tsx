// The owner's tokens on their statistics page: the list (rendered into the owner's view of
// /u/<name>) and POST /u/<name>/tokens/<id>/revoke, the form that revokes one. The post must carry
// the page cookie (HttpOnly, SameSite=Lax, Path=/u/<name>: a cross-site post is sent without it),
// come from this service's pages (Origin), and carry the form field made from that cookie.
import { Elysia } from "elysia";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { hashToken, sameSecret } from "../http/secret.ts";
import { sameOrigin } from "../http/same-origin.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import { readForm } from "../http/body.ts";
import { accountByPageCookie, type Account } from "../accounts/accounts.ts";
import { listTokens, revokeToken } from "../tokens/tokens.ts";
import { cookieOf, PAGE_COOKIE } from "./page-cookie.ts";
import { sync } from "./layout.tsx";
import { TokenList } from "./tokens-view.tsx";

type Deps = {
  db: Db;
  clock: Clock;
  config: Pick<Config, "baseUrl" | "pageRateLimit" | "trustProxy" | "tokensMaxPerAccount">;
};

/** The revoke form's field: bound to the page cookie, which a page of another site cannot read. */
const formField = (cookie: string) => hashToken(`tally tokens form ${cookie}`);
const TOKEN_ID = /^[0-9a-f]{16}$/;

/** The owner's token section of their page, as HTML. */
export async function ownerTokens(deps: Deps, account: Account, cookie: string): Promise<string> {
  return sync(
    TokenList({
      tokens: await listTokens(deps, account.uuid),
      zone: account.zone,
      action: `/u/${encodeURIComponent(account.name)}/tokens`,
      csrf: formField(cookie),
      maxTokens: deps.config.tokensMaxPerAccount,
    }),
  );
}

export function tokenPageRoutes(deps: Deps) {
  const limit = { name: "pages", perWindow: deps.config.pageRateLimit, windowMs: 60_000 };
  return new Elysia({ name: "tally.web.tokens" }).post(
    "/u/:name/tokens/:id/revoke",
    async ({ params, request, body }) => {
      const csrf = (body as Record<string, unknown> | undefined)?.csrf;
      const cookie = cookieOf(request, PAGE_COOKIE);
      if (
        !sameOrigin(request, deps.config.baseUrl) ||
        !cookie ||
        typeof csrf !== "string" ||
        !sameSecret(csrf, formField(cookie))
      )
        throw new ApiError("csrf_failed", "this form did not come from your statistics page; open the page again");
      const own = cookie.length <= 64 ? await accountByPageCookie(deps.db, cookie, deps.clock.now()) : undefined;
      // Another page's name, an ended cookie, or an id of no token of this account: nothing there.
      if (!own || own.name.toLowerCase() !== params.name.toLowerCase() || !TOKEN_ID.test(params.id))
        throw new ApiError("not_found", "no such page");
      await revokeToken(deps.db, own.uuid, params.id).catch((e: unknown) => {
        // Revoked already (another tab, the mod): the page shows it gone either way.
        if (!(e instanceof ApiError && e.code === "not_found")) throw e;
      });
      return new Response(null, {
        status: 303,
        headers: { location: `/u/${encodeURIComponent(own.name)}#tokens`, "cache-control": "no-store" },
      });
    },
    {
      detail: { hide: true },
      // The address's page limit before the form is read.
      transform: [
        ({ request, server }) => enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy)),
        readForm(),
      ],
    },
  );
}
