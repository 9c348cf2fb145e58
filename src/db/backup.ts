// Backups of the embedded database (Postgres is backed up with its own tools, see the README).
// A backup is PGlite's dump of the data folder taken between statements after a checkpoint: a
// crash-consistent copy that Postgres recovers on open. While the service runs it holds the folder,
// so `tally backup` then asks it for the dump (GET /v1/admin/backup with ADMIN_TOKEN).
// A restore needs the service stopped: the tarball is checked, unpacked beside the data, swapped
// in, and the database it replaces is kept as pg.before-restore-<time>.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.ts";
import { connectEmbedded, embeddedOptions, unpackDatabase } from "./connect-embedded.ts";
import { lockDataDir, DataDirLockedError } from "./datadir-lock.ts";
import { migrate } from "./migrate.ts";

export class BackupError extends Error {
  override name = "BackupError";
}

/** The dump of DATA_DIR's database: taken directly, or from the running service that holds it. */
export async function takeBackup(config: Config, fetcher: typeof fetch = fetch): Promise<Blob> {
  if (config.databaseUrl)
    throw new BackupError("tally backup is for the embedded database; back up Postgres with pg_dump (see the README)");
  if (!existsSync(join(config.dataDir, "pg", "PG_VERSION")))
    throw new BackupError(`there is no database in DATA_DIR ${config.dataDir}`);
  try {
    const database = await connectEmbedded(config.dataDir, embeddedOptions(config));
    try {
      return await database.backup!();
    } finally {
      await database.close();
    }
  } catch (e) {
    if (!(e instanceof DataDirLockedError)) throw e;
  }
  if (!config.adminToken) {
    throw new BackupError(
      "the service is running on DATA_DIR: give this command the service's ADMIN_TOKEN so it can ask the service for the backup, or stop the service",
    );
  }
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  let res: Response;
  try {
    res = await fetcher(`http://${host}:${config.port}/v1/admin/backup`, {
      headers: { authorization: `Bearer ${config.adminToken}` },
    });
  } catch {
    throw new BackupError(
      `DATA_DIR is held by another process, but no tally answers on ${host}:${config.port} (check HOST and PORT)`,
    );
  }
  if (!res.ok) throw new BackupError(`the running service refused the backup (${res.status}): ${await res.text()}`);
  return res.blob();
}

/** Replaces DATA_DIR's database with a backup; answers where the previous one was kept. */
export async function restoreBackup(config: Config, tarball: Blob, now: number): Promise<{ previous: string | null }> {
  if (config.databaseUrl)
    throw new BackupError(
      "tally restore is for the embedded database; restore Postgres with its own tools (see the README)",
    );
  const release = lockDataDir(config.dataDir);
  const pgDir = join(config.dataDir, "pg");
  const previous = existsSync(pgDir)
    ? join(config.dataDir, `pg.before-restore-${new Date(now).toISOString().replace(/[:.]/g, "-")}`)
    : null;
  try {
    await unpackDatabase(pgDir, tarball, previous ?? undefined);
  } catch (e) {
    throw new BackupError(`the file is not a tally backup: ${(e as Error).message}`);
  } finally {
    release();
  }
  // It must open, and be brought to this binary's schema, before we call it restored.
  const database = await connectEmbedded(config.dataDir, embeddedOptions(config));
  try {
    await migrate(database.db);
  } finally {
    await database.close();
  }
  return { previous };
}
