// The command line: serve (default), migrate, check-config, --help, --version.
import { loadConfig, describeConfig, settingsHelp, ConfigError, type Config } from "./config.ts";
import { createLog, type Log } from "./log.ts";
import { systemClock } from "./clock.ts";
import { connect } from "./db/connect.ts";
import type { ConnectOptions } from "./db/connect-embedded.ts";
import { migrate, markCreated } from "./db/migrate.ts";
import { loadCatalogue, CatalogueError } from "./catalogue/load.ts";
import { loadBoards, BoardsError } from "./boards/definitions.ts";
import { parseBoardsArgs, runBoardsCommand, type BoardsCommand } from "./boards/command.ts";
import { createApp } from "./app.ts";
import { createMetrics, countedFetch } from "./metrics/metrics.ts";
import { takeBackup, restoreBackup, BackupError } from "./db/backup.ts";
import { isCannotConnect, isMissingTable } from "./db/errors.ts";
import { listen, type Listening } from "./http/serve.ts";
import { VERSION } from "./version.ts";
import { createScheduler, type Scheduler } from "./jobs/scheduler.ts";
import { jobLockFor, jobLocksHeld } from "./jobs/job-lock.ts";
import { serviceJobs } from "./jobs/jobs.ts";
import { parseReportsArgs, runReportsCommand } from "./reports/problems-list.ts";
import { parseImportArgs, runImportCommand } from "./stats/import-command.ts";
import type { UploadDone } from "./stats/ingest.ts";
import { scoresAfterUpload } from "./boards/scores.ts";
import { ApiError } from "./http/errors.ts";
import { openToOthers, writePrivateFile } from "./db/private-files.ts";
import { startEarly } from "./early.ts";
import { capabilities, describeSwitchedOff } from "./capabilities.ts";

/** Bun's transport ceiling on a request body, as a multiple of MAX_BODY_BYTES (docs/decisions.md). */
const TRANSPORT_CEILING_FACTOR = 4;

export type MainOptions = ConnectOptions & {
  env?: Record<string, string | undefined>;
  out?: (text: string) => void;
  err?: (text: string) => void;
  /** Resolves when the server should stop (tests); by default SIGTERM or SIGINT. */
  stopSignal?: Promise<unknown>;
  /** Where log lines go (standard output by default). */
  logWrite?: (line: string) => void;
  /** Called once the server listens, with its address. */
  onListening?: (url: string) => void;
};

