// SQL of the maintainers' page's sessions (admin_sessions): a row per sign-in, deleted by signing
// out; expired rows and rows of an earlier ADMIN_TOKEN are tidied at each sign-in.
import { and, eq, gt, lte, ne, or } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { adminSessions } from "./reports.table.ts";

export async function insertAdminSession(db: Db, row: typeof adminSessions.$inferInsert) {
  await db.insert(adminSessions).values(row);
}

/** True when the session of this token hash exists, under this ADMIN_TOKEN, and has not expired. */
export async function adminSessionLive(db: Db, tokenHash: string, adminKey: string, now: number): Promise<boolean> {
  const [row] = await db
    .select({ tokenHash: adminSessions.tokenHash })
    .from(adminSessions)
    .where(
      and(
        eq(adminSessions.tokenHash, tokenHash),
        eq(adminSessions.adminKey, adminKey),
        gt(adminSessions.expiresAt, now),
      ),
    );
  return !!row;
}

export async function deleteAdminSession(db: Db, tokenHash: string) {
  await db.delete(adminSessions).where(eq(adminSessions.tokenHash, tokenHash));
}

/** Forgets sessions that have expired or belong to another ADMIN_TOKEN. */
export async function tidyAdminSessions(db: Db, adminKey: string, now: number) {
  await db.delete(adminSessions).where(or(lte(adminSessions.expiresAt, now), ne(adminSessions.adminKey, adminKey)));
}
