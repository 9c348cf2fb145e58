// The generated pseudonym key, kept in service_meta beside the other facts about this database.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";

const KEY = "pseudonym_key";

/** Stores `fresh` unless a key is already kept, and answers the kept one (the first writer wins). */
export async function keptPseudonymKey(db: Db, fresh: string, now: number): Promise<string> {
  await db.execute(
    sql`insert into service_meta (key, value, updated_at) values (${KEY}, ${fresh}, ${now}) on conflict (key) do nothing`,
  );
  const [row] = await rows<{ value: string }>(db, sql`select value from service_meta where key = ${KEY}`);
  return row!.value;
}
