// Opens the database the settings name: Postgres over DATABASE_URL, else the embedded PGlite in
// DATA_DIR (locked against a second process; a new folder starts from the migrated seed when the
// binary carries one, so the first start needs no initdb).
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import postgres, { type Sql } from "postgres";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { type Config, EMBEDDED_SHARED_BUFFERS_MB } from "../config.ts";
import type { Database, Db } from "./database.ts";
import * as schema from "./schema.ts";
import { lockDataDir } from "./datadir-lock.ts";
import { makePrivateDir, makeTarPrivate, makeTreePrivate, privateUmask } from "./private-files.ts";
import { initdbAssets, pgliteAssets } from "./pglite-assets.ts";
import { guardedClient } from "./pool-guard.ts";
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

export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "****";
    return u.toString();
  } catch {
    return "(unparseable url)";
  }
}

/**
 * Seconds a pooled connection waits before connecting again after a failed attempt. postgres.js
 * counts failures across the whole pool and by default waits up to 20 s (3^n / 100), so a few
 * seconds of outage left every request waiting 10-20 s after Postgres was back. Capped at 1 s
 * (jittered, so several instances do not knock at once): while Postgres is down a request is
 * answered 503 within about a second, and once it is back the service serves within about one.
 */
const reconnectBackoff = (failures: number) => (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** failures, 1);

/**
 * drizzle's postgres.js adapter runs every statement unprepared (drizzle-orm issue 6096), which
 * postgres.js sends as two round trips (describe, then execute), and Postgres parses each twice.
 * The statements here are fixed texts (values travel as parameters and arrays), so each connection
 * prepares each text once. Transactions and savepoints hand out clients wrapped the same way.
 */
function preparingStatements<T extends Sql>(client: T): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "unsafe") {
        return (query: string, params?: unknown[], options?: object) =>
          target.unsafe(query, params as never, { ...options, prepare: true });
      }
      if (prop === "begin" || prop === "savepoint") {
        return (...args: unknown[]) => {
          const body = args.pop() as (tx: Sql) => unknown;
          return (value as (...a: unknown[]) => unknown).call(target, ...args, (tx: Sql) =>
            body(preparingStatements(tx)),
          );
        };
      }
      return value;
    },
  });
}

/** Waits on Postgres (pool-guard.ts): a free connection, and one round trip (also Postgres's statement_timeout). */
export type PostgresTimeouts = { acquireTimeoutMs: number; statementTimeoutMs: number };
const defaultTimeouts: PostgresTimeouts = { acquireTimeoutMs: 5000, statementTimeoutMs: 30_000 };

/** The caller waits this much longer than Postgres's own statement_timeout, so a live server's cancel is what it sees. */
const STATEMENT_GRACE_MS = 500;

export async function connectPostgres(
  url: string,
  poolMax: number,
  prepare = true,
  timeouts: PostgresTimeouts = defaultTimeouts,
): Promise<Database> {
  const client = postgres(url, {
    max: poolMax,
    onnotice: () => {},
    connect_timeout: 10,
    backoff: reconnectBackoff,
    // Prepared statements keep a plan for each parameter set (custom plans): a generic plan would
    // guess the size of an unnest'ed array, and uploads range from one row to thousands. Measured
    // (bench/ingest-cost.ts, live 600-row upload): planning is 1.7-1.8 ms of its 7.5 ms of Postgres
    // CPU; generic plans ("auto") planned in 0.6 ms but executed 0.3-0.6 ms slower, and a generic
    // plan sized for 10 rows may join 10 000 by nested loops. Kept.
    connection: {
      application_name: "tally",
      statement_timeout: timeouts.statementTimeoutMs,
      // No JIT: every statement here is short, and a plan priced high by a planner setting (a
      // forbidden nested loop costs 10^10) spent seconds compiling a one-row answer (issue 40).
      jit: "off",
      ...(prepare ? { plan_cache_mode: "force_custom_plan" } : {}),
    },
    // int8 as a JavaScript number, as PGlite answers it: every stored value is a safe integer
    // (contract 1.2), and both backends must fold to the same bytes.
    types: {
      int8: { to: 20, from: [20], parse: (x: string) => Number(x), serialize: (x: number | bigint) => String(x) },
    },
  });
  await client`select 1`; // fail at start, not on the first request
  const guarded = guardedClient(prepare ? preparingStatements(client) : client, {
    poolMax,
    acquireTimeoutMs: timeouts.acquireTimeoutMs,
    statementTimeoutMs: timeouts.statementTimeoutMs + STATEMENT_GRACE_MS,
  });
  return {
    db: drizzlePostgres(guarded, { schema }) as unknown as Db,
    kind: "postgres",
    where: maskUrl(url),
    close: () => client.end({ timeout: 5 }),
  };
}

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

export async function connect(config: Config, options: ConnectOptions = {}): Promise<Database> {
  if (!config.databaseUrl) {
    const embedded = { ...embeddedOptions(config), ...options };
    return options.inBackground ? startEmbedded(config.dataDir, embedded) : connectEmbedded(config.dataDir, embedded);
  }
  const timeouts = {
    acquireTimeoutMs: config.databaseAcquireTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
  };
  return connectPostgres(config.databaseUrl, config.databasePoolMax, config.databasePrepare, timeouts);
}
