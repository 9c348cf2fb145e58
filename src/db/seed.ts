// The seed: an initialised, migrated embedded database as a gzip tarball. The build embeds it so a
// new DATA_DIR opens from it (no initdb on first start); tests start every database from it.
import { drizzle } from "drizzle-orm/pglite";
import { openPglite } from "./connect.ts";
import { migrate } from "./migrate.ts";
import type { Db } from "./database.ts";
import * as schema from "./schema.ts";

export async function buildSeed(): Promise<Blob> {
  const client = await openPglite(undefined);
  try {
    await migrate(drizzle(client, { schema }) as unknown as Db);
    return await client.dumpDataDir("gzip");
  } finally {
    await client.close();
  }
}
