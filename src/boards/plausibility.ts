// A board's plausibility bound (issue 35, docs/security.md "Forged uploads topping a board"): a
// figure past it is held out of the ranking and listed for the operator.
import type { Db } from "../db/database.ts";
import type { Board } from "./definitions.ts";
import type { BoardWindow } from "./windows.ts";
import * as q from "./boards.query.ts";

/** One profile's figure of a board over a window (null: none). */
type Figure = { board: Board; window: BoardWindow; profileId: string; value: bigint | null };

/** Days in a window (all time: none, so its figure is bounded by its board's other windows only). */
const daysOf = (w: BoardWindow) =>
  w.from === null
    ? null
    : Math.round((Date.parse(`${w.to}T00:00:00Z`) - Date.parse(`${w.from}T00:00:00Z`)) / 86_400_000) + 1;

/**
 * Whether a figure passes its board's plausibility bound: a count or gauge board's gain above the
 * bound times the window's days, a max board's value above it, a min board's below it.
 */
export function implausible(board: Board, window: BoardWindow, value: bigint | null): boolean {
  if (board.bound === undefined || value === null) return false;
  const bound = BigInt(board.bound);
  if (board.kind === "max") return value > bound;
  if (board.kind === "min") return value < bound;
  const days = daysOf(window);
  return days !== null && value > bound * BigInt(days);
}

/**
 * Holds figures past their board's bound out of the ranking, listed for the operator; while the
 * account has a held figure on a board, none of its figures there rank (the forged day is in its
 * all-time figure too). Answers the figures with held ones made unranked.
 */
export async function holdImplausible<F extends Figure>(tx: Db, uuid: string, all: F[], now: number): Promise<F[]> {
  const bounded = [...new Set(all.filter((f) => f.board.bound !== undefined).map((f) => f.board.id))];
  if (bounded.length === 0) return all;
  const over = all.filter((f) => implausible(f.board, f.window, f.value));
  await q.holdFigures(
    tx,
    uuid,
    over.map((f) => ({ board: f.board.id, window: f.window.id, profileId: f.profileId, value: f.value!.toString() })),
    now,
  );
  const held = await q.heldBoards(tx, uuid, bounded);
  return all.map((f) => (held.has(f.board.id) ? { ...f, value: null } : f));
}
