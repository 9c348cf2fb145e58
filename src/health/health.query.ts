import { sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";

/** One round trip to the database; throws when it is not reachable. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
