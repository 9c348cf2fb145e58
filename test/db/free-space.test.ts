// The embedded database's floor of free disk space (EMBEDDED_MIN_FREE_MB, src/db/free-space.ts):
// under it every statement is refused before PGlite sees it, as storage_full, a transaction whose
// disk fills part-way leaves nothing, and the same handle serves again once there is room. The disk
// here is a number the test sets (the real disk is fault scenario 7's tmpfs, test/faults/disk-full.ts).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { connectEmbedded } from "../../src/db/connect-embedded.ts";
import { rows, type Database } from "../../src/db/database.ts";
import { isStorageFull } from "../../src/db/errors.ts";
import { StorageLow } from "../../src/db/free-space.ts";
import { loadConfig, envFor } from "../../src/config.ts";
import { testSeed } from "../support/db.ts";
import { tempDirs } from "../support/temp.ts";

setDefaultTimeout(60_000);
const tempDir = tempDirs("free-space");
const MiB = 2 ** 20;

describe("the embedded database under its floor of free disk space", () => {
  let database: Database;
  let dataDir: string;
  let free = 500 * MiB;
  const asked: string[] = [];

  beforeAll(async () => {
    const seed = await testSeed();
    dataDir = tempDir();
    database = await connectEmbedded(dataDir, {
      seed: async () => seed,
      freeSpace: {
        minFreeBytes: 64 * MiB,
        freeBytes: (dir) => {
          asked.push(dir);
          return free;
        },
      },
    });
    await database.db.execute(sql`create table filled (id int primary key)`);
  });
  afterAll(() => database?.close());

  const count = async () => (await rows<{ n: number }>(database.db, sql`select count(*)::int as n from filled`))[0]!.n;

  test("the disk it asks about is DATA_DIR's before a new database is unpacked, then the database's", () => {
    expect(asked[0]).toBe(dataDir);
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.slice(1).every((dir) => dir === `${dataDir}/pg`)).toBe(true);
  });

  test("under the floor a statement is refused as storage full, naming the free space and the setting", async () => {
    free = 63 * MiB;
    const refused = await database.db.execute(sql`insert into filled values (1)`).catch((e: unknown) => e);
    expect(isStorageFull(refused)).toBe(true);
    const low = [refused, (refused as { cause?: unknown }).cause].find((e) => e instanceof StorageLow) as StorageLow;
    expect(low).toBeInstanceOf(StorageLow);
    expect(low.message).toContain("63.0 MiB free");
    expect(low.message).toContain("EMBEDDED_MIN_FREE_MB (64 MiB)");
    // Reads too: in Postgres a read may write WAL (pruning a page), and WAL is what must not run out.
    expect(isStorageFull(await count().catch((e: unknown) => e))).toBe(true);
    free = 64 * MiB;
    expect(await count()).toBe(0);
  });

  test("a transaction is refused at its start, and one whose disk fills part-way leaves nothing", async () => {
    free = 10 * MiB;
    const atStart = await database.db
      .transaction(async (tx) => tx.execute(sql`insert into filled values (2)`))
      .catch((e: unknown) => e);
    expect(isStorageFull(atStart)).toBe(true);
    free = 500 * MiB;
    const partWay = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into filled values (3)`);
        free = 1 * MiB;
        await tx.execute(sql`insert into filled values (4)`);
      })
      .catch((e: unknown) => e);
    expect(isStorageFull(partWay)).toBe(true);
    free = 500 * MiB;
    expect(await count()).toBe(0);
  });

  test("once there is room again the same handle writes, with no restart", async () => {
    free = 2 * MiB;
    expect(isStorageFull(await database.db.execute(sql`insert into filled values (5)`).catch((e: unknown) => e))).toBe(
      true,
    );
    free = 200 * MiB;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into filled values (5)`);
      await tx.execute(sql`insert into filled values (6)`);
    });
    expect(await count()).toBe(2);
  });
});

describe("EMBEDDED_MIN_FREE_MB", () => {
  test("defaults to 64 MiB (four WAL files); 0 asks nothing of the disk", async () => {
    expect(loadConfig(envFor({})).embeddedMinFreeMb).toBe(64);
    let asked = 0;
    const seed = await testSeed();
    const database = await connectEmbedded(tempDir(), {
      seed: async () => seed,
      freeSpace: { minFreeBytes: 0, freeBytes: () => (asked++, 0) },
    });
    try {
      expect((await rows<{ one: number }>(database.db, sql`select 1 as one`))[0]!.one).toBe(1);
      expect(asked).toBe(0);
    } finally {
      await database.close();
    }
  });

  test("a new database is not unpacked onto a disk under the floor: the open fails saying so", async () => {
    const seed = await testSeed();
    const failed = await connectEmbedded(tempDir(), {
      seed: async () => seed,
      freeSpace: { minFreeBytes: 64 * MiB, freeBytes: () => 30 * MiB },
    }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(StorageLow);
    expect((failed as Error).message).toContain("30.0 MiB free");
  });
});

/** Postgres's own record of how the database was left (pg_control's state: 1 shut down, 6 in production). */
const controlState = (dataDir: string) => readFileSync(join(dataDir, "pg", "global", "pg_control")).readInt32LE(16);
const SHUT_DOWN = 1;
const IN_PRODUCTION = 6;

describe("closing the embedded database", () => {
  const open = async (dataDir: string, free: () => number) =>
    connectEmbedded(dataDir, {
      seed: testSeed,
      freeSpace: { minFreeBytes: 64 * MiB, freeBytes: free },
    });

  test("with room on the disk it closes cleanly, with its shutdown checkpoint", async () => {
    const dataDir = tempDir();
    const database = await open(dataDir, () => 500 * MiB);
    await database.db.execute(sql`create table kept (id int primary key)`);
    const said: string[] = [];
    await database.close((reason) => said.push(reason));
    expect(said).toEqual([]);
    expect(controlState(dataDir)).toBe(SHUT_DOWN);
  });

  test("under the floor it skips the checkpoint (which can hang), says so, and the next start has every write", async () => {
    const dataDir = tempDir();
    let free = 500 * MiB;
    const database = await open(dataDir, () => free);
    await database.db.execute(sql`create table kept (id int primary key)`);
    await database.db.execute(sql`insert into kept select generate_series(1, 100)`);
    free = 20 * MiB;
    const said: string[] = [];
    await database.close((reason) => said.push(reason));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("20.0 MiB free");
    expect(said[0]).toContain("without its shutdown checkpoint");
    // Left as a kill would leave it: Postgres recovers it from its WAL when it next opens.
    expect(controlState(dataDir)).toBe(IN_PRODUCTION);

    free = 500 * MiB;
    const again = await open(dataDir, () => free);
    try {
      expect((await rows<{ n: number }>(again.db, sql`select count(*)::int as n from kept`))[0]!.n).toBe(100);
    } finally {
      await again.close();
    }
    expect(controlState(dataDir)).toBe(SHUT_DOWN);
  });
});
