// A group's board (issue 35): the service board's window ranked among the group's members only,
// 100 a page, the viewer's own ranks pinned. Members see each other's names (they joined to be
// seen by the group); a visitor of a public group sees a name only where its page is findable.
import { ApiError } from "../http/errors.ts";
import { dayIn, utcDay } from "../wire/day.ts";
import type { RankedRow } from "./ranking.query.ts";
import { boardOf, describeBoard, describeWindow, named, PAGE_SIZE, POLL_SECONDS, windowAsked } from "./ranking.ts";
import type { RankingDeps, Viewer } from "./ranking.ts";
import type { GroupDeps } from "./groups.ts";
import * as q from "./groups.query.ts";

const AROUND = 2;

/** The group, when the viewer may see it: a member, or anyone when it is public. */
export async function visibleGroup(deps: GroupDeps, id: string, viewer: { uuid: string } | null) {
  const g = await q.groupById(deps.db, id);
  const member = g !== undefined && viewer !== null && (await q.isMember(deps.db, id, viewer.uuid));
  if (!g || (!member && !g.public))
    throw new ApiError("unknown_group", `no group ${id} that you may see; a private group is seen by its members only`);
  return { group: { id: g.id, title: g.title, public: g.public }, member, members: await q.memberCount(deps.db, id) };
}

export async function groupBoardPage(
  deps: RankingDeps & GroupDeps,
  groupId: string,
  boardId: string,
  query: { window?: string; at?: string; page?: number },
  viewer: Viewer | null,
) {
  const { group, member } = await visibleGroup(deps, groupId, viewer);
  const board = boardOf(deps.boards, boardId);
  const today = viewer ? dayIn(viewer.zone, deps.clock.now()) : utcDay(deps.clock.now());
  const w = windowAsked(board, query.window, query.at, today);
  const all = (await q.groupScores(deps.db, groupId, board.id, w.id)).map((x, i) => ({ ...x, rank: i + 1 }));
  const total = all.length;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(Math.max(1, query.page ?? 1), pages);
  const shownRows = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const mine = viewer ? all.filter((x) => x.uuid === viewer.uuid) : [];
  const around = mine.map((own) => ({
    rank: own.rank,
    list: all.slice(Math.max(0, own.rank - 1 - AROUND), own.rank + AROUND) as (RankedRow & { rank: number })[],
  }));
  const listed = [...shownRows, ...around.flatMap((a) => a.list)];
  const shown = await named(deps.db, listed, viewer, () => member);
  let at = shownRows.length;
  const me = around.map((a) => {
    at += a.list.length;
    return { rank: a.rank, rows: shown.slice(at - a.list.length, at) };
  });
  return {
    group,
    board: describeBoard(board),
    window: describeWindow(w, today),
    total,
    page,
    pages,
    rows: shown.slice(0, shownRows.length),
    me,
    pollAfterSeconds: POLL_SECONDS,
  };
}

export const WINDOW_NOW = { week: "this week", month: "this month", all: "all time" } as const;

/** A place among those ranked, as the badges and cards write it: "#12 of 4,310". */
export const placeText = (rank: number, of: number) => `#${rank} of ${of.toLocaleString("en-GB")}`;

/**
 * A member's place on a group's board in the window holding today (UTC), for a badge ("#2 of 14
 * this week"), when the viewer may see the group (a member, or anyone when it is public): null
 * when the member holds no score there (not a member, not opted in, nothing this window).
 */
export async function memberPlace(
  deps: RankingDeps & GroupDeps,
  groupId: string,
  boardId: string,
  uuid: string,
  viewer: Viewer | null,
) {
  const { group } = await visibleGroup(deps, groupId, viewer);
  const board = boardOf(deps.boards, boardId);
  const w = windowAsked(board, undefined, undefined, utcDay(deps.clock.now()));
  const all = await q.groupScores(deps.db, groupId, board.id, w.id);
  const at = all.findIndex((x) => x.uuid === uuid);
  if (at < 0) return null;
  return {
    group,
    board: describeBoard(board),
    window: w.kind,
    rank: at + 1,
    of: all.length,
    score: Number(all[at]!.value),
    label: `${board.title} · ${group.title}`,
    value: `${placeText(at + 1, all.length)} ${WINDOW_NOW[w.kind]}`,
  };
}
