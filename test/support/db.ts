// A fresh database per test file: a new in-memory PGlite started from the migrated seed, or, when
// DATABASE_URL is set, a new Postgres database cloned from a migrated template and dropped after it.
import { renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { sql } from "drizzle-orm";
import { loadConfig } from "../../src/config.ts";
import { connectPostgres } from "../../src/db/connect-postgres.ts";
import { openPglite } from "../../src/db/connect-embedded.ts";
import { migrate } from "../../src/db/migrate.ts";
import { buildSeed } from "../../src/db/seed.ts";
import { migrations } from "../../src/db/migrations.gen.ts";
import * as schema from "../../src/db/schema.ts";
import { rows, type Database, type Db } from "../../src/db/database.ts";

/** The Postgres under test, or "" for the embedded database. */
export const postgresUrl = loadConfig().databaseUrl;
export const backend = postgresUrl ? "postgres" : "embedded";

let seed: Promise<Blob> | undefined;
let seedTar: Promise<Blob> | undefined;

const pgliteVersion = async (): Promise<string> =>
  (await Bun.file(join(import.meta.dir, "../../node_modules/@electric-sql/pglite/package.json")).json()).version;

/**
 * The database `build` makes, kept in the system's temporary folder as `name` and read from there
 * after the first time. Written aside and renamed: workers of a parallel run may build it at once,
 * and a reader must never see half a file.
 */
async function cachedOnDisk(name: string, type: string, build: () => Promise<Blob>): Promise<Blob> {
  const file = Bun.file(join(tmpdir(), name));
  if (await file.exists()) return new Blob([await file.arrayBuffer()], { type });
  const blob = await build();
  const aside = `${file.name}.${process.pid}.tmp`;
  await Bun.write(aside, blob);
  renameSync(aside, file.name!);
  return new Blob([await blob.arrayBuffer()], { type });
}

/** The migrated seed, built once and cached on disk by migrations and PGlite version. */
export function testSeed(): Promise<Blob> {
  seed ??= (async () => {
    const key = new Bun.CryptoHasher("sha256")
      .update((await pgliteVersion()) + JSON.stringify(migrations))
      .digest("hex")
      .slice(0, 16);
    return cachedOnDisk(`tally-test-seed-${key}.tgz`, "", buildSeed);
  })();
  return seed;
}

/**
 * The seed unpacked once per process: PGlite reads a plain tarball straight away, where the gzip
 * one was first tried as a plain tarball, then inflated again for every database (about a third of
 * the 250 ms of CPU a new in-memory database costs).
 */
function testSeedTar(): Promise<Blob> {
  seedTar ??= testSeed().then(
    async (gz) => new Blob([Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer()))], { type: "application/x-tar" }),
  );
  return seedTar;
}

