// Opting in to boards (issue 35): off by default, separate from making one's page findable; by
// board group or every group at once (`*`). Turning a group off deletes the account's scores on
// its boards in the same transaction, so the next request on any instance no longer ranks them.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { ApiError } from "../http/errors.ts";
import type { Boards } from "./definitions.ts";
import * as q from "./boards.query.ts";
import { boardsOptedIn } from "./scores.ts";
import { forgetGroups } from "./groups.ts";

export type MembershipDeps = { db: Db; clock: Clock; boards: Boards };

/** The account's opt-ins in words for the mod: every group, and whether it is on. */
export async function membership(deps: MembershipDeps, uuid: string) {
  const { groups, excluded } = await q.optinsAndExclusion(deps.db, uuid);
  return answer(deps.boards, groups, excluded);
}

function answer(boards: Boards, groups: string[], excluded: boolean) {
  const all = groups.includes("*");
  return {
    excluded,
    all,
    groups: boards.groups.map((id) => ({
      id,
      on: all || groups.includes(id),
      boards: boards.list.filter((b) => b.group === id).map((b) => b.id),
    })),
  };
}

/**
 * Sets the account's opt-ins: `all`, or the groups named. A group not among the boards' answers
 * 422 unknown_board_group. Leaving deletes the scores of every board no longer opted in to; joining
 * ranks from the account's next upload.
 */
export async function setMembership(deps: MembershipDeps, uuid: string, change: { all: boolean; groups: string[] }) {
  change.groups.forEach((g, i) => {
    if (!deps.boards.groups.includes(g))
      throw new ApiError(
        "unknown_board_group",
        `no board group ${g}; the groups are ${deps.boards.groups.join(", ")}`,
        `/groups/${i}`,
      );
  });
  const groups = change.all ? ["*"] : [...new Set(change.groups)].sort();
  return deps.db.transaction(async (tx) => {
    await q.lockAccountScores(tx, uuid);
    await q.replaceOptins(tx, uuid, groups, deps.clock.now());
    const kept = new Set(boardsOptedIn(deps.boards, groups).map((b) => b.id));
    const left = deps.boards.list.filter((b) => !kept.has(b.id)).map((b) => b.id);
    // Scores of boards no longer defined go too when the player leaves everything.
    const removed = await q.deleteAccountScores(tx, uuid, groups.length === 0 ? undefined : left);
    // Off every board: the refresh has nothing left to do for the account (a partial opt-out's
    // noted work is filtered by the refresh, under the same lock).
    if (groups.length === 0) await q.takePending(tx, uuid);
    return { ...answer(deps.boards, groups, await q.isExcluded(tx, uuid)), removed };
  });
}

/**
 * Erasure, in its transaction (stats/erase.ts calls it back): the scores and held figures made of
 * the erased statistics go; with the account, its opt-ins too (erasing the statistics keeps the
 * settings, and the opt-in is one), and its groups: its memberships, and the groups it created with
 * their members.
 */
export async function leaveBoards(tx: Db, uuid: string, what: "data" | "account") {
  await q.lockAccountScores(tx, uuid);
  if (what === "account") {
    await q.replaceOptins(tx, uuid, [], 0);
    await forgetGroups(tx, uuid);
  }
  await q.forgetHeld(tx, uuid);
  await q.takePending(tx, uuid);
  return q.deleteAccountScores(tx, uuid);
}
