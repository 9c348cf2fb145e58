// A board's page (issue 35): 100 scores a page, best first, and the viewer's own rank pinned with
// the scores just above and below. A row names its player, linked to their page, only when that
// page is findable; any other row is "a player" (its name and its profile's cute name are never
// shown: docs/decisions.md, "Boards: who a row names"). Every read is an index range.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { ApiError } from "../http/errors.ts";
import { namesOf } from "../accounts/accounts.ts";
import { dayIn, utcDay } from "../wire/day.ts";
import { WINDOW_KINDS, type Board, type Boards, type WindowKind } from "./definitions.ts";
import { isOpen, parseWindow, stepWindow, windowOf, windowWords, type BoardWindow } from "./windows.ts";
import * as r from "./ranking.query.ts";

export type RankingDeps = { db: Db; clock: Clock; boards: Boards };

export const PAGE_SIZE = 100;
/** Scores shown above and below each of the viewer's own. */
const AROUND = 2;
/** How often the mod may ask for a board again (the JSON says so too). */
export const POLL_SECONDS = 60;

export type Viewer = { uuid: string; name: string; zone: string };

export function boardOf(boards: Boards, id: string): Board {
  const board = boards.byId.get(id);
  if (!board) throw new ApiError("unknown_board", `no board ${id}; GET /v1/boards lists them`);
  return board;
}

/** The window asked for: `window` (default week) at `at` (default the one holding today). */
export function windowAsked(
  board: Board,
  kind: string | undefined,
  at: string | undefined,
  today: string,
): BoardWindow {
  const k = (kind ?? board.windows[0]) as WindowKind;
  if (!WINDOW_KINDS.includes(k) || !board.windows.includes(k))
    throw new ApiError("unknown_board_window", `the board ${board.id} ranks the windows ${board.windows.join(", ")}`);
  const w = at === undefined || at === "" ? windowOf(k, today) : parseWindow(k, at);
  if (!w) throw new ApiError("unknown_board_window", `no ${k} ${at}; a week is like 2026-W47, a month 2026-11`);
  return w;
}

type Row = { rank: number; name: string | null; linked: boolean; cuteName: string | null; value: number; you: boolean };

/**
 * The rows in words: a player named when it is the viewer, their page is findable, or `known` says
 * the viewer may know them (a group's members see each other).
 */
export async function named(
  db: Db,
  list: (r.RankedRow & { rank: number })[],
  viewer: Viewer | null,
  known: (uuid: string) => boolean = () => false,
): Promise<Row[]> {
  const names = await namesOf(db, [...new Set(list.map((x) => x.uuid))]);
  return list.map((x) => {
    const you = viewer?.uuid === x.uuid;
    const who = names.get(x.uuid);
    const shown = you || who?.findable === true || known(x.uuid);
    return {
      rank: x.rank,
      name: shown ? (who?.name ?? null) : null,
      linked: who?.findable === true,
      cuteName: shown ? x.cuteName : null,
      value: Number(x.value),
      you,
    };
  });
}

/** One page of a board's window, and the viewer's own ranks when signed in. */
export async function boardPage(
  deps: RankingDeps,
  id: string,
  query: { window?: string; at?: string; page?: number },
  viewer: Viewer | null,
) {
  const board = boardOf(deps.boards, id);
  const now = deps.clock.now();
  const today = viewer ? dayIn(viewer.zone, now) : utcDay(now);
  const w = windowAsked(board, query.window, query.at, today);
  // A page past the last answers the last (its number is only known with the total).
  let offset = (Math.max(1, query.page ?? 1) - 1) * PAGE_SIZE;
  // The viewer's own scores are read beside the page (neither waits for the other).
  const [first, mine] = await Promise.all([
    r.rankedPage(deps.db, board.id, w.id, offset, PAGE_SIZE),
    viewer ? r.scoresOfAccount(deps.db, board.id, w.id, viewer.uuid) : [],
  ]);
  let found = first;
  const { total } = found;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (offset >= total && offset > 0) {
    offset = (pages - 1) * PAGE_SIZE;
    found = await r.rankedPage(deps.db, board.id, w.id, offset, PAGE_SIZE);
  }
  const page = offset / PAGE_SIZE + 1;
  const around = await Promise.all(
    mine.map(async (own) => {
      const { rank, above, below } = await r.around(deps.db, board.id, w.id, own, AROUND);
      const list = [
        ...above.map((x, i) => ({ ...x, rank: rank - above.length + i })),
        { ...own, rank },
        ...below.map((x, i) => ({ ...x, rank: rank + 1 + i })),
      ];
      return { rank, list };
    }),
  );
  // One look-up of names for the page and the pinned rows.
  const listed = [...found.rows.map((x, i) => ({ ...x, rank: offset + i + 1 })), ...around.flatMap((a) => a.list)];
  const shown = await named(deps.db, listed, viewer);
  const rows = shown.slice(0, found.rows.length);
  let at = found.rows.length;
  const me = around.map((a) => {
    at += a.list.length;
    return { rank: a.rank, rows: shown.slice(at - a.list.length, at) };
  });
  return {
    board: describeBoard(board),
    window: describeWindow(w, today),
    total,
    page,
    pages,
    rows,
    me,
    pollAfterSeconds: POLL_SECONDS,
  };
}

/** A window in words, with its neighbours (the next only once it has begun). */
export function describeWindow(w: BoardWindow, today: string) {
  const prev = stepWindow(w, -1);
  const next = stepWindow(w, 1);
  return {
    kind: w.kind,
    at: w.at,
    label: windowWords(w),
    from: w.from,
    to: w.to,
    open: isOpen(w, today),
    previous: prev?.at ?? null,
    next: next && next.from! <= today ? next.at : null,
  };
}

export const describeBoard = (b: Board) => ({
  id: b.id,
  title: b.title,
  group: b.group,
  description: b.description ?? null,
  kind: b.kind,
  unit: b.unit,
  scope: b.scope,
  higherBetter: b.higherBetter,
  windows: b.windows,
});

export type BoardPage = Awaited<ReturnType<typeof boardPage>>;
