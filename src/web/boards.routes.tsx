// GET /boards (the list), /boards/<id> (a board's window, anyone) and /u/<name>/boards/<id> (the
// same with the owner's own ranks pinned: the page cookie is scoped to /u/<name>, so the owner's
// view lives under it). Pages are never kept: an opt-out shows on the next request.
import { Elysia } from "elysia";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { accountByPageCookie } from "../accounts/accounts.ts";
import type { Boards } from "../boards/definitions.ts";
import { boardPage, describeBoard, type Viewer } from "../boards/ranking.ts";
import { htmlPage } from "./respond.ts";
import { sync } from "./layout.tsx";
import { BoardPageView, BoardsListPage } from "./boards-view.tsx";
import { NotFoundPage } from "./not-found.tsx";
import { formatValue } from "./format.ts";
import { PAGE_COOKIE } from "./page-cookie.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import type { Config } from "../config.ts";

export type BoardPageDeps = {
  db: Db;
  clock: Clock;
  catalogue: Catalogue;
  boards: Boards;
  config: Pick<Config, "pageRateLimit" | "trustProxy">;
};

const NAME = /^[A-Za-z0-9_]{1,16}$/;
const hide = { detail: { hide: true } };

function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

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
  ) => {
    const page = await boardPage(deps, id, asked(query), viewer);
    return htmlPage(request, sync(BoardPageView({ page, base, format })), {
      cacheControl: viewer ? "private, no-store" : "no-cache",
      noindex: viewer !== null,
    });
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
        const cookie = cookieOf(request, PAGE_COOKIE);
        const own =
          NAME.test(params.name) && cookie && cookie.length <= 64
            ? await accountByPageCookie(deps.db, cookie, deps.clock.now())
            : undefined;
        if (!own || own.name.toLowerCase() !== params.name.toLowerCase())
          return htmlPage(request, sync(NotFoundPage({ noindex: true })), { status: 404, cacheControl: "no-store" });
        const viewer = { uuid: own.uuid, name: own.name, zone: own.zone };
        return render(request, params.id, query, viewer, `/u/${own.name}/boards/${params.id}`);
      },
      hide,
    );
}
