// The embedded database (PGlite) in DATA_DIR: locked against a second process, a new folder started
// from the migrated seed when the binary carries one (so the first start needs no initdb), opened in
// the background when asked, refused statements while the disk is nearly full.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { type Config, EMBEDDED_SHARED_BUFFERS_MB } from "../config.ts";
import type { Database, Db } from "./database.ts";
import * as schema from "./schema.ts";
import { lockDataDir } from "./datadir-lock.ts";
import { makePrivateDir, makeTarPrivate, makeTreePrivate, privateUmask } from "./private-files.ts";
import { initdbAssets, pgliteAssets } from "./pglite-assets.ts";
import { type FreeSpace, freeSpaceCheck, storageLow } from "./free-space.ts";

export type ConnectOptions = {
  /** A tarball of an initialised database (PGlite dumpDataDir) to start a new folder from. */
  seed?: () => Promise<Blob | undefined>;
  /** The embedded database's shared_buffers (EMBEDDED_SHARED_BUFFERS_MB). */
  sharedBuffersMb?: number;
  /**
   * The embedded database: answer once the folder is locked, and open it meanwhile (statements
   * wait for it; `opened` settles when it has). Postgres is connected before connect answers.
   */
  inBackground?: boolean;
  /** The embedded database: the free disk space under which it takes no statement (EMBEDDED_MIN_FREE_MB; default none). */
  freeSpace?: FreeSpace;
};

/**
 * Postgres settings of the embedded database, for memory: one process talks to it in single-user
 * mode, and its shared memory is written whole at start, so each MiB here is a resident MiB.
 * shared_buffers (Postgres's default 128 MB, over half the process) is EMBEDDED_SHARED_BUFFERS_MB;
 * the per-connection and wal-sender slots, sized for 100 connections, hold 1. work_mem stays 4 MB:
 * the wasm heap never shrinks, so a larger sort would stay resident.
 */
export function embeddedStartParams(sharedBuffersMb: number): string[] {
  const settings = [
    `shared_buffers=${sharedBuffersMb}MB`,
    "max_connections=4",
    "autovacuum_worker_slots=1",
    "max_wal_senders=0",
  ];
  return [...PGlite.defaultStartParams, ...settings.flatMap((s) => ["-c", s])];
}

/** An embedded database: in a folder when dataDir is given, else in memory (tests). */
export async function openPglite(
  dataDir: string | undefined,
  seed?: Blob,
  sharedBuffersMb = EMBEDDED_SHARED_BUFFERS_MB,
): Promise<PGlite> {
  const assets = await pgliteAssets();
  // initdb runs only when there is neither a seed nor a database in the folder.
  const needsInitdb = !seed && !(dataDir && existsSync(join(dataDir, "PG_VERSION")));
  return PGlite.create({
    ...assets,
    ...(needsInitdb ? { initdbWasmModule: await initdbAssets() } : {}),
    dataDir,
    loadDataDir: seed,
    relaxedDurability: false,
    startParams: embeddedStartParams(sharedBuffersMb),
  });
}

/**
 * Fills the folder from a tarball of a database (the seed, or a backup being restored): extracted
 * natively next to it, then renamed into place, so a crash part-way leaves no half database. The
 * wasm compiles meanwhile. `keepPreviousAs` moves the database it replaces aside instead of
 * deleting it.
 */
