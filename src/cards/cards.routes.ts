// The pictures other sites show for tally's pages, each beside the page it stands for:
//   GET /u/<name>/card.png          the statistics page's link preview; findable pages only
//   GET /s/<key>/card.png           a share page's preview (no name, no head); gone with its key
//   GET /p/<name>/card.png          a public profile page's preview
//   GET /u/<name>/badge/<key>.svg   one lifetime figure as a badge; findable pages only
//   and a board rank's badge and cards (rank-cards.routes.ts)
// Whatever has no page here has no picture: 404 exactly like the page. ETag on every answer, 304
// on a match. Rate limited per client address (CARD_RATE_LIMIT_PER_MINUTE, in Postgres).
import { Elysia } from "elysia";
import { Type as T } from "@sinclair/typebox";
import type { Config } from "../config.ts";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { ApiError } from "../http/errors.ts";
import { answers, DESCRIBED_OUTSIDE_V1 } from "../http/route-detail.ts";
import { accountByName, accountByShareKey } from "../accounts/accounts.ts";
import { readsOf } from "../db/database.ts";
import { keysWithLifetime, latestProfile, listProfiles, profilesState } from "../stats/fold.ts";
import { ACCOUNT_PROFILE, Key } from "../wire/envelope.ts";
import { profileSource, type ProfileDeps } from "../profiles/profile-source.ts";
import { findPlayer, type PlayerDeps } from "../profiles/players.ts";
import { htmlPage } from "../web/respond.ts";
import { sync } from "../web/layout.tsx";
import { NotFoundPage } from "../web/not-found.tsx";
import { cardRenderer, lru, type CardDeps, type RenderedCard } from "./cards.ts";
import { renderBudget } from "../web/page-cache.ts";
import { badgeSvg } from "./badge.ts";
import { BADGE_ANSWERS, HTML_REFUSALS, badgeImage, html, image } from "./image-response.ts";
import { lifetimeWords } from "./headline.ts";
import { namePageSecret, profileHandle } from "../web/stats-page.ts";
import type { Boards } from "../boards/definitions.ts";
import { rankCardRoutes } from "./rank-cards.routes.ts";

export type CardRouteDeps = CardDeps & ProfileDeps & PlayerDeps & { config: Config };

const NAME = /^[A-Za-z0-9_]{1,16}$/;
const PROFILE_NAME = /^[A-Za-z0-9_]{3,16}$/;
const SHARE_KEY = /^[A-Za-z0-9_-]{16,64}$/;
const KEY = new RegExp(Key.pattern!);
/** A profile's handle on a page (web/stats.routes.tsx): 12 base64url characters. */
const HANDLE = /^[A-Za-z0-9_-]{12}$/;
/** Badges kept in memory (a few KiB each). */
const BADGE_CACHE_ENTRIES = 1024;

/** A findable page's picture may be kept a few minutes by a browser or a forum's image proxy. */
const PUBLIC_CACHE = "public, max-age=300";

const png = (request: Request, card: RenderedCard, cacheControl: string) =>
  image(request, card.png, "image/png", card.etag, cacheControl);

