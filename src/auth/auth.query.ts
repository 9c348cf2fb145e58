// Challenges and device sessions.
import { and, asc, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { authChallenges, deviceSessions } from "./auth.table.ts";

export async function insertChallenge(db: Db, serverId: string, now: number, expiresAt: number) {
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, now));
  await db.insert(authChallenges).values({ serverId, createdAt: now, expiresAt });
}

/** Removes the challenge and answers when it expires; undefined if unknown or already used. */
export async function takeChallenge(db: Db, serverId: string): Promise<number | undefined> {
  const [row] = await db
    .delete(authChallenges)
    .where(eq(authChallenges.serverId, serverId))
    .returning({ expiresAt: authChallenges.expiresAt });
  return row?.expiresAt;
}

export type DeviceSession = typeof deviceSessions.$inferSelect;

export async function insertSession(db: Db, s: DeviceSession) {
  await db
    .delete(deviceSessions)
    .where(and(eq(deviceSessions.uuid, s.uuid), lt(deviceSessions.expiresAt, s.createdAt)));
  await db.insert(deviceSessions).values(s);
}

export async function sessionByTokenHash(db: Db, tokenHash: string): Promise<DeviceSession | undefined> {
  const [row] = await db.select().from(deviceSessions).where(eq(deviceSessions.tokenHash, tokenHash));
  return row;
}

export async function touchSession(db: Db, id: string, now: number) {
  await db.update(deviceSessions).set({ lastSeenAt: now }).where(eq(deviceSessions.id, id));
}

export function sessionsOf(db: Db, uuid: string): Promise<DeviceSession[]> {
  return db
    .select()
    .from(deviceSessions)
    .where(eq(deviceSessions.uuid, uuid))
    .orderBy(asc(deviceSessions.createdAt), asc(deviceSessions.id));
}

/** Deletes one of the account's sessions; answers how many went (0 or 1). */
export async function deleteSession(db: Db, uuid: string, id: string): Promise<number> {
  const gone = await db
    .delete(deviceSessions)
    .where(and(eq(deviceSessions.uuid, uuid), eq(deviceSessions.id, id)))
    .returning({ id: deviceSessions.id });
  return gone.length;
}

/** The account's sessions in id order after `afterId` (the export pages through them); no token hash. */
export function sessionPage(db: Db, uuid: string, afterId: string | null, size: number) {
  const s = deviceSessions;
  return db
    .select({ id: s.id, device: s.device, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, expiresAt: s.expiresAt })
    .from(s)
    .where(afterId === null ? eq(s.uuid, uuid) : and(eq(s.uuid, uuid), gt(s.id, afterId)))
    .orderBy(asc(s.id))
    .limit(size);
}

export async function deleteAllSessions(db: Db, uuid: string): Promise<number> {
  const gone = await db
    .delete(deviceSessions)
    .where(eq(deviceSessions.uuid, uuid))
    .returning({ id: deviceSessions.id });
  return gone.length;
}
