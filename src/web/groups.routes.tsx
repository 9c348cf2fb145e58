// A player group's pages (issue 35): /u/<name>/groups/<id> and its boards under it for a member
// (through the page cookie, which is scoped to /u/<name>), and /groups/<id> for anyone when the
// group is public. A group the visitor may not see answers the same 404 as one that does not exist.
import { Elysia } from "elysia";
import { Type as T } from "@sinclair/typebox";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Config } from "../config.ts";
import type { Boards } from "../boards/definitions.ts";
import { describeBoard, type Viewer } from "../boards/ranking.ts";
import { groupBoardPage, memberPlace, visibleGroup } from "../boards/group-board.ts";
import { changeGroup, groupDetail, leaveGroup, removeMember, rotateCode } from "../boards/groups.ts";
import { ApiError } from "../http/errors.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import { htmlPage } from "./respond.ts";
import { sync } from "./layout.tsx";
import { BoardPageView } from "./boards-view.tsx";
import { GroupPageView } from "./groups-view.tsx";
import { notFoundAnswer } from "./not-found.tsx";
import { formatValue } from "./format.ts";
import { PAGE_NAME, pageOwner } from "./page-cookie.ts";
import { accountByName } from "../accounts/accounts.ts";
import { answers, DESCRIBED_OUTSIDE_V1 } from "../http/route-detail.ts";
import { badgeSvg } from "../cards/badge.ts";
import { BADGE_ANSWERS, HTML_REFUSALS, badgeImage } from "../cards/image-response.ts";

export type GroupPageDeps = {
  db: Db;
  clock: Clock;
  catalogue: Catalogue;
  boards: Boards;
  config: Pick<Config, "baseUrl" | "pageRateLimit" | "trustProxy" | "groupMaxMembers" | "groupJoinFailures">;
};

const hide = { detail: { hide: true } };
const ID = /^[A-Za-z0-9_-]{16}$/;

function asked(query: Record<string, string | undefined>) {
  const page = /^[1-9][0-9]{0,6}$/.test(query.page ?? "") ? Number(query.page) : 1;
  const short = (s: string | undefined) => (s !== undefined && s.length <= 8 ? s : undefined);
  return { window: short(query.window), at: short(query.at), page };
}

