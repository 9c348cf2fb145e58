// The profile cache and the name cache, plus the advisory lock that lets one instance at a time
// refresh one uuid.
import { eq, lt, sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { playerNames, profileCache } from "./profiles.table.ts";
import { textArray } from "../db/array-param.ts";
import type { ProfileEntry } from "./allowlist.ts";

export type CachedProfiles = { profiles: ProfileEntry[]; fetchedAt: number };

export async function cachedProfiles(db: Db, uuid: string): Promise<CachedProfiles | undefined> {
  const [row] = await db
    .select({ profiles: profileCache.profiles, fetchedAt: profileCache.fetchedAt })
    .from(profileCache)
    .where(eq(profileCache.uuid, uuid));
  return row ? { profiles: row.profiles as ProfileEntry[], fetchedAt: row.fetchedAt } : undefined;
}

export async function storeProfiles(db: Db, uuid: string, profiles: ProfileEntry[], fetchedAt: number) {
  await db
    .insert(profileCache)
    .values({ uuid, profiles, fetchedAt })
    .onConflictDoUpdate({ target: profileCache.uuid, set: { profiles, fetchedAt } });
}

/** Lock class of profile refreshes (the second key is the uuid's hash). */
const PROFILE_LOCK = 7001;

/** Waits for this uuid's refresh lock; it is released when the surrounding transaction ends. */
export async function lockProfileRefresh(tx: Db, uuid: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(${PROFILE_LOCK}, hashtext(${uuid}))`);
}

export type CachedName = { uuid: string; name: string; fetchedAt: number };

export async function cachedName(db: Db, name: string): Promise<CachedName | undefined> {
  const [row] = await db
    .select({ uuid: playerNames.uuid, name: playerNames.name, fetchedAt: playerNames.fetchedAt })
    .from(playerNames)
    .where(eq(playerNames.nameKey, name.toLowerCase()));
  return row;
}

export async function storeName(db: Db, entry: CachedName) {
  const row = { nameKey: entry.name.toLowerCase(), ...entry };
  await db
    .insert(playerNames)
    .values(row)
    .onConflictDoUpdate({
      target: playerNames.nameKey,
      set: { uuid: row.uuid, name: row.name, fetchedAt: row.fetchedAt },
    });
}

export async function forgetName(db: Db, name: string) {
  await db.delete(playerNames).where(eq(playerNames.nameKey, name.toLowerCase()));
}

/** Deletes cached profile documents and names fetched before `before`; answers how many of each. */
export async function purgeProfileCaches(db: Db, before: number): Promise<{ profiles: number; names: number }> {
  const profiles = await db
    .delete(profileCache)
    .where(lt(profileCache.fetchedAt, before))
    .returning({ uuid: profileCache.uuid });
  const names = await db
    .delete(playerNames)
    .where(lt(playerNames.fetchedAt, before))
    .returning({ uuid: playerNames.uuid });
  return { profiles: profiles.length, names: names.length };
}

/** Deletes this player's cached profile document and every name cached as theirs; answers how many rows. */
export async function forgetPlayerProfiles(db: Db, uuid: string): Promise<number> {
  const profiles = await db
    .delete(profileCache)
    .where(eq(profileCache.uuid, uuid))
    .returning({ uuid: profileCache.uuid });
  const names = await db.delete(playerNames).where(eq(playerNames.uuid, uuid)).returning({ uuid: playerNames.uuid });
  return profiles.length + names.length;
}

/** The names cached as this player's, with when each was looked up. */
export async function cachedNamesOf(db: Db, uuid: string): Promise<{ name: string; fetchedAt: number }[]> {
  return db
    .select({ name: playerNames.name, fetchedAt: playerNames.fetchedAt })
    .from(playerNames)
    .where(eq(playerNames.uuid, uuid))
    .orderBy(playerNames.nameKey);
}

/** Which of these lower-case words are a name the name cache holds: one probe of its key a word. */
export async function cachedNamesAmong(db: Db, lowerWords: readonly string[]): Promise<string[]> {
  if (lowerWords.length === 0) return [];
  const found = await rows<{ key: string }>(
    db,
    sql`select w.key from unnest(${textArray([...new Set(lowerWords)])}::text[]) as w(key)
        cross join lateral (select 1 from ${playerNames} n where n.name_key = w.key limit 1) as hit`,
  );
  return found.map((r) => r.key);
}