export async function unpackDatabase(pgDir: string, tarball: Blob, keepPreviousAs?: string) {
  const partial = `${pgDir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    await Promise.all([new Bun.Archive(await tarball.arrayBuffer()).extract(partial), pgliteAssets()]);
    if (!existsSync(join(partial, "PG_VERSION")))
      throw new Error("the tarball holds no database (PG_VERSION is missing)");
    // The archive's own modes (0666 in PGlite's dumps) never reach the disk.
    makeTreePrivate(partial);
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  }
  if (keepPreviousAs && existsSync(pgDir)) renameSync(pgDir, keepPreviousAs);
  else rmSync(pgDir, { recursive: true, force: true });
  renameSync(partial, pgDir);
}

/** The service's own entries in DATA_DIR: the database, databases kept by a restore, the lock. */
const ownEntry = (name: string) => name === "pg" || name.startsWith("pg.") || name === "tally.lock";

/**
 * drizzle's PGlite session sends every statement through `query` and `transaction` (and, inside
 * one, the transaction's `query`); until the database has opened, each waits for it here, as
 * PGlite's own methods wait for it to be ready. Each statement first passes `check` (the free-space
 * floor, free-space.ts). `dumpDataDir` marks the handle as the embedded database (isEmbedded).
 */
function whenOpen(opening: Promise<PGlite>, check: () => void) {
  const checked = (tx: Transaction): Transaction =>
    new Proxy(tx, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== "query") return value;
        return (...args: Parameters<Transaction["query"]>) => {
          check();
          return target.query(...args);
        };
      },
    });
  return {
    query: async (...args: Parameters<PGlite["query"]>) => {
      const client = await opening;
      check();
      return client.query(...args);
    },
    transaction: async <T>(callback: (tx: Transaction) => Promise<T>) => {
      const client = await opening;
      check();
      return client.transaction((tx) => callback(checked(tx)));
    },
    dumpDataDir: async (compression?: "none" | "gzip" | "auto") => (await opening).dumpDataDir(compression),
  };
}

/**
 * The embedded database in `dataDir`, opened in the background: the folder is locked and checked
 * before this returns, the rest (a new folder's seed, then PGlite) goes on while the caller does
 * other work, and statements wait for it. `opened` settles when it has opened or failed.
 */
export function startEmbedded(dataDir: string, options: ConnectOptions = {}): Database & { opened: Promise<void> } {
  privateUmask();
  makePrivateDir(dataDir);
  const release = lockDataDir(dataDir);
  const pgDir = join(dataDir, "pg");
  const fresh = !existsSync(join(pgDir, "PG_VERSION"));
  if (fresh && existsSync(pgDir) && readdirSync(pgDir).length > 0) {
    release();
    throw new Error(`${pgDir} holds files but no database (PG_VERSION is missing); move it away and start again`);
  }
  // Whatever an older version, an archive or PGlite's start left: folders 0700, files 0600. (PGlite's
  // wasm file system applies its own umask, 022: files it makes while running are guarded by
  // their 0700 folders, and made 0600 again when the database closes.)
  const makePrivate = () => {
    for (const name of readdirSync(dataDir)) if (ownEntry(name)) makeTreePrivate(join(dataDir, name));
  };
  const floor = options.freeSpace ?? { minFreeBytes: 0 };
  const opening = (async () => {
    const seed = fresh ? await options.seed?.() : undefined;
    if (seed) {
      // A new database takes some 40 MB: on a disk under the floor, say so rather than fail part-way.
      freeSpaceCheck(dataDir, floor)();
      await unpackDatabase(pgDir, seed);
    } else mkdirSync(pgDir, { recursive: true });
    const client = await openPglite(pgDir, undefined, options.sharedBuffersMb);
    makePrivate();
    return client;
  })();
  // A failed open ends the lock; the error reaches whoever awaits `opened` or sends a statement.
  const opened = opening.then(
    () => {},
    (e) => {
      release();
      throw e;
    },
  );
  opened.catch(() => {});
  const check = freeSpaceCheck(pgDir, floor);
  return {
    db: drizzlePglite({ client: whenOpen(opening, check) as unknown as PGlite, schema }) as unknown as Db,
    kind: "embedded",
    where: pgDir,
    opened,
    backup: async () => {
      const client = await opening;
      check();
      await client.query("checkpoint");
      const tar = new Uint8Array(await (await client.dumpDataDir("none")).arrayBuffer());
      makeTarPrivate(tar);
      return new Response(new Blob([tar]).stream().pipeThrough(new CompressionStream("gzip"))).blob();
    },
    close: async (unclean) => {
      const client = await opening.catch(() => undefined);
      if (!client) return; // the failed open released the lock
      try {
        // Postgres's shutdown checkpoint is a write like any other: under the floor it may need a
        // new WAL file and hang the same way (free-space.ts). The database is left as a kill would
        // leave it instead; the next start replays its WAL, where every committed write is.
        const low = storageLow(check);
        if (low)
          unclean?.(`${low.message}; closed without its shutdown checkpoint, the next start recovers it from its WAL`);
        else await client.close();
        makePrivate();
      } finally {
        release();
      }
    },
  };
}

/** The embedded database's settings: its page cache and its floor of free disk space. */
export function embeddedOptions(config: Config): ConnectOptions {
  return {
    sharedBuffersMb: config.embeddedSharedBuffersMb,
    freeSpace: { minFreeBytes: config.embeddedMinFreeMb * 2 ** 20 },
  };
}

/** The embedded database in `dataDir`, once it has opened. */
export async function connectEmbedded(dataDir: string, options: ConnectOptions = {}): Promise<Database> {
  const database = startEmbedded(dataDir, options);
  await database.opened;
  return database;
}
