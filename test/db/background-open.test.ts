// The embedded database opens in the background (issue 15: the service builds its app while PGlite's
// wasm compiles): the folder is locked before startEmbedded returns, statements sent meanwhile wait
// for the open and answer, and a database that cannot open fails every waiter and frees the folder.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { startEmbedded } from "../../src/db/connect-embedded.ts";
import { rows } from "../../src/db/database.ts";
import { DataDirLockedError, lockDataDir } from "../../src/db/datadir-lock.ts";
import { testSeed } from "../support/db.ts";
import { tempDirs } from "../support/temp.ts";

setDefaultTimeout(60_000);
const tempDir = tempDirs("background-open");

describe("the embedded database opened in the background", () => {
  test("the folder is locked at once; a statement sent before the open waits for it and answers", async () => {
    const dir = tempDir();
    const seed = await testSeed();
    const database = startEmbedded(dir, { seed: async () => seed });
    try {
      // Locked before anything was awaited: a second opener is refused now, not after the open.
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      let opened = false;
      void database.opened.then(() => (opened = true));
      const answer = rows<{ n: number }>(database.db, sql`select count(*)::int as n from tally_migrations`);
      expect(opened).toBe(false);
      const [found] = await answer;
      expect(opened).toBe(true);
      expect(found!.n).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
    // Closed: the folder is free again.
    lockDataDir(dir)();
  });

  test("a database that cannot open fails `opened` and every statement, and frees the folder", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "pg"), { recursive: true });
    writeFileSync(join(dir, "pg", "PG_VERSION"), "99\n"); // a database of a Postgres that does not exist
    const database = startEmbedded(dir);
    const failure = (e: Error) => e.message;
    const statement = rows(database.db, sql`select 1`).then(() => "answered", failure);
    expect(await database.opened.then(() => "opened", failure)).toMatch(/failed to initialize/);
    expect(await statement).toMatch(/^Failed query: select 1/);
    lockDataDir(dir)(); // the failed open released the lock
    await database.close(); // and closing it again is harmless
  });
});
