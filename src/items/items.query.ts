import { eq } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { itemList } from "./items.table.ts";

/** Item id -> [name, tier?], as stored. */
export type StoredNames = Record<string, [string] | [string, string]>;

export async function storeItemList(
  db: Db,
  list: { names: StoredNames; items: number; fetchedAt: number; lastUpdated: number | null },
) {
  await db
    .insert(itemList)
    .values({ id: 1, ...list })
    .onConflictDoUpdate({ target: itemList.id, set: list });
}

export async function storedItemList(db: Db) {
  const [row] = await db.select().from(itemList).where(eq(itemList.id, 1));
  return row as (typeof row & { names: StoredNames }) | undefined;
}

/** When the list was last fetched (undefined: never). */
export async function itemListFetchedAt(db: Db): Promise<number | undefined> {
  const [row] = await db.select({ fetchedAt: itemList.fetchedAt }).from(itemList).where(eq(itemList.id, 1));
  return row?.fetchedAt;
}
