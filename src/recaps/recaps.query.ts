// The recaps table's reads and writes (recaps.table.ts). Each is one statement on one account's
// rows, or one share key.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { textArray } from "../db/array-param.ts";
import { recaps } from "./recaps.table.ts";
import type { RecapBody } from "./recap-body.ts";

/** Stores a closed period's recap unless it is stored already; true when this call stored it. */
export async function insertRecap(db: Db, uuid: string, period: string, body: RecapBody, closedAt: number) {
  const stored = await db
    .insert(recaps)
    .values({ uuid, period, body, closedAt })
    .onConflictDoNothing()
    .returning({ uuid: recaps.uuid });
  return stored.length === 1;
}

/** Of these accounts, those whose recap of `period` is stored. */
export async function storedFor(db: Db, uuids: string[], period: string): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const found = await db
    .select({ uuid: recaps.uuid })
    .from(recaps)
    .where(and(eq(recaps.period, period), sql`${recaps.uuid} = any(${textArray(uuids)}::text[])`));
  return new Set(found.map((r) => r.uuid));
}

export async function recapOf(db: Db, uuid: string, period: string) {
  const [row] = await db
    .select({ body: recaps.body, shareKey: recaps.shareKey })
    .from(recaps)
    .where(and(eq(recaps.uuid, uuid), eq(recaps.period, period)));
  return row ?? null;
}

/** The account's stored periods, newest first (at most `limit`). */
export async function periodsOf(db: Db, uuid: string, limit: number) {
  const found = await db
    .select({ period: recaps.period, shareKey: recaps.shareKey })
    .from(recaps)
    .where(eq(recaps.uuid, uuid))
    .orderBy(sql`${recaps.period} collate "C" desc`)
    .limit(limit);
  return found;
}

export async function recapByShareKey(db: Db, key: string) {
  const [row] = await db
    .select({ uuid: recaps.uuid, period: recaps.period, body: recaps.body })
    .from(recaps)
    .where(eq(recaps.shareKey, key));
  return row ?? null;
}

/** Sets (a new key) or clears (null) the share key of one stored recap; false when there is none. */
export async function setShareKey(db: Db, uuid: string, period: string, key: string | null) {
  const done = await db
    .update(recaps)
    .set({ shareKey: key })
    .where(and(eq(recaps.uuid, uuid), eq(recaps.period, period)))
    .returning({ uuid: recaps.uuid });
  return done.length === 1;
}

/** Erasure: the account's recaps, counted. */
export async function deleteRecapRows(tx: Db, uuid: string): Promise<number> {
  const gone = await tx.delete(recaps).where(eq(recaps.uuid, uuid)).returning({ uuid: recaps.uuid });
  return gone.length;
}
