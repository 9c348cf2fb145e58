// Erasure: the player's statistics (settings stay), or the whole account. Both answer the rows
// removed per table and in total (contract 1.1 rule 3); a second data deletion answers zero.
import type { Db } from "../db/database.ts";
import { deleteAccount } from "../accounts/accounts.ts";
import { endAllSessions } from "../auth/sessions.ts";
import { deleteStats } from "./erase.query.ts";
import { lockAccountStats } from "./counters.query.ts";
import { forgetPlayerCaches } from "../profiles/caches.ts";
import { revokeAllTokens } from "../tokens/tokens.ts";
import { deleteRecaps } from "../recaps/recaps-erase.ts";

const total = (counts: Record<string, number>) => Object.values(counts).reduce((n, c) => n + c, 0);

/**
 * What other modules erase with the statistics, in the erasure's own transaction (the boards' scores
 * and held figures, set by createApp so stats imports nothing of boards): if it fails, nothing is
 * erased and the player may try again, rather than the statistics going and their scores staying.
 */
export type EraseAlso = (tx: Db, uuid: string, what: "data" | "account") => Promise<unknown>;

export async function eraseData(db: Db, uuid: string, also?: EraseAlso) {
  const removed = await db.transaction(async (tx) => {
    // After any upload, import or copy of lifetime figures in flight for the account (they hold this
    // lock), and before the boards' rows (an upload takes this lock before them).
    await lockAccountStats(tx, uuid);
    await also?.(tx, uuid, "data");
    return {
      ...(await deleteStats(tx, uuid)),
      // The month and year recaps made of them (src/recaps/).
      recaps: await deleteRecaps(tx, uuid),
    };
  });
  return { removed, total: total(removed) };
}

export async function eraseAccount(db: Db, uuid: string, also?: EraseAlso) {
  const removed = await db.transaction(async (tx) => {
    await lockAccountStats(tx, uuid);
    await also?.(tx, uuid, "account");
    const stats = await deleteStats(tx, uuid);
    const recaps = await deleteRecaps(tx, uuid);
    // The device sessions (auth's), then the account row with its page tokens (accounts').
    const deviceSessions = await endAllSessions(tx, uuid);
    // The personal access tokens (tokens'), before the account row they belong to.
    const accessTokens = await revokeAllTokens(tx, uuid);
    const { account, pageTokens } = await deleteAccount(tx, uuid);
    // The player's name, game profiles and head in the caches of public data go too (issue 22).
    await forgetPlayerCaches(tx, uuid);
    return { ...stats, recaps, account, deviceSessions, pageTokens, accessTokens };
  });
  return { removed, total: total(removed) };
}
