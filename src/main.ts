// The command line: serve (default), migrate, check-config, reports, boards, backup, restore, import,
// --help, --version. The words are parsed in cli/parse.ts (with the help text), serve is
// cli/serve.ts, the other commands cli/commands.ts; here they are tied together, and a fault at
// start-up becomes one line and exit code 1.
import { loadConfig, ConfigError, type Config } from "./config.ts";
import { createLog } from "./log.ts";
import { CatalogueError } from "./catalogue/load.ts";
import { BoardsError } from "./boards/definitions.ts";
import { isCannotConnect } from "./db/errors.ts";
import { VERSION } from "./version.ts";
import { startEarly } from "./early.ts";
import { parseCommand, usage } from "./cli/parse.ts";
import { serve } from "./cli/serve.ts";
import { runCommand } from "./cli/commands.ts";
import type { MainOptions } from "./cli/options.ts";

export type { MainOptions } from "./cli/options.ts";

function startupFault(e: unknown): string | undefined {
  if (e instanceof ConfigError || e instanceof CatalogueError || e instanceof BoardsError) return e.message;
  const name = (e as Error)?.name;
  if (name === "DataDirLockedError" || name === "MigrationError" || name === "BackupError") return (e as Error).message;
  if (isCannotConnect(e)) return `cannot connect to DATABASE_URL: ${(e as Error).message}`;
  if ((e as { code?: string })?.code === "EADDRINUSE") {
    return `cannot listen: the port is already in use (${(e as Error).message}); set PORT to another one (PORT=0 picks a free one)`;
  }
  return undefined;
}

/** Runs one command; returns the exit code. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const out = options.out ?? ((t: string) => process.stdout.write(t));
  const err = options.err ?? ((t: string) => process.stderr.write(t));
  const command = parseCommand(argv);
  if ("error" in command) {
    err(command.error);
    return 2;
  }
  if (command.name === "help") {
    out(usage());
    return 0;
  }
  if (command.name === "version") {
    out(`tally ${VERSION}\n`);
    return 0;
  }
  let config: Config;
  try {
    config = loadConfig(options.env);
  } catch (e) {
    err(`tally: ${(e as Error).message}\nRun tally --help for every setting and what it accepts.\n`);
    return 2;
  }
  const log = createLog({ level: config.logLevel, write: options.logWrite });
  try {
    if (command.name === "serve") return await serve(config, log, options);
    return await runCommand(command, { config, log, options, out, err });
  } catch (e) {
    const fault = startupFault(e);
    if (fault) {
      err(`tally: ${fault}\n`);
      return 1;
    }
    log.error("start-up failed", { error: e });
    return 1;
  }
}

if (import.meta.main) {
  startEarly(process.argv.slice(2)); // the compiled binary's entry calls it before this module loads
  process.exit(await main(process.argv.slice(2)));
}
