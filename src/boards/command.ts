// `tally boards ...` (issue 35): the operator's side of the boards' trust measures. `held` lists the
// figures held out of the ranking for passing their board's plausibility bound; `exclude <name>`
// takes a player off every board (their scores go at once; they see that they are excluded);
// `include <name>` lets them rank again from their next upload and forgets their held figures.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { accountByName, namesOf } from "../accounts/accounts.ts";
import * as q from "./boards.query.ts";

export type BoardsCommand = { action: "held" } | { action: "exclude" | "include"; name: string };

const HELD_LISTED = 200;

export function parseBoardsArgs(args: string[]): BoardsCommand | { error: string } {
  const [action, name, ...rest] = args;
  if (action === "held" && name === undefined) return { action };
  if ((action === "exclude" || action === "include") && name && rest.length === 0) return { action, name };
  return { error: "boards takes: held | exclude <name> | include <name>" };
}

export async function runBoardsCommand(deps: { db: Db; clock: Clock }, command: BoardsCommand): Promise<string> {
  if (command.action === "held") {
    const held = await q.heldList(deps.db, HELD_LISTED);
    if (held.length === 0) return "no figures are held\n";
    const names = await namesOf(deps.db, [...new Set(held.map((h) => h.uuid))]);
    return `${held
      .map(
        (h) =>
          `${names.get(h.uuid)?.name ?? h.uuid}  ${h.board}  ${h.window}  ${h.value}  ${new Date(h.at).toISOString()}`,
      )
      .join("\n")}\n`;
  }
  const account = await accountByName(deps.db, command.name);
  if (!account) return `no player named ${command.name}\n`;
  if (command.action === "exclude") {
    const removed = await deps.db.transaction(async (tx) => {
      await q.lockAccountScores(tx, account.uuid);
      await q.exclude(tx, account.uuid, deps.clock.now());
      return q.deleteAccountScores(tx, account.uuid);
    });
    return `${account.name} is excluded from every board (${removed} scores removed)\n`;
  }
  const was = await deps.db.transaction((tx) => q.include(tx, account.uuid));
  return was
    ? `${account.name} may rank again from their next upload\n`
    : `${account.name} was neither excluded nor held\n`;
}
