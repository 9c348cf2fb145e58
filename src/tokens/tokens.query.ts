// The personal access tokens' rows: made, found by hash, listed, touched, revoked.
import { and, asc, count, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { accessTokens } from "./tokens.table.ts";

export type AccessToken = typeof accessTokens.$inferSelect;

/**
 * Holds the account's token lock until the transaction ends: creations of one account wait for
 * each other, so the count each reads includes what the one before it inserted.
 */
export async function lockAccountTokens(tx: Db, uuid: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`tally.tokens.${uuid}`}, 0))`);
}

export async function insertToken(db: Db, row: AccessToken) {
  await db.insert(accessTokens).values(row);
}

export async function countTokens(db: Db, uuid: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(accessTokens).where(eq(accessTokens.uuid, uuid));
  return Number(row?.n ?? 0);
}

export async function tokenByHash(db: Db, tokenHash: string): Promise<AccessToken | undefined> {
  const [row] = await db.select().from(accessTokens).where(eq(accessTokens.tokenHash, tokenHash));
  return row;
}

export function tokensOf(db: Db, uuid: string): Promise<AccessToken[]> {
  return db
    .select()
    .from(accessTokens)
    .where(eq(accessTokens.uuid, uuid))
    .orderBy(asc(accessTokens.createdAt), asc(accessTokens.id));
}

export async function touchToken(db: Db, id: string, now: number) {
  await db.update(accessTokens).set({ lastUsedAt: now }).where(eq(accessTokens.id, id));
}

/** Deletes one token of the account; answers how many rows went (0 or 1). */
export async function deleteToken(db: Db, uuid: string, id: string): Promise<number> {
  const gone = await db
    .delete(accessTokens)
    .where(and(eq(accessTokens.uuid, uuid), eq(accessTokens.id, id)))
    .returning({ id: accessTokens.id });
  return gone.length;
}

export async function deleteAllTokens(db: Db, uuid: string): Promise<number> {
  const gone = await db.delete(accessTokens).where(eq(accessTokens.uuid, uuid)).returning({ id: accessTokens.id });
  return gone.length;
}

/** A page of the account's tokens in id order after `afterId`, for its export: never the hash. */
export function tokenPage(db: Db, uuid: string, afterId: string | null, size: number) {
  const t = accessTokens;
  return db
    .select({
      id: t.id,
      label: t.label,
      scopes: t.scopes,
      createdAt: t.createdAt,
      lastUsedAt: t.lastUsedAt,
      expiresAt: t.expiresAt,
    })
    .from(t)
    .where(afterId === null ? eq(t.uuid, uuid) : and(eq(t.uuid, uuid), gt(t.id, afterId)))
    .orderBy(asc(t.id))
    .limit(size);
}
