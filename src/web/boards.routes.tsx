// GET /boards (the list), /boards/<id> (a board's window, anyone) and /u/<name>/boards/<id> (the
// same with the owner's own ranks pinned: the page cookie is scoped to /u/<name>, so the owner's
// view lives under it). Without the owner's cookie, /u/<name>/boards/<id> is the board as anyone
// sees it, with a link preview of the player's place (its card, rank-cards.routes.ts), for a player
// on the board whose page is findable: the address a player pastes into a chat. Anyone else: 404.
// Pages are never kept: an opt-out shows on the next request.
import { Elysia } from "elysia";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Boards } from "../boards/definitions.ts";
import { boardPage, describeBoard, type Viewer } from "../boards/ranking.ts";
import { boardPlace } from "../boards/place.ts";
import { accountByName } from "../accounts/accounts.ts";
import { ApiError } from "../http/errors.ts";
import type { Preview } from "./layout.tsx";
import { htmlPage } from "./respond.ts";
import { sync } from "./layout.tsx";
import { BoardPageView, BoardsListPage } from "./boards-view.tsx";
import { notFoundAnswer } from "./not-found.tsx";
import { formatValue } from "./format.ts";
import { PAGE_NAME, pageOwner } from "./page-cookie.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import type { Config } from "../config.ts";

export type BoardPageDeps = {
  db: Db;
  clock: Clock;
  catalogue: Catalogue;
  boards: Boards;
  config: Pick<Config, "pageRateLimit" | "trustProxy" | "baseUrl">;
};

const hide = { detail: { hide: true } };

/** The query a board page takes, each part bounded (anything else is ignored). */
function asked(query: Record<string, string | undefined>) {
  const page = /^[1-9][0-9]{0,6}$/.test(query.page ?? "") ? Number(query.page) : 1;
  const short = (s: string | undefined) => (s !== undefined && s.length <= 8 ? s : undefined);
  return { window: short(query.window), at: short(query.at), page };
}

export function boardPageRoutes(deps: BoardPageDeps) {
  const format = (unit: string, value: number) => formatValue(deps.catalogue, unit, value);
  const limit = { name: "boards", perWindow: deps.config.pageRateLimit, windowMs: 60_000 };
  type Server = Parameters<typeof clientAddress>[1];
  const limited = (request: Request, server: Server) =>
    enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
  const render = async (
    request: Request,
    id: string,
    query: Record<string, string | undefined>,
    viewer: Viewer | null,
    base: string,
    preview?: Preview,
    findable?: boolean,
  ) => {
    const page = await boardPage(deps, id, asked(query), viewer);
    const share =
      viewer && findable !== undefined ? { baseUrl: deps.config.baseUrl, name: viewer.name, findable } : undefined;
    return htmlPage(request, sync(BoardPageView({ page, base, format, preview, share })), {
      cacheControl: viewer || preview ? "private, no-store" : "no-cache",
      noindex: viewer !== null || preview !== undefined,
    });
  };
  /** The link preview of a findable player's place on a board; undefined when not to be shown. */
  const placePreview = async (name: string, id: string): Promise<Preview | undefined> => {
    if (!PAGE_NAME.test(name)) return undefined;
    const account = await accountByName(deps.db, name);
    if (!account?.findable) return undefined;
    let found: Awaited<ReturnType<typeof boardPlace>>;
    try {
      found = await boardPlace(deps, id, account.uuid);
    } catch (e) {
      if (e instanceof ApiError && e.code === "unknown_board") return undefined;
      throw e;
    }
    if (!found) return undefined;
    const path = `/u/${encodeURIComponent(account.name)}/boards/${encodeURIComponent(id)}`;
    const title = `${account.name} on ${found.board.title}`;
    return {
      title,
      description: `${account.name}: ${found.words} on tally's ${found.board.title} board.`,
      image: `${deps.config.baseUrl}${path}/card.png`,
      imageAlt: `${title}: ${found.words}.`,
      url: `${deps.config.baseUrl}${path}`,
    };
  };
  return new Elysia({ name: "tally.web.boards" })
    .get(
      "/boards",
      ({ request }) =>
        htmlPage(request, sync(BoardsListPage({ boards: deps.boards.list.map(describeBoard) })), {
          cacheControl: "public, max-age=300",
        }),
      hide,
    )
    .get(
      "/boards/:id",
      async ({ request, params, query, server }) => {
        await limited(request, server);
        return render(request, params.id, query, null, `/boards/${params.id}`);
      },
      hide,
    )
    .get(
      "/u/:name/boards/:id",
      async ({ request, params, query, server }) => {
        await limited(request, server);
        const own = await pageOwner(deps, request, params.name);
        if (!own) {
          const preview = await placePreview(params.name, params.id);
          if (!preview) return notFoundAnswer(request);
          return render(request, params.id, query, null, `/boards/${params.id}`, preview);
        }
        const viewer = { uuid: own.uuid, name: own.name, zone: own.zone };
        return render(request, params.id, query, viewer, `/u/${own.name}/boards/${params.id}`, undefined, own.findable);
      },
      hide,
    );
}
