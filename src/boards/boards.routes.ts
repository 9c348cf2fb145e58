// The boards' API (issue 35): the list, a board's page (the viewer's own rank pinned when the
// request carries a device session token), and the account's opt-ins. A board answers with an ETag
// and `Cache-Control: no-cache` (a cache asks again each time, and a 304 costs no body): an opt-out
// shows on the next request. The mod polls a board at most every POLL_SECONDS.
import { Elysia } from "elysia";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { authGuard } from "../auth/auth-guard.ts";
import { validBody } from "../http/valid-body.ts";
import { etagMatches } from "../http/etag.ts";
import { refuses } from "../http/route-detail.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import type { Config } from "../config.ts";
import type { Boards } from "./definitions.ts";
import { viewerOf } from "./viewer.ts";
import { boardPage, describeBoard, POLL_SECONDS } from "./ranking.ts";
import { membership, setMembership } from "./membership.ts";
import {
  BoardPageAnswer,
  BoardParams,
  BoardQuery,
  BoardsAnswer,
  MembershipAnswer,
  MembershipBody,
} from "./boards.schema.ts";

export type BoardRoutesDeps = {
  db: Db;
  clock: Clock;
  boards: Boards;
  config: Pick<Config, "pageRateLimit" | "trustProxy">;
};

const etagOf = (body: string) => `"b-${new Bun.CryptoHasher("sha256").update(body).digest("base64url").slice(0, 27)}"`;

export function boardRoutes(deps: BoardRoutesDeps) {
  const tags = ["boards"];
  const limit = { name: "boards", perWindow: deps.config.pageRateLimit, windowMs: 60_000 };
  const list = JSON.stringify({ boards: deps.boards.list.map(describeBoard), groups: deps.boards.groups });
  const cache = { "cache-control": "no-cache" };
  const json = (request: Request, body: string) => {
    const etag = etagOf(body);
    if (etagMatches(request.headers.get("if-none-match"), etag))
      return new Response(null, { status: 304, headers: { ...cache, etag } });
    return new Response(body, { headers: { ...cache, etag, "content-type": "application/json; charset=utf-8" } });
  };
  const board = new Elysia({ name: "tally.boards" })
    .get("/v1/boards", ({ request }) => json(request, list), {
      response: { 200: BoardsAnswer },
      detail: { tags, summary: "Every board: its title, group, figure, unit and windows" },
    })
    .get(
      "/v1/boards/:id",
      async ({ request, params, query, server }) => {
        // The pages' limit per client address (PAGE_RATE_LIMIT_PER_MINUTE), in its own window.
        await enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
        const viewer = await viewerOf(deps, request.headers.get("authorization"));
        const page = await boardPage(deps, params.id, { ...query, page: Number(query.page ?? 1) }, viewer);
        return json(request, JSON.stringify(page));
      },
      {
        params: BoardParams,
        query: BoardQuery,
        response: { 200: BoardPageAnswer },
        detail: {
          tags,
          summary: `A board's window, 100 scores a page; with a device session token, your own ranks pinned. Poll at most every ${POLL_SECONDS} s (ETag, If-None-Match)`,
          ...refuses("unknown_board", "unknown_board_window", "unauthorized", "rate_limited"),
        },
      },
    );
  const mine = new Elysia({ name: "tally.boards.membership" })
    .use(authGuard(deps))
    .get("/v1/boards/membership", ({ signedIn }) => membership(deps, signedIn.uuid), {
      response: MembershipAnswer,
      detail: { tags, summary: "The board groups you opted in to (off until you opt in)" },
    })
    .put("/v1/boards/membership", ({ signedIn, body }) => setMembership(deps, signedIn.uuid, body), {
      body: MembershipBody,
      transform: validBody(MembershipBody),
      response: MembershipAnswer,
      detail: {
        tags,
        summary: "Opt in to board groups, or out: leaving a group removes your scores from its boards at once",
        ...refuses("unknown_board_group"),
      },
    });
  return new Elysia({ name: "tally.boards.all" }).use(mine).use(board);
}
