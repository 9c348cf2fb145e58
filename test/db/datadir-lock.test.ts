// The embedded database belongs to one process: a second opener of the same DATA_DIR is refused
// with a clear message; a lock left by a dead process is taken over; closing releases it.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { tempDirs } from "../support/temp.ts";
import { sql } from "drizzle-orm";
import { lockDataDir, DataDirLockedError } from "../../src/db/datadir-lock.ts";
import { connectEmbedded } from "../../src/db/connect-embedded.ts";
import { migrate } from "../../src/db/migrate.ts";
import { rows } from "../../src/db/database.ts";
import { testSeed } from "../support/db.ts";

// These tests start child processes: slower than the 5 s default on a busy machine.
setDefaultTimeout(30_000);

const tempDir = tempDirs("lock");

/** A separate process that takes the folder's lock and holds it until killed. */
async function holder(dir: string) {
  const child = Bun.spawn(
    [
      "bun",
      "-e",
      `import { lockDataDir } from ${JSON.stringify(join(import.meta.dir, "../../src/db/datadir-lock.ts"))}; lockDataDir(${JSON.stringify(dir)}); console.log("locked"); setInterval(() => {}, 1000);`,
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toContain("locked");
  return child;
}

describe("DATA_DIR lock", () => {
  test("a second lock on the same folder is refused, naming the holder; released, it can be taken again", () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    try {
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by another tally \\(process ${process.pid}\\)`));
    } finally {
      release();
    }
    lockDataDir(dir)();
  });

  test("another live process holding the folder is named in the refusal", async () => {
    const dir = tempDir();
    const child = await holder(dir);
    try {
      expect(() => lockDataDir(dir)).toThrow(`in use by another tally (process ${child.pid})`);
    } finally {
      child.kill("SIGKILL");
      await child.exited;
    }
  });

  test("after its holder is killed with SIGKILL the folder can be locked at once", async () => {
    const dir = tempDir();
    const child = await holder(dir);
    child.kill("SIGKILL");
    await child.exited;
    expect(readFileSync(join(dir, "tally.lock"), "utf8")).toContain(String(child.pid));
    lockDataDir(dir)();
  });

  test("a lock file naming this very pid (a container restarted as pid 1) does not block", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tally.lock"), JSON.stringify({ pid: process.pid, host: hostname() }));
    lockDataDir(dir)();
  });

  test("a lock file cut short by a crash does not block", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tally.lock"), '{"pid":');
    lockDataDir(dir)();
  });

  test("a second embedded database on the same folder is refused; the first keeps working; data survives reopening", async () => {
    const dir = tempDir();
    const seed = await testSeed();
    const first = await connectEmbedded(dir, { seed: async () => seed });
    try {
      await migrate(first.db);
      await first.db.execute(sql`insert into service_meta (key, value, updated_at) values ('kept', 'yes', 1)`);
      await expect(connectEmbedded(dir)).rejects.toThrow(DataDirLockedError);
      expect(await rows(first.db, sql`select value from service_meta where key = 'kept'`)).toEqual([{ value: "yes" }]);
    } finally {
      await first.close();
    }
    const again = await connectEmbedded(dir);
    try {
      expect(await migrate(again.db)).toEqual([]);
      expect(await rows(again.db, sql`select value from service_meta where key = 'kept'`)).toEqual([{ value: "yes" }]);
    } finally {
      await again.close();
    }
  });

  test("a folder holding something that is not a database is refused, not overwritten", async () => {
    const dir = tempDir();
    Bun.spawnSync(["mkdir", "-p", join(dir, "pg")]);
    writeFileSync(join(dir, "pg", "notes.txt"), "mine");
    await expect(connectEmbedded(dir)).rejects.toThrow(/holds files but no database/);
    lockDataDir(dir)(); // the refusal released the lock
  });
});
