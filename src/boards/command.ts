// `tally boards ...` (issue 35): the operator's side of the boards' trust measures. `held` lists the
// figures held out of the ranking for passing their board's plausibility bound; `exclude <name>`
// takes a player off every board (their scores go at once; they see that they are excluded);
// `include <name>` lets them rank again from their next upload and forgets their held figures.
// The maintainers' page does the same (reports/admin-boards.routes.tsx); both call operator.ts.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { excludeByName, heldFigures, includeByName } from "./operator.ts";

export type BoardsCommand = { action: "held" } | { action: "exclude" | "include"; name: string };

export function parseBoardsArgs(args: string[]): BoardsCommand | { error: string } {
  const [action, name, ...rest] = args;
  if (action === "held" && name === undefined) return { action };
  if ((action === "exclude" || action === "include") && name && rest.length === 0) return { action, name };
  return { error: "boards takes: held | exclude <name> | include <name>" };
}

export async function runBoardsCommand(deps: { db: Db; clock: Clock }, command: BoardsCommand): Promise<string> {
  if (command.action === "held") {
    const held = await heldFigures(deps);
    if (held.length === 0) return "no figures are held\n";
    return `${held
      .map((h) => `${h.name ?? h.uuid}  ${h.boardId}  ${h.windowId}  ${h.value}  ${new Date(h.at).toISOString()}`)
      .join("\n")}\n`;
  }
  if (command.action === "exclude") {
    const done = await excludeByName(deps, command.name);
    if (!done) return `no player named ${command.name}\n`;
    return `${done.name} is excluded from every board (${done.removed} scores removed)\n`;
  }
  const done = await includeByName(deps, command.name);
  if (!done) return `no player named ${command.name}\n`;
  return done.was
    ? `${done.name} may rank again from their next upload\n`
    : `${done.name} was neither excluded nor held\n`;
}
