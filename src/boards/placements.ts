// A recap's board placements (issue 35): where the player stood on each board in the recap's
// month (a year: their best month on each board, with the month). Read once the period has closed,
// from the closed windows' scores (archived: never recomputed), so a stored recap keeps them.
import type { Db } from "../db/database.ts";
import type { Boards } from "./definitions.ts";
import * as r from "./ranking.query.ts";

export type Placement = { board: string; rank: number; of: number; at: string };

/** The month windows a recap period covers: "2026-10", or the twelve months of "2026". */
function monthsOf(period: string): string[] {
  if (/^\d{4}-\d{2}$/.test(period)) return [period];
  if (/^\d{4}$/.test(period))
    return Array.from({ length: 12 }, (_, i) => `${period}-${String(i + 1).padStart(2, "0")}`);
  return [];
}

/** The account's best placement on each board with a month window, best rank first (then by board). */
export async function placementsOf(deps: { db: Db; boards: Boards }, uuid: string, period: string) {
  const months = monthsOf(period);
  if (months.length === 0) return [];
  const scores = await r.accountScoresIn(
    deps.db,
    uuid,
    months.map((m) => `month:${m}`),
  );
  const best = new Map<string, Placement>();
  for (const s of scores) {
    const board = deps.boards.byId.get(s.board);
    if (!board?.windows.includes("month")) continue;
    const [rank, of] = await Promise.all([
      r.rankOf(deps.db, s.board, s.window, s),
      r.totalOf(deps.db, s.board, s.window),
    ]);
    const had = best.get(s.board);
    if (!had || rank < had.rank) best.set(s.board, { board: s.board, rank, of, at: s.window.slice("month:".length) });
  }
  return [...best.values()].sort((a, b) => a.rank - b.rank || (a.board < b.board ? -1 : 1));
}
