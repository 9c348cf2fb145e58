// Erasure: the player's statistics (settings stay), or the whole account. Both answer the rows
// removed per table and in total (contract 1.1 rule 3); a second data deletion answers zero.
import type { Db } from "../db/database.ts";
import { deleteAccountRow, deleteStats } from "./erase.query.ts";

const total = (counts: Record<string, number>) => Object.values(counts).reduce((n, c) => n + c, 0);

export async function eraseData(db: Db, uuid: string) {
  const removed = await db.transaction((tx) => deleteStats(tx, uuid));
  return { removed, total: total(removed) };
}

export async function eraseAccount(db: Db, uuid: string) {
  const removed = await db.transaction(async (tx) => ({ ...(await deleteStats(tx, uuid)), ...(await deleteAccountRow(tx, uuid)) }));
  return { removed, total: total(removed) };
}