const usage = () => `tally ${VERSION}: the statistics service of the mod (API, website, image proxy, scheduler).

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

function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string) => () => resolve(signal);
    process.once("SIGTERM", on("SIGTERM"));
    process.once("SIGINT", on("SIGINT"));
  });
}

async function serve(config: Config, log: Log, options: MainOptions): Promise<number> {
  const started = performance.now();
  if (config.devSignin)
    log.warn("DEV_SIGNIN is on: anyone can sign in as anyone through POST /v1/auth/dev. Never use it in production.");
  const phases: Record<string, number> = { process: Math.round(started) };
  const mark = (phase: string, since: number) => (phases[phase] = Math.round(performance.now() - since));
  let t = performance.now();
  const catalogue = await loadCatalogue(config.catalogueFile);
  const boards = await loadBoards(config.boardsFile, catalogue);
  mark("catalogue", t);
  t = performance.now();
  // The embedded database opens in the background (its wasm compiles on another thread) while the
  // app is built; statements, the migrations first, wait for it.
  const database = await connect(config, { ...options, inBackground: true });
  mark("connect", t);
  let listening: Listening;
  let scheduler: Scheduler | undefined;
  const stopping = new AbortController();
  try {
    if (database.kind === "embedded") {
      const open = openToOthers(config.dataDir);
      if (open) log.warn(open);
    }
    t = performance.now();
    const metrics = createMetrics();
    const upstreams = {
      game_api: config.gameApiUrl,
      identity: config.identityUrl,
      names: config.namesUrl,
      textures: config.texturesUrl,
      item_images: config.itemImagesUrl,
      chat: config.chatWebhookUrl,
    };
    const deps = {
      db: database.db,
      config,
      clock: systemClock,
      fetch: countedFetch(globalThis.fetch, metrics, upstreams),
      log,
      catalogue,
      boards,
      metrics,
      backup: database.backup,
      stopping: stopping.signal,
    };
    const app = createApp(deps);
    mark("app", t);
    t = performance.now();
    await database.opened;
    mark("database", t);
    t = performance.now();
    const applied = await migrate(database.db);
    await markCreated(database.db, systemClock);
    mark("migrate", t);
    if (applied.length) log.info("migrations applied", { applied });
    t = performance.now();
    listening = listen(app, {
      host: config.host,
      port: config.port,
      graceMs: config.shutdownGraceMs,
      log,
      // Bun's own refusal (an empty 413, before any handler) only for bodies far over the cap, so a body
      // just over it still gets the coded 413 body_too_large from the route's reader.
      maxBodyBytes: Math.max(config.maxBodyBytes * TRANSPORT_CEILING_FACTOR, config.importMaxWireBytes),
    });
    scheduler = createScheduler({
      log,
      lock: jobLockFor(database.kind, database.db, jobLocksHeld(config.databasePoolMax)),
      jobs: serviceJobs(deps),
      metrics,
      startDelayMs: config.jobStartDelayMs,
    });
    mark("listen", t);
    log.info("listening", {
      url: listening.url,
      database: database.kind,
      where: database.where,
      catalogueVersion: catalogue.version,
      version: VERSION,
      startupMs: Math.round(performance.now()),
      phasesMs: phases,
    });
    logSwitchedOff(config, log);
    options.onListening?.(listening.url);
    scheduler.start();
  } catch (e) {
    await scheduler?.stop();
    await database.close();
    throw e;
  }
  const reason = String(await (options.stopSignal ?? waitForSignal()));
  // Work waiting its turn (page renders) is refused from now on; what runs finishes within the grace.
  stopping.abort();
  // Jobs finish their current step while requests drain; the database closes after both.
  await Promise.all([listening.stop(reason), scheduler.stop()]);
  await database.close((reason) => log.warn("database left for recovery at the next start", { reason }));
  log.info("stopped");
  return 0;
}

/** One line naming each optional capability that is off and the setting that turns it on. */
function logSwitchedOff(config: Config, log: Log) {
  const off = capabilities(config).filter((c) => !c.on);
  if (!off.length) return log.info("nothing optional is switched off");
  log.info(`switched off: ${off.map((c) => `${c.name} (${c.turnOn})`).join("; ")}`, {
    off: off.map(({ name, turnOn, whileOff }) => ({ name, turnOn, whileOff })),
  });
}

/** Runs one command; returns the exit code. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const out = options.out ?? ((t: string) => process.stdout.write(t));
  const err = options.err ?? ((t: string) => process.stderr.write(t));
  const command = argv[0] ?? "serve";
  if (command === "--help" || command === "-h" || command === "help") {
    out(usage());
    return 0;
  }
  if (command === "--version" || command === "-v") {
    out(`tally ${VERSION}\n`);
    return 0;
  }
  const withFile = command === "backup" || command === "restore";
  const reportsCommand = command === "reports" ? parseReportsArgs(argv.slice(1)) : undefined;
  const boardsCommand = command === "boards" ? parseBoardsArgs(argv.slice(1)) : undefined;
  const importCommand = command === "import" ? parseImportArgs(argv.slice(1)) : undefined;
  for (const parsed of [reportsCommand, boardsCommand, importCommand])
    if (parsed && "error" in parsed) {
      err(`tally: ${parsed.error}\n`);
      return 2;
    }
  if (
    !["serve", "migrate", "check-config", "reports", "boards", "backup", "restore", "import"].includes(command) ||
    (!["reports", "boards", "import"].includes(command) && argv.length > (withFile ? 2 : 1))
  ) {
    err(`tally: unknown command ${JSON.stringify(argv.join(" "))}. Run tally --help for the commands.\n`);
    return 2;
  }
  if (withFile && !argv[1]) {
    err(`tally: ${command} needs a file: tally ${command} <file>\n`);
    return 2;
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
    if (command === "check-config") {
      const catalogue = await loadCatalogue(config.catalogueFile);
      await loadBoards(config.boardsFile, catalogue);
      const off = describeSwitchedOff(config);
      out(
        `settings are valid (catalogue version ${catalogue.version}):\n${describeConfig(config)
          .map((l) => `  ${l}`)
          .join("\n")}\n` +
          (off.length
            ? `switched off (${off.length}):\n${off.map((l) => `  ${l}`).join("\n")}\n`
            : "nothing optional is switched off\n"),
      );
      return 0;
    }
    if (command === "migrate") {
      const database = await connect(config, options);
      try {
        const applied = await migrate(database.db);
        await markCreated(database.db, systemClock);
        out(
          applied.length
            ? `applied ${applied.length} migration(s): ${applied.join(", ")}\n`
            : "the database is up to date\n",
        );
      } finally {
        await database.close();
      }
      return 0;
    }
    if (command === "reports") {
      const database = await connect(config, options);
      try {
        out(
          await runReportsCommand(
            { db: database.db, clock: systemClock, config },
            reportsCommand as Exclude<typeof reportsCommand, { error: string } | undefined>,
          ),
        );
      } catch (e) {
        if (e instanceof ApiError) {
          err(`tally: ${e.message}
