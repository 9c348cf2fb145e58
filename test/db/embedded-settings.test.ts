// The embedded database's Postgres settings: small shared memory by default (issue 15), and the
// page cache a self-hoster can raise with EMBEDDED_SHARED_BUFFERS_MB.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { loadConfig } from "../../src/config.ts";
import { connect } from "../../src/db/connect.ts";
import { rows } from "../../src/db/database.ts";
import { testSeed } from "../support/db.ts";
import { tempDirs } from "../support/temp.ts";

setDefaultTimeout(60_000);
const tempDir = tempDirs("embedded-settings");

async function settingsOf(env: Record<string, string>) {
  const config = loadConfig({ DATA_DIR: tempDir(), ...env });
  const seed = await testSeed();
  const database = await connect(config, { seed: async () => seed });
  try {
    const [found] = await rows<{ sharedBuffers: string; maxConnections: string; workMem: string }>(
      database.db,
      sql`select current_setting('shared_buffers') as "sharedBuffers", current_setting('max_connections') as "maxConnections", current_setting('work_mem') as "workMem"`,
    );
    return found!;
  } finally {
    await database.close();
  }
}

// The settings name no DATABASE_URL, so these run on the embedded database in every test run.
describe("embedded database settings", () => {
  test("by default the page cache is 8 MiB, not Postgres's 128 MB, and work_mem is Postgres's own", async () => {
    const s = await settingsOf({});
    expect(s).toEqual({ sharedBuffers: "8MB", maxConnections: "4", workMem: "4MB" });
  });

  test("EMBEDDED_SHARED_BUFFERS_MB raises the page cache", async () => {
    const s = await settingsOf({ EMBEDDED_SHARED_BUFFERS_MB: "48" });
    expect(s.sharedBuffers).toBe("48MB");
  });
});
