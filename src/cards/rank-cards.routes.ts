// A board rank's pictures (issue 35), beside the player's page:
//   GET /u/<name>/boards/<id>/badge.svg              "#12 of 4,310 this week" as a badge
//   GET /u/<name>/boards/<id>/card.png               the same as a link preview card
//   GET /u/<name>/groups/<id>/boards/<board>/card.png   a group board's rank as a card
// A service board's rank is shown for a player on the board (opted in, not excluded or held out,
// a score this window) whose page is findable; a group board's on the group badge's terms (a public
// group's findable member, or the member themselves through their page cookie). Anything else is
// the same not-found page as every refused picture. Each answer is revalidated on every use
// (`no-cache` with an ETag; `no-store` for a private group's), so an opt-out, an exclusion or a
// member leaving shows on the next request.
import { Elysia } from "elysia";
import { Type as T } from "@sinclair/typebox";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { ApiError } from "../http/errors.ts";
import { answers, DESCRIBED_OUTSIDE_V1 } from "../http/route-detail.ts";
import { accountByName } from "../accounts/accounts.ts";
import type { Boards } from "../boards/definitions.ts";
import { boardPlace } from "../boards/place.ts";
import { memberPlace, placeText, WINDOW_NOW } from "../boards/group-board.ts";
import { GROUP_ID_PATTERN } from "../boards/groups.ts";
import { notFoundAnswer } from "../web/not-found.tsx";
import { PAGE_NAME, pageOwner } from "../web/page-cookie.ts";
import { formatValue } from "../web/format.ts";
import type { CardDeps, cardRenderer } from "./cards.ts";
import type { Config } from "../config.ts";
import { badgeSvg } from "./badge.ts";
import { BADGE_ANSWERS, HTML_REFUSALS, badgeImage, image } from "./image-response.ts";

export type RankCardDeps = CardDeps & { config: Config; boards: Boards };

const GROUP_ID = new RegExp(GROUP_ID_PATTERN);
/** A window's words as a card's label: "This week". */
const windowLabel = (w: keyof typeof WINDOW_NOW) => WINDOW_NOW[w].charAt(0).toUpperCase() + WINDOW_NOW[w].slice(1);

/** The card's ETag is its SVG's digest; revalidated on every use. */
const REVALIDATE = "no-cache";

const BOARD_ID = "The board's id, as GET /v1/boards lists them";
const boardParams = T.Object(
  {
    name: T.String({ maxLength: 64, description: "The player's name" }),
    id: T.String({ maxLength: 64, description: BOARD_ID }),
  },
  { additionalProperties: false },
);
const groupParams = T.Object(
  {
    name: T.String({ maxLength: 64, description: "The member's name" }),
    id: T.String({ maxLength: 64, description: "The group's id" }),
    board: T.String({ maxLength: 64, description: BOARD_ID }),
  },
  { additionalProperties: false },
);

const cardAnswer = {
  200: {
    description: "The card: a 1200x630 PNG.",
    headers: { ETag: { schema: { type: "string" } } },
    content: { "image/png": { schema: { type: "string", format: "binary" } } },
  },
  304: { description: "Not modified: the If-None-Match ETag is current." },
};

