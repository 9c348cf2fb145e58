// Backups of the embedded database: taken with the service stopped or while it runs (through the
// service, with ADMIN_TOKEN), restored only with it stopped, the replaced database kept.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { main, type MainOptions } from "../../src/main.ts";
import { connectEmbedded } from "../../src/db/connect-embedded.ts";
import { rows } from "../../src/db/database.ts";
import { testSeed } from "../support/db.ts";
import { tempDirs } from "../support/temp.ts";
import { testApp } from "../support/app.ts";

// These tests start the service and open several embedded databases.
setDefaultTimeout(60_000);
const tempDir = tempDirs("backup");

async function run(argv: string[], env: Record<string, string>, extra: MainOptions = {}) {
  let out = "";
  let err = "";
  const code = await main(argv, { env, out: (t) => (out += t), err: (t) => (err += t), logWrite: () => {}, ...extra });
  return { code, out, err };
}

/** A DATA_DIR holding a database with one marker row. */
async function dataDirWith(marker: string) {
  const dir = tempDir();
  const seed = await testSeed();
  const d = await connectEmbedded(dir, { seed: async () => seed });
  await d.db.execute(sql`insert into service_meta (key, value, updated_at) values ('marker', ${marker}, 1)`);
  await d.close();
  return dir;
}
async function markerIn(dir: string) {
  const d = await connectEmbedded(dir);
  try {
    return (await rows<{ value: string }>(d.db, sql`select value from service_meta where key = 'marker'`))[0]?.value;
  } finally {
    await d.close();
  }
}

describe("tally backup and restore", () => {
  test("with the service stopped: the backup restores into another folder with the same data", async () => {
    const dir = await dataDirWith("before the backup");
    const file = join(tempDir(), "tally.tgz");
    const backup = await run(["backup", file], { DATA_DIR: dir });
    expect(backup.code).toBe(0);
    expect(backup.out).toContain(`wrote ${file}`);
    const target = tempDir();
    const restore = await run(["restore", file], { DATA_DIR: target });
    expect(restore).toMatchObject({ code: 0 });
    expect(await markerIn(target)).toBe("before the backup");
  });

  test("while the service runs: taken through it with ADMIN_TOKEN; restore refuses until it stops, then keeps the replaced database", async () => {
    const dir = await dataDirWith("served");
    const port = String(20000 + Math.floor(Math.random() * 20000));
    const env = { DATA_DIR: dir, PORT: port, HOST: "127.0.0.1", ADMIN_TOKEN: "admin-secret-token-1234-9f0e8d7c6b5a" };
    let stop!: (s: string) => void;
    const listening = Promise.withResolvers<void>();
    const served = run(["serve"], env, {
      stopSignal: new Promise<string>((r) => (stop = r)),
      onListening: () => listening.resolve(),
    });
    await listening.promise;
    const file = join(tempDir(), "live.tgz");
    try {
      expect((await run(["backup", file], { DATA_DIR: dir, PORT: port, HOST: "127.0.0.1" })).err).toContain(
        "give this command the service's ADMIN_TOKEN",
      );
      expect((await run(["backup", file], env)).code).toBe(0);
      const refused = await run(["restore", file], env);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain("in use by another tally");
    } finally {
      stop("test");
      expect((await served).code).toBe(0);
    }
    const restored = await run(["restore", file], env);
    expect(restored.code).toBe(0);
    expect(await markerIn(dir)).toBe("served");
    expect(readdirSync(dir).some((f) => f.startsWith("pg.before-restore-"))).toBe(true);
  });

  test("a file that is not a backup is refused and the database stays as it was", async () => {
    const dir = await dataDirWith("untouched");
    const file = join(tempDir(), "not-a-backup.tgz");
    writeFileSync(file, "hello");
    const restore = await run(["restore", file], { DATA_DIR: dir });
    expect(restore.code).toBe(1);
    expect(restore.err).toContain("not a tally backup");
    expect(await markerIn(dir)).toBe("untouched");
    expect(existsSync(join(dir, "pg.partial"))).toBe(false);
  });

  test("on Postgres the commands point at pg_dump; without a file they say so", async () => {
    expect((await run(["backup", "x.tgz"], { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" })).err).toContain(
      "pg_dump",
    );
    expect(await run(["backup"], {})).toMatchObject({
      code: 2,
      err: "tally: backup needs a file: tally backup <file>\n",
    });
  });
});

describe("GET /v1/admin/backup", () => {
  test("does not exist without ADMIN_TOKEN, refuses another token, and on Postgres says to use pg_dump", async () => {
    const off = await testApp();
    expect((await off.request("/v1/admin/backup")).status).toBe(404);
    // Another app over the same database, with the token.
    const on = await testApp({
      settings: { adminToken: "admin-secret-token-1234-9f0e8d7c6b5a" },
      database: off.database,
    });
    expect((await on.request("/v1/admin/backup", { headers: { authorization: "Bearer nope" } })).status).toBe(401);
    // The test app has no embedded backup function, as on Postgres.
    const res = await on.request("/v1/admin/backup", {
      headers: { authorization: "Bearer admin-secret-token-1234-9f0e8d7c6b5a" },
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("pg_dump");
    await on.close();
    await off.close();
  });
});
