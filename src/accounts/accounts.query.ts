// Reads and writes of the account row and page tokens.
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { hashToken } from "../auth/tokens.ts";
import type { Db } from "../db/database.ts";
import { accounts, pageTokens } from "./accounts.table.ts";

export type Account = typeof accounts.$inferSelect;

/**
 * At sign-in: creates the account (zone from the computer, default retention) or follows the
 * identity provider's current name. The zone is set at first sign-in only.
 */
export async function upsertAtSignIn(db: Db, a: { uuid: string; name: string; zone: string; now: number; retentionDays: number }): Promise<Account> {
  const [row] = await db
    .insert(accounts)
    .values({ uuid: a.uuid, name: a.name, zone: a.zone, createdAt: a.now, retentionDays: a.retentionDays })
    .onConflictDoUpdate({ target: accounts.uuid, set: { name: a.name } })
    .returning();
  return row!;
}

export async function accountByUuid(db: Db, uuid: string): Promise<Account | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.uuid, uuid));
  return row;
}

export type SettingsChange = Partial<Pick<Account, "consented" | "zone" | "zoneChangedAt" | "retentionDays" | "findable">>;

/** Applies a change only if the stored version is still `expectedVersion`; undefined if it moved. */
export async function updateSettings(db: Db, uuid: string, expectedVersion: number, change: SettingsChange): Promise<Account | undefined> {
  const [row] = await db
    .update(accounts)
    .set({ ...change, settingsVersion: sql`${accounts.settingsVersion} + 1` })
    .where(and(eq(accounts.uuid, uuid), eq(accounts.settingsVersion, expectedVersion)))
    .returning();
  return row;
}

export async function setShareKey(db: Db, uuid: string, shareKey: string | null, now: number): Promise<Account> {
  const [row] = await db
    .update(accounts)
    .set({ shareKey, shareKeyCreatedAt: shareKey ? now : null })
    .where(eq(accounts.uuid, uuid))
    .returning();
  return row!;
}

export async function insertPageToken(db: Db, t: { tokenHash: string; uuid: string; expiresAt: number; now: number }) {
  await db.delete(pageTokens).where(and(eq(pageTokens.uuid, t.uuid), lt(pageTokens.expiresAt, t.now)));
  await db.insert(pageTokens).values({ tokenHash: t.tokenHash, uuid: t.uuid, expiresAt: t.expiresAt });
}

/** The account a share key belongs to (the /s/<key> page); undefined once the key was rotated. */
export async function accountByShareKey(db: Db, shareKey: string): Promise<Account | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.shareKey, shareKey));
  return row;
}

/** The account a page token opens, while it has not expired (the player's own page). */
export async function accountByPageToken(db: Db, token: string, now: number): Promise<Account | undefined> {
  const [row] = await db
    .select({ account: accounts })
    .from(pageTokens)
    .innerJoin(accounts, eq(accounts.uuid, pageTokens.uuid))
    .where(and(eq(pageTokens.tokenHash, hashToken(token)), gt(pageTokens.expiresAt, now)));
  return row?.account;
}

/** Notes the time of the account's latest accepted upload (shown on the mod's status screen). */
export async function markUpload(db: Db, uuid: string, at: number) {
  await db.update(accounts).set({ lastUploadAt: at }).where(eq(accounts.uuid, uuid));
}

/**
 * The account that holds a player name now (the /u/<name> page), case-insensitively. Two accounts
 * can hold one name for a while (a name freed and taken before the first signs in again): the one
 * that uploaded most recently wins, then the newer account, so the answer is always the same.
 */
export async function accountByName(db: Db, name: string): Promise<Account | undefined> {
  const [row] = await accountByNameQuery(db, name);
  return row;
}

/** accountByName's statement; `lower(name)` is what accounts_name_lower_idx indexes. */
export function accountByNameQuery(db: Db, name: string) {
  return db
    .select()
    .from(accounts)
    .where(sql`lower(${accounts.name}) = lower(${name})`)
    .orderBy(sql`${accounts.lastUploadAt} desc nulls last`, sql`${accounts.createdAt} desc`, accounts.uuid)
    .limit(1);
}
