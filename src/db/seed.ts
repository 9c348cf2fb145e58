// The seed: an initialised, migrated embedded database as a gzip tarball. The build embeds it so a
// new DATA_DIR opens from it (no initdb on first start); tests start every database from it.
import { drizzle } from "drizzle-orm/pglite";
import { openPglite } from "./connect-embedded.ts";
import { migrate } from "./migrate.ts";
import type { Db } from "./database.ts";
import * as schema from "./schema.ts";

export async function buildSeed(): Promise<Blob> {
  const client = await openPglite(undefined);
  try {
    await migrate(drizzle(client, { schema }) as unknown as Db);
    // A checkpoint first, so a database opened from the seed starts at a clean redo point instead
    // of replaying the whole migration's WAL on its first start.
    await client.query("checkpoint");
    return await client.dumpDataDir("gzip");
  } finally {
    await client.close();
  }
}