`);
          return 1;
        }
        if (!isMissingTable(e)) throw e;
        err("tally: this database has no bug-report tables yet; run tally migrate (or tally serve) first\n");
        return 1;
      } finally {
        await database.close();
      }
      return 0;
    }
    if (command === "boards") {
      const database = await connect(config, options);
      try {
        out(await runBoardsCommand({ db: database.db, clock: systemClock }, boardsCommand as BoardsCommand));
      } catch (e) {
        if (!isMissingTable(e)) throw e;
        err("tally: this database has no board tables yet; run tally migrate (or tally serve) first\n");
        return 1;
      } finally {
        await database.close();
      }
      return 0;
    }
    if (command === "import") {
      const database = await connect(config, options);
      try {
        await migrate(database.db);
        const catalogue = await loadCatalogue(config.catalogueFile);
        const boards = await loadBoards(config.boardsFile, catalogue);
        // The boards' scores move after an import as after an upload.
        const afterUpload = (upload: UploadDone) =>
          scoresAfterUpload({ db: database.db, clock: systemClock, catalogue, boards }, upload);
        out(
          await runImportCommand(
            { db: database.db, clock: systemClock, log, catalogue, config, afterUpload },
            importCommand as Exclude<typeof importCommand, { error: string } | undefined>,
            err,
          ),
        );
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        err(`tally: ${e.code}: ${e.message}${e.path ? ` (at ${e.path})` : ""}\n`);
        return 1;
      } finally {
        await database.close();
      }
      return 0;
    }
    if (command === "backup") {
      const tarball = await takeBackup(config);
      writePrivateFile(argv[1]!, new Uint8Array(await tarball.arrayBuffer()));
      out(`wrote ${argv[1]} (${tarball.size} bytes): the embedded database in ${config.dataDir}\n`);
      return 0;
    }
    if (command === "restore") {
      const file = Bun.file(argv[1]!);
      if (!(await file.exists())) throw new BackupError(`no such file: ${argv[1]}`);
      const { previous } = await restoreBackup(config, file, systemClock.now());
      out(
        `restored ${argv[1]} into ${config.dataDir}${previous ? `; the database it replaced is kept in ${previous}` : ""}\n`,
      );
      return 0;
    }
    return await serve(config, log, options);
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