export function groupPageRoutes(deps: GroupPageDeps) {
  const format = (unit: string, value: number) => formatValue(deps.catalogue, unit, value);
  const limit = { name: "boards", perWindow: deps.config.pageRateLimit, windowMs: 60_000 };
  type Server = Parameters<typeof clientAddress>[1];
  const limited = (request: Request, server: Server) =>
    enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
  /** Runs `draw`; a group the visitor may not see is the not-found page. */
  const seen = async (request: Request, id: string, draw: () => Promise<Response>) => {
    if (!ID.test(id)) return notFoundAnswer(request);
    try {
      return await draw();
    } catch (e) {
      if (e instanceof ApiError && e.code === "unknown_group") return notFoundAnswer(request);
      throw e;
    }
  };
  const owner = async (request: Request, name: string): Promise<Viewer | null> => {
    const own = await pageOwner(deps, request, name);
    return own ? { uuid: own.uuid, name: own.name, zone: own.zone } : null;
  };
  const groupPage = async (request: Request, id: string, viewer: Viewer | null, base: string) => {
    const { group, member, members } = await visibleGroup(deps, id, viewer);
    const detail = member && viewer ? await groupDetail(deps, viewer.uuid, id) : null;
    return htmlPage(
      request,
      sync(
        GroupPageView({
          group,
          base,
          boards: deps.boards.list.map(describeBoard),
          members: detail?.list ?? null,
          count: members,
          own: detail ? { action: base, creator: detail.yours, inviteCode: detail.inviteCode } : undefined,
        }),
      ),
      { cacheControl: "private, no-store", noindex: !group.public },
    );
  };
  const boardPage = async (
    request: Request,
    id: string,
    board: string,
    query: Record<string, string | undefined>,
    viewer: Viewer | null,
    base: string,
  ) => {
    const page = await groupBoardPage(deps, id, board, asked(query), viewer);
    return htmlPage(
      request,
      sync(
        BoardPageView({
          page,
          base: `${base}/boards/${board}`,
          format,
          group: { title: page.group.title, public: page.group.public, href: base },
        }),
      ),
      { cacheControl: "private, no-store", noindex: viewer !== null || !page.group.public },
    );
  };
  const origin = new URL(deps.config.baseUrl).origin;
  /**
   * A member's form on their group's page: their page cookie, then the Origin must be this
   * service's (SameSite=Lax keeps the cookie off another site's post too); back to the group's
   * page, or to their own page once they left it.
   */
  const form =
    (run: (uuid: string, id: string, member?: string) => Promise<unknown>, after: "group" | "own" = "group") =>
    async ({
      params,
      request,
      server,
    }: {
      params: { name: string; id: string; member?: string };
      request: Request;
      server: unknown;
    }) => {
      await limited(request, server as Server);
      const viewer = await owner(request, params.name);
      if (!viewer || !ID.test(params.id)) return notFoundAnswer(request);
      if (request.headers.get("origin") !== origin)
        return new Response("Groups are changed only from their own page on this site.", {
          status: 403,
          headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
        });
      return seen(request, params.id, async () => {
        try {
          await run(viewer.uuid, params.id, params.member);
        } catch (e) {
          // Not the creator, or not a member it may remove: nothing to do from here.
          if (
            !(
              e instanceof ApiError &&
              (e.code === "not_group_owner" || e.code === "unknown_group_member" || e.code === "conflict")
            )
          )
            throw e;
        }
        const location =
          after === "own"
            ? `/u/${encodeURIComponent(viewer.name)}`
            : `/u/${encodeURIComponent(viewer.name)}/groups/${params.id}`;
        return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
      });
    };
  return new Elysia({ name: "tally.web.groups" })
    .post(
      "/u/:name/groups/:id/leave",
      form((uuid, id) => leaveGroup(deps, uuid, id), "own"),
      hide,
    )
    .post(
      "/u/:name/groups/:id/code",
      form((uuid, id) => rotateCode(deps, uuid, id)),
      hide,
    )
    .post(
      "/u/:name/groups/:id/public",
      form((uuid, id) => changeGroup(deps, uuid, id, { public: true })),
      hide,
    )
    .post(
      "/u/:name/groups/:id/private",
      form((uuid, id) => changeGroup(deps, uuid, id, { public: false })),
      hide,
    )
    .post(
      "/u/:name/groups/:id/remove/:member",
      form((uuid, id, member) => removeMember(deps, uuid, id, member ?? "")),
      hide,
    )
    .get(
      "/groups/:id",
      async ({ request, params, server }) => {
        await limited(request, server);
        return seen(request, params.id, () => groupPage(request, params.id, null, `/groups/${params.id}`));
      },
      hide,
    )
    .get(
      "/groups/:id/boards/:board",
      async ({ request, params, query, server }) => {
        await limited(request, server);
        return seen(request, params.id, () =>
          boardPage(request, params.id, params.board, query, null, `/groups/${params.id}`),
        );
      },
      hide,
    )
    .get(
      "/u/:name/groups/:id",
      async ({ request, params, server }) => {
        await limited(request, server);
        const viewer = await owner(request, params.name);
        if (!viewer) return notFoundAnswer(request);
        return seen(request, params.id, () =>
          groupPage(request, params.id, viewer, `/u/${viewer.name}/groups/${params.id}`),
        );
      },
      hide,
    )
    .get(
      "/u/:name/groups/:id/boards/:board/badge.svg",
      async ({ request, params, server }) => {
        await limited(request, server);
        if (!PAGE_NAME.test(params.name)) return notFoundAnswer(request);
        // The player named, when their page is findable or it is their own page cookie; the group,
        // when it is public or they are a member by that cookie (a private group's badge is its
        // members' own, never a stranger's).
        const viewer = await owner(request, params.name);
        const account = await accountByName(deps.db, params.name);
        if (!account || !(account.findable || viewer)) return notFoundAnswer(request);
        return seen(request, params.id, async () => {
          let place: Awaited<ReturnType<typeof memberPlace>>;
          try {
            place = await memberPlace(deps, params.id, params.board, account.uuid, viewer);
          } catch (e) {
            if (e instanceof ApiError && e.code === "unknown_board") return notFoundAnswer(request);
            throw e;
          }
          if (!place) return notFoundAnswer(request);
          const open = place.group.public && account.findable;
          return badgeImage(request, badgeSvg(place.label, place.value), "group-badge", open ? "no-cache" : "no-store");
        });
      },
      {
        params: T.Object(
          {
            name: T.String({ maxLength: 64, description: "The member's name" }),
            id: T.String({ maxLength: 64, description: "The group's id" }),
            board: T.String({ maxLength: 64, description: "The board's id, as GET /v1/boards lists them" }),
          },
          { additionalProperties: false },
        ),
        detail: {
          tags: ["previews"],
          summary: "A badge of a member's place on a group's board this week (or the board's first window)",
          description:
            '"#2 of 14 this week", light and dark. Served for a public group\'s member whose page is findable, or to the member themselves through their page cookie; anything else is the not-found page. Revalidated on every use (an opt-out or a member leaving shows at once).',
          ...DESCRIBED_OUTSIDE_V1,
          ...answers({
            ...BADGE_ANSWERS,
            ...HTML_REFUSALS,
          }),
        },
      },
    )
    .get(
      "/u/:name/groups/:id/boards/:board",
      async ({ request, params, query, server }) => {
        await limited(request, server);
        const viewer = await owner(request, params.name);
        if (!viewer) return notFoundAnswer(request);
        return seen(request, params.id, () =>
          boardPage(request, params.id, params.board, query, viewer, `/u/${viewer.name}/groups/${params.id}`),
        );
      },
      hide,
    );
}
