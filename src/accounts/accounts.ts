// The account row's border: what every other module calls (sign-in, the pages, ingest, the stats
// jobs, export and erasure). No other module names the account tables; they call these.
import type { Db } from "../db/database.ts";
import { ApiError } from "../http/errors.ts";
import { hashToken, newToken } from "../http/secret.ts";
import { accountByUuid, insertPageToken, type Account, type PageTokenKind } from "./accounts.query.ts";

export type { Account };
export {
  /** At sign-in, in the sign-in's transaction: creates the account or follows the player's current name. */
  upsertAtSignIn,
  /** The pages: the account holding a name now, the one a share key opens, a page link spent, a page cookie. */
  accountByName,
  accountByShareKey,
  takePageLink,
  accountByPageCookie,
  /** Signing a device session out (or every session) ends the page links and cookies it asked for. */
  deletePageTokens,
  /** Ingest notes the time and the mod version of the account's latest accepted upload. */
  markUpload,
  /** Bug intake: how many accounts upload from a mod version (may a report from it reopen a problem?). */
  accountsOnVersion,
  /** Bug intake: which of a report's words are an account's name (replaced as a player's, issue 36). */
  accountNamesAmong,
  /** The stats jobs: every account with its zone and retention, in uuid order. */
  accountsForJobs,
  /** Erasure, in the caller's transaction: the account row and its page tokens, counted. */
  deleteAccount,
  /** The boards: each ranked account's name and whether its page is findable (who a row may name). */
  namesOf,
} from "./accounts.query.ts";

/** The signed-in account; 401 when it was erased meanwhile. */
export async function requireAccount(db: Db, uuid: string): Promise<Account> {
  const account = await accountByUuid(db, uuid);
  // A valid token always has an account (sessions cascade with it); this is the erased-meanwhile case.
  if (!account) throw new ApiError("unauthorized", "this account no longer exists; sign in again");
  return account;
}

/**
 * Mints a page link (spent by its first use) or a page cookie for the account, on behalf of the
 * device session `sessionId`, ending `ttlMs` after `now`; only its hash is stored.
 */
export async function mintPageToken(
  db: Db,
  who: { uuid: string; sessionId: string; kind: PageTokenKind },
  now: number,
  ttlMs: number,
): Promise<{ token: string; expiresAt: number }> {
  const token = newToken();
  const expiresAt = now + ttlMs;
  await insertPageToken(db, { tokenHash: hashToken(token), ...who, expiresAt, now });
  return { token, expiresAt };
}
