// The one database handle every module receives: a Drizzle client over postgres.js or PGlite.
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import type * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: "postgres" | "embedded";
  /** Where the data lives, for logs: a masked URL or the data folder. */
  where: string;
  /** Closes; `unclean` hears why when it could not close cleanly (the embedded database under its floor of free space). */
  close(unclean?: (reason: string) => void): Promise<void>;
  /** Embedded only: a crash-consistent gzip tarball of the data folder, taken between statements. */
  backup?: () => Promise<Blob>;
  /** Embedded, opened in the background (ConnectOptions.inBackground): settles once it has opened or failed. */
  opened?: Promise<void>;
};

/** Runs a raw statement and returns its rows, whichever driver answers (postgres.js or PGlite). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** True on the embedded PGlite: one connection, one process (DATA_DIR is flocked). */
export function isEmbedded(db: Db): boolean {
  const client = (db as unknown as { $client?: { dumpDataDir?: unknown } }).$client;
  return typeof client?.dumpDataDir === "function";
}