export function databaseUrlFor(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * An empty Postgres database, dropped by the returned function; with `template`, a copy of that
 * database instead (it must have no connection open).
 */
export async function createPostgresDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tally_t_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(postgresUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"${template ? ` template "${template}"` : ""}`);
  await admin.end();
  return {
    url: databaseUrlFor(postgresUrl, name),
    async drop() {
      const a = postgres(postgresUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}

/** The environment variable naming a migrated template database made by the run (scripts/test.ts). */
export const TEMPLATE_ENV = "TALLY_TEST_PG_TEMPLATE";

let template: Promise<string> | undefined;
let ownTemplate: { drop(): Promise<void> } | undefined;

/**
 * A migrated Postgres database, left with no connection open, to clone test databases from:
 * `create database ... template` copies it in a fraction of the time every migration takes on an
 * empty database. `bun run test` makes one for the whole run (its name in TALLY_TEST_PG_TEMPLATE);
 * a plain `bun test` makes one for its process, dropped after its last file (preload.ts).
 */
export async function makePostgresTemplate(): Promise<{ name: string; drop(): Promise<void> }> {
  const created = await createPostgresDatabase();
  try {
    const database = await connectPostgres(created.url, 1);
    try {
      await migrate(database.db);
    } finally {
      await database.close();
    }
  } catch (error) {
    await created.drop();
    throw error;
  }
  return { name: new URL(created.url).pathname.slice(1), drop: created.drop };
}

function postgresTemplate(): Promise<string> {
  template ??= (async () => {
    const given = process.env[TEMPLATE_ENV];
    if (given) return given;
    const made = await makePostgresTemplate();
    ownTemplate = made;
    return made.name;
  })();
  return template;
}

/** Drops of closed test databases still under way: awaited after the process's last file. */
const drops = new Set<Promise<void>>();
const failedDrops: unknown[] = [];

/** After the last file (preload.ts): the drops under way finish, and this process's own template goes. */
export async function dropLeftovers() {
  await Promise.all(drops);
  await ownTemplate?.drop();
  ownTemplate = undefined;
  template = undefined;
  if (failedDrops.length) throw new Error(`${failedDrops.length} test databases were not dropped: ${failedDrops[0]}`);
}

/**
 * A fresh, migrated database for one test file. `dataDir`: the embedded database in that folder, on
 * disk as the binary keeps it (benchmarks: in memory, PGlite copies a growing file whole each time it
 * outgrows its buffer, a cost the binary never pays), instead of in memory. `backend: "embedded"`:
 * the embedded database even when DATABASE_URL names a Postgres (a test of two instances, one each).
 */
export async function testDatabase(dataDir?: string, backend?: "embedded"): Promise<Database> {
  if (postgresUrl && backend !== "embedded") {
    const created = await createPostgresDatabase(await postgresTemplate());
    const database = await connectPostgres(created.url, 5);
    // The clone is current: this applies nothing, and fails loudly if the template were not.
    await migrate(database.db);
    return {
      ...database,
      // Closed at once; the drop (a few hundred ms, waiting on the server) goes on while the next
      // file runs, and the process waits for it after its last file.
      close: async () => {
        await database.close();
        const drop: Promise<void> = created
          .drop()
          .catch((error) => void failedDrops.push(error))
          .finally(() => drops.delete(drop));
        drops.add(drop);
      },
    };
  }
  if (dataDir) await seedDataDir(dataDir);
  const client = dataDir ? await openPglite(join(dataDir, "pg")) : await openPglite(undefined, await testSeedTar());
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    kind: "embedded",
    where: dataDir ?? "memory",
    close: () => client.close(),
  };
}

/** Unpacks the migrated seed as DATA_DIR/pg, as the binary does for a new folder. */
export async function seedDataDir(dataDir: string) {
  await new Bun.Archive(await (await testSeed()).arrayBuffer()).extract(join(dataDir, "pg"));
}

let emptySeed: Promise<Blob> | undefined;

/**
 * A new embedded database as initdb leaves it, kept on disk by PGlite version: initdb cost 2-3 s of
 * CPU a database, loading its copy about 0.5 s (the migration tests open four).
 */
function testEmptySeed(): Promise<Blob> {
  emptySeed ??= (async () =>
    cachedOnDisk(`tally-test-empty-${await pgliteVersion()}.tar`, "application/x-tar", async () => {
      const client = await openPglite(undefined);
      try {
        await client.query("checkpoint");
        return await client.dumpDataDir("none");
      } finally {
        await client.close();
      }
    }))();
  return emptySeed;
}

/** An unmigrated, empty database (migration tests). */
export async function emptyDatabase(): Promise<Database> {
  if (postgresUrl) {
    const created = await createPostgresDatabase();
    const database = await connectPostgres(created.url, 5);
    return { ...database, close: async () => (await database.close(), await created.drop()) };
  }
  const client = await openPglite(undefined, await testEmptySeed());
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    kind: "embedded",
    where: "memory",
    close: () => client.close(),
  };
}

/**
 * Empties every table but the migrations' history, so a database shared by a file's tests is as a
 * new one for the next test (the migrated seed holds no other row): a new database costs about
 * 400 ms of CPU, emptying one a few ms. For a file of many small tests that each want a fresh service.
 */
export async function emptyTables(db: Db) {
  const tables = await rows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'tally_migrations'`,
  );
  await db.execute(sql.raw(`truncate ${tables.map((t) => `"${t.name}"`).join(", ")} restart identity cascade`));
}
