// The command line's words: `tally --help`'s text, and the command an argv names, with its
// arguments checked before any setting is read.
import { settingsHelp } from "../config.ts";
import { VERSION } from "../version.ts";
import { parseBoardsArgs, type BoardsCommand } from "../boards/command.ts";
import { parseReportsArgs } from "../reports/problems-list.ts";
import { parseImportArgs } from "../stats/import-command.ts";

export const usage = () => `tally ${VERSION}: the statistics service of the mod (API, website, image proxy, scheduler).

Usage: tally [command]

Commands:
  serve          Start the service (the default). Migrates the database first.
  migrate        Apply database migrations and exit.
  check-config   Check the settings and print the effective values (secrets masked).
  reports        List the bug-report problems (regressions first, then reports of the last 7 days), with their state.
  reports versions                 Release health: active installs (statistics on) and reports per 1 000 installs, per mod version.
  reports show <id>                Samples, versions seen, daily counts and state changes of a problem.
  reports resolve <id> --in <ver>  Resolved in that mod version: older versions count, it or newer reopens.
  reports reopen <id>              Open again (also unmutes).
  reports mute <id>                Keep counting, never post to the chat.
  boards held                      Figures held out of the boards for passing their plausibility bound.
  boards exclude <name>            Take a player off every board (their scores go at once).
  boards include <name>            Let an excluded or held player rank again from their next upload.
  backup <file>  Write a backup of the embedded database (while the service runs: give ADMIN_TOKEN).
  restore <file> Replace the embedded database with a backup (the service stopped; the old one is kept).
  import <file> --account <name> [--confirm-other-account]
                 Take an export file (GET /v1/stats/export, format 2; gzip or plain) into that account, by the
                 rules of POST /v1/stats/import: checked whole, then applied in one transaction (the embedded
                 database: with the service stopped). Another account's file needs --confirm-other-account.
  --help, -h     Show this help.
  --version, -v  Print the version.

Storage: with DATABASE_URL the service uses that Postgres; without it, an embedded Postgres in
DATA_DIR (one process per folder). Settings come from the environment:

${settingsHelp().join("\n")}
`;

type Parsed<T> = Exclude<T, { error: string }>;

/** The command an argv names, ready to run once the settings are read. */
export type Command =
  | { name: "help" }
  | { name: "version" }
  | { name: "serve" }
  | { name: "migrate" | "check-config" }
  | { name: "backup" | "restore"; file: string }
  | { name: "reports"; args: Parsed<ReturnType<typeof parseReportsArgs>> }
  | { name: "boards"; args: BoardsCommand }
  | { name: "import"; args: Parsed<ReturnType<typeof parseImportArgs>> };

/** The command argv names, or what is wrong with it (the line for standard error, exit code 2). */
export function parseCommand(argv: string[]): Command | { error: string } {
  const command = argv[0] ?? "serve";
  if (command === "--help" || command === "-h" || command === "help") return { name: "help" };
  if (command === "--version" || command === "-v") return { name: "version" };
  const withFile = command === "backup" || command === "restore";
  const reportsCommand = command === "reports" ? parseReportsArgs(argv.slice(1)) : undefined;
  const boardsCommand = command === "boards" ? parseBoardsArgs(argv.slice(1)) : undefined;
  const importCommand = command === "import" ? parseImportArgs(argv.slice(1)) : undefined;
  for (const parsed of [reportsCommand, boardsCommand, importCommand])
    if (parsed && "error" in parsed) return { error: `tally: ${parsed.error}\n` };
  if (
    !["serve", "migrate", "check-config", "reports", "boards", "backup", "restore", "import"].includes(command) ||
    (!["reports", "boards", "import"].includes(command) && argv.length > (withFile ? 2 : 1))
  )
    return { error: `tally: unknown command ${JSON.stringify(argv.join(" "))}. Run tally --help for the commands.\n` };
  if (withFile && !argv[1]) return { error: `tally: ${command} needs a file: tally ${command} <file>\n` };
  if (withFile) return { name: command, file: argv[1]! };
  if (reportsCommand) return { name: "reports", args: reportsCommand as Parsed<typeof reportsCommand> };
  if (boardsCommand) return { name: "boards", args: boardsCommand as BoardsCommand };
  if (importCommand) return { name: "import", args: importCommand as Parsed<typeof importCommand> };
  return command === "serve" ? { name: "serve" } : { name: command as "migrate" | "check-config" };
}
