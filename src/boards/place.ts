// A player's place on a service board (issue 35), for a badge and a card: "#12 of 4 310 this
// week". The window is the board's first (this week for most) holding today (UTC, as the group
// badge's); the player's best score there (one a profile). Null when they hold none: not opted
// in, excluded, held out, or nothing this window. Who may be shown it is the route's to decide.
import { utcDay } from "../wire/day.ts";
import { boardOf, describeBoard, windowAsked, type RankingDeps } from "./ranking.ts";
import { placeText, WINDOW_NOW } from "./group-board.ts";
import * as r from "./ranking.query.ts";

export async function boardPlace(deps: RankingDeps, boardId: string, uuid: string) {
  const board = boardOf(deps.boards, boardId);
  const w = windowAsked(board, undefined, undefined, utcDay(deps.clock.now()));
  const mine = await r.scoresOfAccount(deps.db, board.id, w.id, uuid);
  if (mine.length === 0) return null;
  const [ranks, of] = await Promise.all([
    Promise.all(mine.map((s) => r.rankOf(deps.db, board.id, w.id, s))),
    r.totalOf(deps.db, board.id, w.id),
  ]);
  const at = ranks.indexOf(Math.min(...ranks));
  const best = mine[at]!;
  return {
    board: describeBoard(board),
    window: w.kind,
    rank: ranks[at]!,
    of,
    value: Number(best.value),
    cuteName: best.cuteName,
    label: board.title,
    words: `${placeText(ranks[at]!, of)} ${WINDOW_NOW[w.kind]}`,
  };
}
