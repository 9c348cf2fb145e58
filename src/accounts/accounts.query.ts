// Reads and writes of the account row and page tokens.
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { hashToken } from "../http/secret.ts";
import { rows, type Db } from "../db/database.ts";
import { textArray } from "../db/array-param.ts";
import { accounts, pageTokens } from "./accounts.table.ts";

export type Account = typeof accounts.$inferSelect;

/**
 * At sign-in: creates the account (zone from the computer, default retention) or follows the
 * identity provider's current name. The zone is set at first sign-in only.
 */
export async function upsertAtSignIn(
  db: Db,
  a: { uuid: string; name: string; zone: string; now: number; retentionDays: number },
): Promise<Account> {
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

export type SettingsChange = Partial<
  Pick<Account, "consented" | "zone" | "zoneChangedAt" | "retentionDays" | "findable" | "headlineKeys">
>;

/** Applies a change only if the stored version is still `expectedVersion`; undefined if it moved. */
export async function updateSettings(
  db: Db,
  uuid: string,
  expectedVersion: number,
  change: SettingsChange,
): Promise<Account | undefined> {
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

export type PageTokenKind = (typeof pageTokens.$inferSelect)["kind"];

export async function insertPageToken(
  db: Db,
  t: { tokenHash: string; uuid: string; kind: PageTokenKind; sessionId: string; expiresAt: number; now: number },
) {
  await db.delete(pageTokens).where(and(eq(pageTokens.uuid, t.uuid), lt(pageTokens.expiresAt, t.now)));
  await db
    .insert(pageTokens)
    .values({ tokenHash: t.tokenHash, uuid: t.uuid, kind: t.kind, sessionId: t.sessionId, expiresAt: t.expiresAt });
}

/**
 * Spends a live page link: deletes it and answers its account and the session that asked for it.
 * Undefined for a token that is unknown, already spent, expired, or not a link (a cookie's value).
 * Two requests racing with one link: the delete lets exactly one of them have it.
 */
export async function takePageLink(
  db: Db,
  token: string,
  now: number,
  /** The page it was opened at: a link of an account that does not hold this name is neither spent nor answered. */
  pageName: string,
): Promise<{ account: Account; sessionId: string } | undefined> {
  const [link] = await db
    .delete(pageTokens)
    .where(
      and(
        eq(pageTokens.tokenHash, hashToken(token)),
        eq(pageTokens.kind, "link"),
        gt(pageTokens.expiresAt, now),
        // lower(name): what accounts_name_lower_idx indexes (accountByName's rule).
        sql`${pageTokens.uuid} in (select ${accounts.uuid} from ${accounts} where lower(${accounts.name}) = lower(${pageName}))`,
      ),
    )
    .returning({ uuid: pageTokens.uuid, sessionId: pageTokens.sessionId });
  if (!link) return undefined;
  const account = await accountByUuid(db, link.uuid);
  return account && { account, sessionId: link.sessionId };
}

/** Ends the account's page links and cookies: those one device session asked for, or all of them. */
export async function deletePageTokens(db: Db, uuid: string, sessionId?: string): Promise<number> {
  const which =
    sessionId === undefined
      ? eq(pageTokens.uuid, uuid)
      : and(eq(pageTokens.uuid, uuid), eq(pageTokens.sessionId, sessionId));
  return (await db.delete(pageTokens).where(which).returning({ uuid: pageTokens.uuid })).length;
}

/** The account a share key belongs to (the /s/<key> page); undefined once the key was rotated. */
export async function accountByShareKey(db: Db, shareKey: string): Promise<Account | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.shareKey, shareKey));
  return row;
}

/** The account a page cookie opens, until the cookie's absolute end (the player's own page); never a link's token. */
export async function accountByPageCookie(db: Db, token: string, now: number): Promise<Account | undefined> {
  const [row] = await db
    .select({ account: accounts })
    .from(pageTokens)
    .innerJoin(accounts, eq(accounts.uuid, pageTokens.uuid))
    .where(
      and(eq(pageTokens.tokenHash, hashToken(token)), eq(pageTokens.kind, "cookie"), gt(pageTokens.expiresAt, now)),
    );
  return row?.account;
}

/** These accounts with what the stats jobs need (zone and retention), in a stable order. */
export function accountsForJobs(
  db: Db,
  uuids: string[],
): Promise<{ uuid: string; zone: string; retentionDays: number }[]> {
  // One array parameter, however many accounts a job asks about.
  return db
    .select({ uuid: accounts.uuid, zone: accounts.zone, retentionDays: accounts.retentionDays })
    .from(accounts)
    .where(sql`${accounts.uuid} = any(${textArray(uuids)}::text[])`)
    .orderBy(accounts.uuid);
}

/** Deletes the account row and its page tokens; answers how many of each went (0 when there was none). */
export async function deleteAccount(tx: Db, uuid: string): Promise<{ account: number; pageTokens: number }> {
  const tokens = await tx.delete(pageTokens).where(eq(pageTokens.uuid, uuid)).returning({ uuid: pageTokens.uuid });
  const gone = await tx.delete(accounts).where(eq(accounts.uuid, uuid)).returning({ uuid: accounts.uuid });
  return { account: gone.length, pageTokens: tokens.length };
}

/**
 * Notes the time of the account's latest accepted upload (shown on the mod's status screen) and the
 * mod version it came from (the versions signed-in clients run, accountsOnVersion).
 */
export async function markUpload(db: Db, uuid: string, at: number, modVersion: string | null) {
  await db.update(accounts).set({ lastUploadAt: at, modVersion }).where(eq(accounts.uuid, uuid));
}

/** How many accounts' latest upload came from mod `version`, counted up to `atMost` (an index range). */
export async function accountsOnVersion(db: Db, version: string, atMost: number): Promise<number> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(accounts)
    .where(eq(accounts.modVersion, version))
    .limit(atMost);
  return rows.length;
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

/** The names of these accounts and whether each made its page findable (boards: who a row may name). */
export async function namesOf(db: Db, uuids: string[]): Promise<Map<string, { name: string; findable: boolean }>> {
  if (uuids.length === 0) return new Map();
  const found = await db
    .select({ uuid: accounts.uuid, name: accounts.name, findable: accounts.findable })
    .from(accounts)
    .where(sql`${accounts.uuid} = any(${textArray(uuids)}::text[])`);
  return new Map(found.map((r) => [r.uuid, { name: r.name, findable: r.findable }]));
}

/**
 * Which of these lower-case words are an account's name (bug intake: a name this instance knows is
 * replaced in a report, issue 36), each lower-case. One probe of accounts_name_lower_idx a word,
 * whatever the number of accounts: a plain `= any(...)` let the planner read every account (10 ms
 * for 512 words and 20 000 accounts on Postgres, growing with the accounts; this, 0.9 ms).
 */
export async function accountNamesAmong(db: Db, lowerWords: readonly string[]): Promise<string[]> {
  if (lowerWords.length === 0) return [];
  const found = await rows<{ key: string }>(
    db,
    sql`select w.key from unnest(${textArray([...new Set(lowerWords)])}::text[]) as w(key)
        cross join lateral (select 1 from ${accounts} a where lower(a.name) = w.key limit 1) as hit`,
  );
  return found.map((r) => r.key);
}
