// GET /v1/pages/<name>: a findable statistics page's figures as JSON, for a widget, a stream overlay
// or a bot, with no secret at all (issue 37; docs/decisions.md "Public figures of a findable page").
// Readable from any site (CORS for GET: Access-Control-Allow-Origin *, never credentials; the
// preflight a conditional fetch makes is answered), cacheable (ETag, If-None-Match -> 304,
// Cache-Control public for 60 s, like the page). A name nobody holds and a page that is not
// findable answer the same 404 page_not_found. The answer is kept beside the pages others see (the
// same page cache, keyed by the account's upload, settings and profiles) and read within the
// account's render budget.
// A personal access token with the scope page:read of the page's owner reads the same document of
// a page that is not findable (the owner's stream overlay); its answers are private, no-store and
// carry the token's rate-limit headers. Any other token is answered as a stranger is (the same 404
// for a page that is not findable); a dead token (unknown, revoked, expired) is told 401.
// docs/decisions.md "Personal access tokens: scopes" and "Public figures of a findable page".
import { Elysia } from "elysia";
import { Type as T } from "@sinclair/typebox";
import { accountByName } from "../accounts/accounts.ts";
import { listProfiles, profilesState } from "../stats/fold.ts";
import { ApiError, errorBody } from "../http/errors.ts";
import { answers, refuses } from "../http/route-detail.ts";
import { etagMatches } from "../http/etag.ts";
import { enforceRateLimit, meterRequest } from "../http/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import { requestId } from "../http/request-context.ts";
import { optionalToken } from "../http/openapi-tokens.ts";
import { PERSONAL_TOKEN_PREFIX } from "../http/secret.ts";
import { tokenOwner } from "../tokens/tokens.ts";
import type { Config } from "../config.ts";
import { renderBudget, type PageCache } from "./page-cache.ts";
import { pageParams } from "./page-params.ts";
import { encoded } from "./respond.ts";
import { PublicPage } from "./public-page.schema.ts";
import { publicPage, type PublicPageDeps } from "./public-page.ts";
import { namePageSecret, profileHandle, shownProfile } from "./stats-page.ts";

export type PublicPageRouteDeps = PublicPageDeps &
  Parameters<typeof renderBudget>[0] & {
    pages: PageCache;
    config: PublicPageDeps["config"] &
      Pick<Config, "pageRateLimit" | "trustProxy" | "pageRenderBudgetMs" | "tokenRateLimit">;
  };

const NAME = /^[A-Za-z0-9_]{1,16}$/;
/** A findable page's figures may be kept a minute by a browser or a proxy, like the page. */
const CACHE_CONTROL = "public, max-age=60";
/** An answer to a personal access token: never kept by a shared cache, nor by the browser. */
const TOKEN_CACHE_CONTROL = "private, no-store";

/** Every answer of these routes, refusals included: any site may read it, never with credentials. */
export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset",
} as const;
/**
 * The preflight's answer: GET, with If-None-Match (a conditional fetch) and Authorization (the
 * owner's token; no cookie is ever read, so no credentials mode and `*` stays), for a day.
 */
const PREFLIGHT = {
  ...CORS_HEADERS,
  "access-control-allow-methods": "GET, OPTIONS",
  "access-control-allow-headers": "If-None-Match, Authorization",
  "access-control-max-age": "86400",
} as const;

const json = (request: Request, status: number, text: string, headers: Record<string, string>) => {
  const body = encoded(request, text);
  return new Response(body.body, {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "x-content-type-options": "nosniff",
      ...CORS_HEADERS,
      ...body.headers,
      ...headers,
    },
  });
};