export function rankCardRoutes(deps: RankCardDeps, cards: ReturnType<typeof cardRenderer>) {
  const limit = { name: "cards", perWindow: deps.config.cardRateLimit, windowMs: 60_000 };
  type Server = Parameters<typeof clientAddress>[1];
  const limited = (request: Request, server: Server) =>
    enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
  const format = (unit: string, value: number) => formatValue(deps.catalogue, unit, value);

  /** The named player's place on a service board, when it may be shown to anyone; else null. */
  const place = async (name: string, board: string) => {
    if (!PAGE_NAME.test(name)) return null;
    const account = await accountByName(deps.db, name);
    if (!account?.findable) return null;
    try {
      const found = await boardPlace(deps, board, account.uuid);
      return found ? { account, found } : null;
    } catch (e) {
      if (e instanceof ApiError && e.code === "unknown_board") return null;
      throw e;
    }
  };

  /** A member's place on a group's board, on the group badge's terms; else null. */
  const groupPlace = async (request: Request, name: string, id: string, board: string) => {
    if (!PAGE_NAME.test(name) || !GROUP_ID.test(id)) return null;
    const own = await pageOwner(deps, request, name);
    const account = await accountByName(deps.db, name);
    if (!account || !(account.findable || own)) return null;
    try {
      const viewer = own ? { uuid: own.uuid, name: own.name, zone: own.zone } : null;
      const found = await memberPlace(deps, id, board, account.uuid, viewer);
      return found ? { account, found, open: found.group.public && account.findable } : null;
    } catch (e) {
      if (e instanceof ApiError && (e.code === "unknown_board" || e.code === "unknown_group")) return null;
      throw e;
    }
  };

  return new Elysia({ name: "tally.cards.ranks" })
    .get(
      "/u/:name/boards/:id/badge.svg",
      async ({ params, request, server }) => {
        await limited(request, server);
        const shown = await place(params.name, params.id);
        if (!shown) return notFoundAnswer(request);
        return badgeImage(request, badgeSvg(shown.found.label, shown.found.words), "rank-badge", REVALIDATE);
      },
      {
        params: boardParams,
        detail: {
          tags: ["previews"],
          summary: "A badge of a player's place on a board this week (or the board's first window)",
          description:
            '"#12 of 4,310 this week", light and dark. Served for a player on the board (opted in, not excluded, a score this window) whose page is findable; anything else is the not-found page. Revalidated on every use: an opt-out shows at once.',
          ...DESCRIBED_OUTSIDE_V1,
          ...answers({ ...BADGE_ANSWERS, ...HTML_REFUSALS }),
        },
      },
    )
    .get(
      "/u/:name/boards/:id/card.png",
      async ({ params, request, server }) => {
        await limited(request, server);
        const shown = await place(params.name, params.id);
        if (!shown) return notFoundAnswer(request);
        const { account, found } = shown;
        const card = await cards.rank(account, {
          subtitle: `${found.board.title} · ${WINDOW_NOW[found.window]} on tally's boards`,
          figures: [
            { label: windowLabel(found.window), value: placeText(found.rank, found.of) },
            { label: found.board.title, value: format(found.board.unit, found.value) },
            ...(found.cuteName ? [{ label: "Profile", value: found.cuteName }] : []),
          ],
        });
        return image(request, card.png, "image/png", card.etag, REVALIDATE);
      },
      {
        params: boardParams,
        detail: {
          tags: ["previews"],
          summary: "The link preview card of a player's place on a board (its page /u/{name}/boards/{id} points at it)",
          description:
            "Head, name, the place and the score. The same terms as the rank badge; revalidated on every use.",
          ...DESCRIBED_OUTSIDE_V1,
          ...answers({ ...cardAnswer, ...HTML_REFUSALS }),
        },
      },
    )
    .get(
      "/u/:name/groups/:id/boards/:board/card.png",
      async ({ params, request, server }) => {
        await limited(request, server);
        const shown = await groupPlace(request, params.name, params.id, params.board);
        if (!shown) return notFoundAnswer(request);
        const { account, found, open } = shown;
        const card = await cards.rank(account, {
          subtitle: `${found.board.title} · ${found.group.title}`,
          figures: [
            { label: windowLabel(found.window), value: placeText(found.rank, found.of) },
            { label: found.board.title, value: format(found.board.unit, found.score) },
          ],
        });
        return image(request, card.png, "image/png", card.etag, open ? REVALIDATE : "no-store");
      },
      {
        params: groupParams,
        detail: {
          tags: ["previews"],
          summary: "The card of a member's place on a group's board this week (or the board's first window)",
          description:
            "On the group badge's terms: a public group's member whose page is findable, or the member themselves through their page cookie; anything else is the not-found page. Revalidated on every use.",
          ...DESCRIBED_OUTSIDE_V1,
          ...answers({ ...cardAnswer, ...HTML_REFUSALS }),
        },
      },
    );
}
