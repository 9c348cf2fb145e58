// The player groups' API (issue 35), for the mod's device session: create, list, join by code,
// rename or make public, rotate the code, remove a member, leave, delete; and a group's board, seen
// by its members (device session token) or by anyone when the group is public.
import { Elysia } from "elysia";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { authGuard } from "../auth/auth-guard.ts";
import { validBody } from "../http/valid-body.ts";
import { refuses } from "../http/route-detail.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import type { Boards } from "./definitions.ts";
import { viewerOf } from "./viewer.ts";
import { POLL_SECONDS } from "./ranking.ts";
import { groupBoardPage } from "./group-board.ts";
import {
  changeGroup,
  createGroup,
  deleteGroup,
  groupDetail,
  joinGroup,
  leaveGroup,
  myGroups,
  removeMember,
  rotateCode,
} from "./groups.ts";
import {
  ChangeGroupBody,
  CreateGroupBody,
  GroupAnswer,
  GroupBoardAnswer,
  GroupBoardParams,
  GroupBoardQuery,
  GroupDetailAnswer,
  GroupMemberParams,
  GroupParams,
  GroupsAnswer,
  JoinGroupBody,
} from "./groups.schema.ts";

export type GroupRoutesDeps = {
  db: Db;
  clock: Clock;
  boards: Boards;
  config: Pick<Config, "pageRateLimit" | "trustProxy" | "groupMaxMembers" | "groupJoinFailures">;
};

export function groupRoutes(deps: GroupRoutesDeps) {
  const tags = ["groups"];
  const limit = { name: "boards", perWindow: deps.config.pageRateLimit, windowMs: 60_000 };
  const owner = refuses("unknown_group", "not_group_owner");
  const mine = new Elysia({ name: "tally.groups" })
    .use(authGuard(deps))
    .get("/v1/groups", ({ signedIn }) => myGroups(deps, signedIn.uuid), {
      response: GroupsAnswer,
      detail: { tags, summary: "The groups you belong to (the invite code: only of those you created)" },
    })
    .post("/v1/groups", ({ signedIn, body }) => createGroup(deps, signedIn.uuid, body), {
      body: CreateGroupBody,
      transform: validBody(CreateGroupBody),
      response: GroupAnswer,
      detail: {
        tags,
        summary:
          "Create a group and get its invite code. Members are ranked on its boards once they opt in to boards themselves",
        ...refuses("denylisted_string", "too_many_groups"),
      },
    })
    .post(
      "/v1/groups/join",
      ({ signedIn, body, request, server }) =>
        joinGroup(deps, signedIn.uuid, body.code, clientAddress(request, server, deps.config.trustProxy)),
      {
        body: JoinGroupBody,
        transform: validBody(JoinGroupBody),
        response: GroupAnswer,
        detail: {
          tags,
          summary: "Join a group with its invite code (wrong codes are limited per address and hour)",
          ...refuses("unknown_group", "group_full", "too_many_groups", "rate_limited"),
        },
      },
    )
    .get("/v1/groups/:id", ({ signedIn, params }) => groupDetail(deps, signedIn.uuid, params.id), {
      params: GroupParams,
      response: GroupDetailAnswer,
      detail: { tags, summary: "A group you belong to and its members", ...refuses("unknown_group") },
    })
    .patch("/v1/groups/:id", ({ signedIn, params, body }) => changeGroup(deps, signedIn.uuid, params.id, body), {
      params: GroupParams,
      body: ChangeGroupBody,
      transform: validBody(ChangeGroupBody),
      response: GroupDetailAnswer,
      detail: {
        tags,
        summary: "Rename your group or make it public or private",
        ...refuses("unknown_group", "not_group_owner", "denylisted_string"),
      },
    })
    .delete("/v1/groups/:id", ({ signedIn, params }) => deleteGroup(deps, signedIn.uuid, params.id), {
      params: GroupParams,
      response: GroupsAnswer,
      detail: { tags, summary: "Delete your group (its members leave it at once)", ...owner },
    })
    .post("/v1/groups/:id/code", ({ signedIn, params }) => rotateCode(deps, signedIn.uuid, params.id), {
      params: GroupParams,
      response: GroupDetailAnswer,
      detail: { tags, summary: "A new invite code for your group; the old one stops working at once", ...owner },
    })
    .delete("/v1/groups/:id/membership", ({ signedIn, params }) => leaveGroup(deps, signedIn.uuid, params.id), {
      params: GroupParams,
      response: GroupsAnswer,
      detail: {
        tags,
        summary: "Leave a group, at once (its creator deletes it instead)",
        ...refuses("unknown_group", "conflict"),
      },
    })
    .delete(
      "/v1/groups/:id/members/:name",
      ({ signedIn, params }) => removeMember(deps, signedIn.uuid, params.id, params.name),
      {
        params: GroupMemberParams,
        response: GroupDetailAnswer,
        detail: {
          tags,
          summary: "Remove a member from your group",
          ...refuses("unknown_group", "not_group_owner", "unknown_group_member"),
        },
      },
    );
  const board = new Elysia({ name: "tally.groups.board" }).get(
    "/v1/groups/:id/boards/:board",
    async ({ request, params, query, server }) => {
      await enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
      const viewer = await viewerOf(deps, request.headers.get("authorization"));
      const page = await groupBoardPage(
        deps,
        params.id,
        params.board,
        { ...query, page: Number(query.page ?? 1) },
        viewer,
      );
      return new Response(JSON.stringify(page), {
        headers: { "cache-control": "private, no-store", "content-type": "application/json; charset=utf-8" },
      });
    },
    {
      params: GroupBoardParams,
      query: GroupBoardQuery,
      response: { 200: GroupBoardAnswer },
      detail: {
        tags,
        summary: `A group's board: the board's window ranked among the group's members. Members only (device session token) unless the group is public. Poll at most every ${POLL_SECONDS} s`,
        ...refuses("unknown_group", "unknown_board", "unknown_board_window", "unauthorized", "rate_limited"),
      },
    },
  );
  return new Elysia({ name: "tally.groups.all" }).use(mine).use(board);
}