export function publicPageRoutes(deps: PublicPageRouteDeps) {
  const limit = { name: "pages", perWindow: deps.config.pageRateLimit, windowMs: 60_000 };
  const budget = renderBudget(deps);
  const missing = () =>
    new ApiError("page_not_found", "no findable statistics page has this name", undefined, {
      "cache-control": "no-store",
    });

  const tokenLimit = {
    name: "token",
    perWindow: deps.config.tokenRateLimit,
    windowMs: 60_000,
    what: "requests with this token",
  };

  /** The owner a personal access token stands for, its rate limit counted into `headers`; undefined without one. */
  const tokenOf = async (request: Request, headers: Record<string, string>) => {
    const bearer = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    if (!bearer?.startsWith(PERSONAL_TOKEN_PREFIX)) return undefined;
    const owner = await tokenOwner(deps, bearer);
    Object.assign(headers, await meterRequest(deps, tokenLimit, owner.tokenId));
    return owner;
  };

  const answer = async (
    request: Request,
    name: string,
    server: Parameters<typeof clientAddress>[1],
    metered: Record<string, string>,
  ) => {
    // A token is counted against its own limit, as on every route that takes one; else the address.
    const token = await tokenOf(request, metered);
    if (!token) await enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
    const account = NAME.test(name) ? await accountByName(deps.db, name) : undefined;
    const owner = !!account && token?.uuid === account.uuid && token.scopes.includes("page:read");
    if (!account || !(account.findable || owner)) throw missing();
    const url = new URL(request.url);
    const params = pageParams(url);
    const profiles = await listProfiles(deps.db, account.uuid);
    const handleOf = profileHandle(namePageSecret(account));
    const shown = shownProfile(profiles, params.profile, handleOf)?.id ?? "-";
    const key = `/v1/pages|${account.uuid}|${account.lastUploadAt ?? ""}|${account.settingsVersion}|${profilesState(profiles)}|${shown}|${params.period}`;
    const kept = await deps.pages.fetch(key, () =>
      budget(account.uuid, async () => JSON.stringify(await publicPage(deps, account, params, handleOf, profiles))),
    );
    if (!kept) throw missing();
    const headers = {
      ...metered,
      etag: kept.etag,
      "cache-control": token ? TOKEN_CACHE_CONTROL : CACHE_CONTROL,
      vary: "accept-encoding, authorization",
    };
    if (etagMatches(request.headers.get("if-none-match"), kept.etag))
      return new Response(null, { status: 304, headers: { ...CORS_HEADERS, ...headers } });
    return json(request, 200, kept.html, headers);
  };

  return new Elysia({ name: "tally.web.public-page" })
    .get(
      "/v1/pages/:name",
      async ({ params, request, server }) => {
        const metered: Record<string, string> = {};
        try {
          return await answer(request, params.name, server, metered);
        } catch (e) {
          // Refusals carry the CORS headers too, so a widget can read why (429's Retry-After).
          if (!(e instanceof ApiError)) throw e;
          const id = e.status >= 500 ? requestId(request) : undefined;
          return json(request, e.status, JSON.stringify(errorBody(e.code, e.message, e.path, id)), {
            "cache-control": "no-store",
            ...metered,
            ...e.headers,
          });
        }
      },
      {
        params: T.Object({ name: T.String({ maxLength: 64 }) }, { additionalProperties: false }),
        query: T.Object(
          {
            profile: T.Optional(
              T.String({
                maxLength: 12,
                description: "A profile's handle, as the page's profile tabs and `profiles[].handle` give it.",
              }),
            ),
            period: T.Optional(
              T.Union([T.Literal("day"), T.Literal("week"), T.Literal("month"), T.Literal("year")], {
                description: "The period of the period table, as the page's tabs (default: week).",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        // Before validation: a refused query carries the CORS headers too (on-error keeps them).
        transform: ({ set }) => {
          Object.assign(set.headers, CORS_HEADERS);
        },
        response: { 200: PublicPage },
        detail: {
          tags: ["pages"],
          summary: "A findable statistics page's figures as JSON, for widgets: no token needed, readable from any site",
          description:
            "Exactly what the page /u/<name> shows a stranger of its headline figures, its profiles (by cute name and the page's handle, never an id) and its period table. CORS: `Access-Control-Allow-Origin: *` on every answer, no credentials; `OPTIONS` answers the preflight of a conditional fetch. `ETag` on every 200; `If-None-Match` answers 304; `Cache-Control: public, max-age=60`. A name nobody holds and a page that is not findable answer the same 404.\n\nThe page's owner may send `Authorization: Bearer tly_…` with the scope `page:read`: the same document then answers for a page that is not findable too, with `Cache-Control: private, no-store` and the token's `RateLimit-*` headers (the preflight allows `Authorization`; still no credentials). Another account's token, or one without `page:read`, is answered as a stranger is; a token that is unknown, revoked or expired is told 401 `unauthorized`.",
          ...refuses("page_not_found", "unauthorized", "rate_limited", "server_busy"),
          ...optionalToken("page:read"),
          ...answers({ 304: { description: "Not modified: the If-None-Match ETag is current." } }),
        },
      },
    )
    .options("/v1/pages/:name", () => new Response(null, { status: 204, headers: PREFLIGHT }), {
      detail: { hide: true },
    });
}