export function cardRoutes(deps: CardRouteDeps & { boards: Boards }) {
  const cards = cardRenderer(deps);
  const budget = renderBudget(deps);
  /** Badges answered, by account state, profile and key (null: no such figure). */
  const badges = lru<string | null>(BADGE_CACHE_ENTRIES);
  const source = profileSource(deps);
  const limit = { name: "cards", perWindow: deps.config.cardRateLimit, windowMs: 60_000 };
  const lookupLimit = { name: "lookup", perWindow: deps.config.lookupRateLimit, windowMs: 60_000 };
  const notFound = (request: Request, noindex = false) =>
    htmlPage(request, sync(NotFoundPage({ noindex })), { status: 404, cacheControl: "no-store", noindex });
  const tags = ["previews"];
  const cardAnswers = answers({
    200: {
      description: "The card: a 1200x630 PNG.",
      headers: { ETag: { schema: { type: "string" } } },
      content: { "image/png": { schema: { type: "string", format: "binary" } } },
    },
    304: { description: "Not modified: the If-None-Match ETag is current." },
    ...HTML_REFUSALS,
  });
  const nameParams = T.Object({ name: T.String({ maxLength: 64 }) }, { additionalProperties: false });
  return new Elysia({ name: "tally.cards" })
    .use(rankCardRoutes(deps, cards))
    .onTransform(({ request, server, path }) => {
      if (path.endsWith("/card.png") || path.includes("/badge/"))
        return enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
    })
    .get(
      "/u/:name/card.png",
      async ({ params, request }) => {
        const account = NAME.test(params.name) ? await accountByName(deps.db, params.name) : undefined;
        if (!account?.findable) return notFound(request);
        return png(request, await cards.stats(account, { anonymous: false }), PUBLIC_CACHE);
      },
      {
        params: nameParams,
        detail: {
          tags,
          summary: "The link preview card of a findable statistics page: head, name, headline figures, a sparkline",
          ...DESCRIBED_OUTSIDE_V1,
          ...cardAnswers,
        },
      },
    )
    .get(
      "/s/:key/card.png",
      async ({ params, request }) => {
        const account = SHARE_KEY.test(params.key) ? await accountByShareKey(deps.db, params.key) : undefined;
        if (!account) return notFound(request, true);
        return png(request, await cards.stats(account, { anonymous: true }), "no-store");
      },
      {
        params: T.Object({ key: T.String({ maxLength: 64 }) }, { additionalProperties: false }),
        detail: {
          tags,
          summary: "The link preview card of a share page: headline figures and a sparkline, no name and no head",
          description: "Never cached, never indexed; a rotated share key's card answers 404 like its page.",
          ...DESCRIBED_OUTSIDE_V1,
          ...cardAnswers,
        },
      },
    )
    .get(
      "/p/:name/card.png",
      async ({ params, request, server }) => {
        if (!PROFILE_NAME.test(params.name) || !deps.config.gameApiKey) return notFound(request);
        // It may ask the game API as the page does: the page's own look-up limit applies too.
        await enforceRateLimit(deps, lookupLimit, clientAddress(request, server, deps.config.trustProxy));
        try {
          const player = await findPlayer(deps, params.name);
          const lookup = await source.lookup(player.uuid);
          return png(request, await cards.profile(player, lookup), lookup.stale ? "no-store" : PUBLIC_CACHE);
        } catch (e) {
          if (e instanceof ApiError && e.status === 404) return notFound(request);
          throw e;
        }
      },
      {
        params: nameParams,
        detail: {
          tags,
          summary: "The link preview card of a public profile page: head, name and the selected profile's figures",
          ...DESCRIBED_OUTSIDE_V1,
          ...cardAnswers,
        },
      },
    )
    .get(
      "/u/:name/badge/:file",
      async ({ params, request }) => {
        const key = params.file.endsWith(".svg") ? params.file.slice(0, -".svg".length) : "";
        if (!NAME.test(params.name) || !KEY.test(key)) return notFound(request);
        const account = await accountByName(deps.db, params.name);
        if (!account?.findable) return notFound(request);
        // The page's default profile (the one last uploaded for), or the one asked for by the handle
        // the page's profile links carry (never the game's profile id, issue 34); then the account's own keys.
        const asked = new URL(request.url).searchParams.get("profile");
        const profiles = await listProfiles(deps.db, account.uuid);
        const handleOf = profileHandle(namePageSecret(account));
        const profile =
          asked !== null
            ? HANDLE.test(asked)
              ? profiles.find((p) => handleOf(p.id) === asked)
              : undefined
            : (latestProfile(profiles) ?? undefined);
        if (asked !== null && !profile) return notFound(request);
        // Kept per account state and key (a badge costs one key's reads once per upload), each read
        // within the account's render budget.
        const state = [account.uuid, account.lastUploadAt, account.settingsVersion, profilesState(profiles)];
        const items = await deps.items?.current();
        const kept = `${state.join("|")}|${profile?.id ?? "-"}|${key}|items ${items?.version ?? "none"}`;
        let svg = badges.get(kept);
        if (svg === undefined) {
          svg = await budget(account.uuid, async () => {
            for (const scope of profile ? [profile.id, ACCOUNT_PROFILE] : [ACCOUNT_PROFILE]) {
              const [[figure]] = await readsOf(deps.db, deps.config.pageStatementTimeoutMs, (db) =>
                keysWithLifetime({ db, catalogue: deps.catalogue, items }, account.uuid, scope, key),
              );
              if (figure) return badgeSvg(figure.label, lifetimeWords(deps.catalogue, figure.unit, figure.lifetime));
            }
            return null;
          });
          badges.set(kept, svg);
        }
        if (svg === null) return notFound(request);
        return badgeImage(request, svg, "badge", PUBLIC_CACHE);
      },
      {
        params: T.Object(
          {
            name: T.String({ maxLength: 64 }),
            file: T.String({ maxLength: 140, description: "A counter key and .svg, e.g. tally.playtime.total.svg" }),
          },
          { additionalProperties: false },
        ),
        query: T.Object(
          {
            profile: T.Optional(
              T.String({
                maxLength: 12,
                description:
                  "A profile's handle, as the page's profile tabs and /v1/pages/{name} `profiles[].handle` give it (a game profile id is refused); default: the one last uploaded for",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        detail: {
          tags,
          summary: "A badge of one lifetime figure of a findable statistics page, light and dark",
          description:
            "The key's lifetime figure in its unit, named as the page names it, from the profile asked for (by its handle) or last uploaded for, else the account's own keys.",
          ...DESCRIBED_OUTSIDE_V1,
          ...answers({
            ...BADGE_ANSWERS,
            400: html("A malformed query (an HTML page)"),
            ...HTML_REFUSALS,
          }),
        },
      },
    );
}
