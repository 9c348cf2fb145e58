// The operator's side of the boards' trust measures (issue 35), shared by `tally boards` (command.ts)
// and the maintainers' page (reports/admin-boards.routes.tsx): the figures held out of the ranking
// for passing their board's plausibility bound, the players excluded from every board, excluding a
// player by name (their scores go at once, in one transaction) and letting one rank again (from
// their next upload; their held figures are forgotten).
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { accountByName, namesOf } from "../accounts/accounts.ts";
import type { Board, Boards } from "./definitions.ts";
import { parseWindow, windowOf, type BoardWindow } from "./windows.ts";
import * as q from "./boards.query.ts";

/** How many held figures and excluded players a listing shows (newest first). */
export const OPERATOR_LISTED = 200;

export type HeldFigure = {
  /** The account's name (null: the account is gone; the CLI prints its uuid). */
  name: string | null;
  uuid: string;
  boardId: string;
  /** undefined: a board the operator has since removed. */
  board: Board | undefined;
  windowId: string;
  window: BoardWindow | null;
  value: bigint;
  at: number;
};

/** The window a stored id names (`week:2026-W47`, `month:2026-11`, `all`). */
function windowOfId(id: string): BoardWindow | null {
  if (id === "all") return windowOf("all", "2000-01-01");
  const [kind, at] = id.split(":");
  return kind === "week" || kind === "month" ? parseWindow(kind, at ?? "") : null;
}

/** The figures held out of the ranking, newest first, at most OPERATOR_LISTED. */
export async function heldFigures(deps: { db: Db; boards?: Boards }): Promise<HeldFigure[]> {
  const held = await q.heldList(deps.db, OPERATOR_LISTED);
  const names = await namesOf(deps.db, [...new Set(held.map((h) => h.uuid))]);
  return held.map((h) => ({
    name: names.get(h.uuid)?.name ?? null,
    uuid: h.uuid,
    boardId: h.board,
    board: deps.boards?.byId.get(h.board),
    windowId: h.window,
    window: windowOfId(h.window),
    value: BigInt(h.value),
    at: h.at,
  }));
}

/** The excluded players, newest first, at most OPERATOR_LISTED (name null: the account is gone). */
export async function excludedPlayers(db: Db): Promise<{ name: string | null; uuid: string; at: number }[]> {
  const list = await q.exclusionsList(db, OPERATOR_LISTED);
  const names = await namesOf(
    db,
    list.map((e) => e.uuid),
  );
  return list.map((e) => ({ name: names.get(e.uuid)?.name ?? null, uuid: e.uuid, at: e.at }));
}

/**
 * Excludes the player of that name from every board: their scores go in the same transaction, so
 * the next request on any instance no longer ranks them. null: no account has that name.
 */
export async function excludeByName(
  deps: { db: Db; clock: Clock },
  name: string,
): Promise<{ name: string; removed: number; already: boolean } | null> {
  const account = await accountByName(deps.db, name);
  if (!account) return null;
  return deps.db.transaction(async (tx) => {
    await q.lockAccountScores(tx, account.uuid);
    const already = await q.isExcluded(tx, account.uuid);
    await q.exclude(tx, account.uuid, deps.clock.now());
    return { name: account.name, removed: await q.deleteAccountScores(tx, account.uuid), already };
  });
}

/**
 * Lets the player of that name rank again from their next upload and forgets their held figures.
 * `was`: whether they were excluded or held. null: no account has that name.
 */
export async function includeByName(deps: { db: Db }, name: string): Promise<{ name: string; was: boolean } | null> {
  const account = await accountByName(deps.db, name);
  if (!account) return null;
  const was = await deps.db.transaction(async (tx) => {
    await q.lockAccountScores(tx, account.uuid);
    return q.include(tx, account.uuid);
  });
  return { name: account.name, was };
}
