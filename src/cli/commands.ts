// The commands beside serve: check-config, migrate, reports, boards, import, backup and restore.
// Each runs once against the settings and answers its exit code; what it prints goes to `out`, what
// went wrong to `err`.
import { describeConfig, type Config } from "../config.ts";
import type { Log } from "../log.ts";
import { systemClock } from "../clock.ts";
import { connect } from "../db/connect.ts";
import { migrate, markCreated } from "../db/migrate.ts";
import { loadCatalogue } from "../catalogue/load.ts";
import { loadBoards } from "../boards/definitions.ts";
import { runBoardsCommand } from "../boards/command.ts";
import { takeBackup, restoreBackup, BackupError } from "../db/backup.ts";
import { isMissingTable } from "../db/errors.ts";
import type { Db } from "../db/database.ts";
import { runReportsCommand } from "../reports/problems-list.ts";
import { runImportCommand } from "../stats/import-command.ts";
import type { UploadDone } from "../stats/ingest.ts";
import { scoresAfterUpload } from "../boards/scores.ts";
import { boardsPortable } from "../boards/portable.ts";
import { ApiError } from "../http/errors.ts";
import { writePrivateFile } from "../db/private-files.ts";
import { describeSwitchedOff } from "../capabilities.ts";
import type { Command } from "./parse.ts";
import type { MainOptions } from "./options.ts";

/** What a command runs with: the settings, the log, main's options, and where it writes. */
type Run = { config: Config; log: Log; options: MainOptions; out(text: string): void; err(text: string): void };

/** A command other than serve, help and version. */
export type OtherCommand = Exclude<Command, { name: "serve" | "help" | "version" }>;

/** Runs one command other than serve; returns the exit code. */
export function runCommand(command: OtherCommand, run: Run): Promise<number> {
  switch (command.name) {
    case "check-config":
      return checkConfig(run);
    case "migrate":
      return migrateCommand(run);
    case "reports":
      return reports(run, command.args);
    case "boards":
      return boards(run, command.args);
    case "import":
      return importFile(run, command.args);
    case "backup":
      return backup(run, command.file);
    case "restore":
      return restore(run, command.file);
  }
}

async function checkConfig({ config, out }: Run): Promise<number> {
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

async function migrateCommand({ config, options, out }: Run): Promise<number> {
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

/**
 * Connects, prints what `body` answers and closes; a database not migrated yet (`tables`: what it
 * lacks) is one line saying to migrate first, exit code 1.
 */
async function onDatabase(
  { config, options, out, err }: Run,
  tables: string,
  body: (db: Db) => Promise<string>,
): Promise<number> {
  const database = await connect(config, options);
  try {
    out(await body(database.db));
    return 0;
  } catch (e) {
    if (!isMissingTable(e)) throw e;
    err(`tally: this database has no ${tables} tables yet; run tally migrate (or tally serve) first\n`);
    return 1;
  } finally {
    await database.close();
  }
}

async function reports(run: Run, args: Extract<Command, { name: "reports" }>["args"]): Promise<number> {
  try {
    return await onDatabase(run, "bug-report", (db) =>
      runReportsCommand({ db, clock: systemClock, config: run.config }, args),
    );
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    run.err(`tally: ${e.message}\n`);
    return 1;
  }
}

function boards(run: Run, args: Extract<Command, { name: "boards" }>["args"]): Promise<number> {
  return onDatabase(run, "board", (db) => runBoardsCommand({ db, clock: systemClock }, args));
}

async function importFile(
  { config, log, options, out, err }: Run,
  args: Extract<Command, { name: "import" }>["args"],
): Promise<number> {
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
        {
          db: database.db,
          clock: systemClock,
          log,
          catalogue,
          config,
          afterUpload,
          boardsPart: boardsPortable(boards),
        },
        args,
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

async function backup({ config, out }: Run, file: string): Promise<number> {
  const tarball = await takeBackup(config);
  writePrivateFile(file, new Uint8Array(await tarball.arrayBuffer()));
  out(`wrote ${file} (${tarball.size} bytes): the embedded database in ${config.dataDir}\n`);
  return 0;
}

async function restore({ config, out }: Run, file: string): Promise<number> {
  const source = Bun.file(file);
  if (!(await source.exists())) throw new BackupError(`no such file: ${file}`);
  const { previous } = await restoreBackup(config, source, systemClock.now());
  out(
    `restored ${file} into ${config.dataDir}${previous ? `; the database it replaced is kept in ${previous}` : ""}\n`,
  );
  return 0;
}
