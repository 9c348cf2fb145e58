// The maintainers' page's sessions. Signing in mints a random token (32 bytes, base64url) for the
// cookie and stores only its SHA-256, with its fixed end (ADMIN_SESSION_MS after sign-in) and a key
// derived from ADMIN_TOKEN; signing out deletes the row, so the cookie stops working at once on
// every instance, also as a copy. A new ADMIN_TOKEN ends every session (its key no longer
// matches). Each sign-in tidies away expired rows and those of an earlier token, so the table
// holds no more than the sign-ins of the last ADMIN_SESSION_MS.
import { createHmac } from "node:crypto";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { hashToken, newToken, TOKEN_PATTERN } from "../http/secret.ts";
import { adminSessionLive, deleteAdminSession, insertAdminSession, tidyAdminSessions } from "./admin-sessions.query.ts";

export const ADMIN_SESSION_MS = 8 * 3_600_000;
const TOKEN = new RegExp(TOKEN_PATTERN);

export const mac = (key: string, text: string) => createHmac("sha256", key).update(text).digest("base64url");

export function adminSessions(deps: { db: Db; clock: Clock }, adminToken: string) {
  const adminKey = mac(adminToken, "tally admin sessions");
  return {
    /** A new session: the token for the cookie. */
    async start(): Promise<string> {
      const now = deps.clock.now();
      await tidyAdminSessions(deps.db, adminKey, now);
      const token = newToken();
      await insertAdminSession(deps.db, {
        tokenHash: hashToken(token),
        adminKey,
        createdAt: now,
        expiresAt: now + ADMIN_SESSION_MS,
      });
      return token;
    },
    /** True when the cookie's session was started under this ADMIN_TOKEN, has not ended and not expired. */
    async live(cookie: string): Promise<boolean> {
      return TOKEN.test(cookie) && adminSessionLive(deps.db, hashToken(cookie), adminKey, deps.clock.now());
    },
    async end(cookie: string): Promise<void> {
      if (TOKEN.test(cookie)) await deleteAdminSession(deps.db, hashToken(cookie));
    },
  };
}
