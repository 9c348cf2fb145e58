// The one database handle every module receives: a Drizzle client over postgres.js or PGlite.
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql, type SQL } from "drizzle-orm";
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

/**
 * Waits for a turn of the event loop (a macrotask), so the requests that arrived meanwhile are read
 * and served. Awaiting a database answer is not enough: on the embedded database a statement runs
 * on this thread and its answer comes back as a microtask, so a chain of statements alone never
 * lets the server read another socket.
 */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs independent reads of one request, each given the handle to read through: at once on
 * Postgres (each on a pooled connection of its own, in a transaction whose statements Postgres
 * cancels past `timeoutMs`: a page's read never holds a connection longer); on the embedded
 * database, whose statements run one at a time on this thread anyway, one after another with a
 * turn of the event loop between them, so a request arriving meanwhile waits behind one of them,
 * not all (issue 40). PGlite cannot cancel a running statement: there a read's cost is bounded by
 * what it reads, not by a timeout.
 */
export async function readsOf<T extends unknown[]>(
  db: Db,
  timeoutMs: number,
  ...reads: { [K in keyof T]: (db: Db) => Promise<T[K]> }
): Promise<T> {
  if (!isEmbedded(db))
    return (await Promise.all(
      reads.map((read) =>
        timeoutMs > 0
          ? db.transaction(async (tx) => {
              await tx.execute(sql`select set_config('statement_timeout', ${String(timeoutMs)}, true)`);
              return read(tx);
            })
          : read(db),
      ),
    )) as T;
  const out: unknown[] = [];
  for (const read of reads) {
    out.push(await read(db));
    await nextTurn();
  }
  return out as T;
}
