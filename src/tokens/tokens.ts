// Personal access tokens (issue 37): a signed-in player makes one for their own tools (a bot, an
// overlay, a spreadsheet) with a label, scopes and an expiry; it is answered once and kept as its
// SHA-256 only. The read routes accept it (tokens/read-guard.ts); signing out everywhere and
// erasure revoke every token of the account.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { hashToken, newPersonalToken, PERSONAL_TOKEN_PATTERN, randomHex } from "../http/secret.ts";
import { denylistMatch } from "../privacy/denylist.ts";
import {
  countTokens,
  deleteAllTokens,
  deleteToken,
  insertToken,
  lockAccountTokens,
  tokenByHash,
  tokenPage,
  tokensOf,
  touchToken,
  type AccessToken,
} from "./tokens.query.ts";
import { parseScopes, type Scope } from "./scopes.ts";

export type TokenDeps = {
  db: Db;
  clock: Clock;
  config: Pick<Config, "tokensMaxPerAccount" | "tokenMaxDays">;
};

const DAY_MS = 86_400_000;
/** Last use is kept to the minute: a busy token writes its row at most once a minute. */
export const LAST_USED_RESOLUTION_MS = 60_000;
/** A token's id: 16 hex characters (a device session's is 24, an account's 32). */
export const TOKEN_ID_PATTERN = "^[0-9a-f]{16}$";

const tokenShape = new RegExp(PERSONAL_TOKEN_PATTERN);

export type TokenRequest = { label: string; scopes: Scope[]; expiresInDays?: number };

function describeToken(t: AccessToken) {
  return {
    id: t.id,
    label: t.label,
    scopes: parseScopes(t.scopes),
    createdAt: t.createdAt,
    lastUsedAt: t.lastUsedAt,
    expiresAt: t.expiresAt,
  };
}
export type TokenInfo = ReturnType<typeof describeToken>;

/** Makes a token for the account; answers it with its secret, the only time the secret is told. */
export async function createToken(deps: TokenDeps, uuid: string, asked: TokenRequest) {
  const label = asked.label.trim();
  if (!label) throw new ApiError("invalid_body", "the label is empty", "/label");
  const rule = denylistMatch(label);
  if (rule)
    throw new ApiError(
      "denylisted_string",
      `the label has the shape of a player name in game text (${rule}); the service stores nothing about other players`,
      "/label",
    );
  const maxDays = deps.config.tokenMaxDays;
  if (asked.expiresInDays !== undefined && maxDays > 0 && asked.expiresInDays > maxDays)
    throw new ApiError("invalid_expiry", `a token lives at most ${maxDays} days on this service`, "/expiresInDays");
  const days = asked.expiresInDays ?? (maxDays > 0 ? maxDays : null);
  const now = deps.clock.now();
  const secret = newPersonalToken();
  const row: AccessToken = {
    id: randomHex(8),
    uuid,
    tokenHash: hashToken(secret),
    label,
    scopes: [...new Set(asked.scopes)].sort().join(" "),
    createdAt: now,
    lastUsedAt: null,
    expiresAt: days === null ? null : now + days * DAY_MS,
  };
  await deps.db.transaction(async (tx) => {
    // Expired tokens are gone before they are counted; the count and insert share the transaction,
    // under the account's token lock: two creations at once each counted the other's token as not
    // there yet (read committed) and both inserted past the cap.
    await lockAccountTokens(tx, uuid);
    await dropExpired(tx, uuid, now);
    if ((await countTokens(tx, uuid)) >= deps.config.tokensMaxPerAccount)
      throw new ApiError(
        "too_many_tokens",
        `an account holds at most ${deps.config.tokensMaxPerAccount} tokens; revoke one first`,
      );
    await insertToken(tx, row);
  });
  return { ...describeToken(row), token: secret };
}

async function dropExpired(db: Db, uuid: string, now: number) {
  for (const t of await tokensOf(db, uuid))
    if (t.expiresAt !== null && t.expiresAt <= now) await deleteToken(db, uuid, t.id);
}

/** The account's tokens that still work, oldest first; never their secrets or hashes. */
export async function listTokens(deps: { db: Db; clock: Clock }, uuid: string): Promise<TokenInfo[]> {
  const now = deps.clock.now();
  return (await tokensOf(deps.db, uuid)).filter((t) => t.expiresAt === null || t.expiresAt > now).map(describeToken);
}

/** Revokes one token of the account; another account's id is answered as one that does not exist. */
export async function revokeToken(db: Db, uuid: string, id: string) {
  if ((await deleteToken(db, uuid, id)) === 0) throw new ApiError("not_found", "no such token on this account");
  return { revoked: 1 };
}

/** Revokes every token of the account (the owner's call, signing out everywhere, erasure); answers how many. */
export function revokeAllTokens(db: Db, uuid: string): Promise<number> {
  return deleteAllTokens(db, uuid);
}

/** A page of the account's tokens for its export, in id order after `afterId` (label, scopes, times; never the hash). */
export function tokensForExport(db: Db, uuid: string, afterId: string | null, size: number) {
  return tokenPage(db, uuid, afterId, size);
}

/** A personal access token on a route that takes the mod's sign-in only (writes, settings, sessions, tokens). */
export const tokenNotAccepted = () =>
  new ApiError(
    "token_not_accepted",
    "a personal access token only reads: this route takes the mod's sign-in (a device session)",
  );

const unauthorized = (message: string) =>
  new ApiError("unauthorized", message, undefined, { "www-authenticate": 'Bearer realm="tally"' });

/** The token a request carries, checked: its account, id and scopes; 401 when unknown, revoked or expired. */
export async function tokenOwner(deps: { db: Db; clock: Clock }, token: string) {
  if (!tokenShape.test(token)) throw unauthorized("the token is not valid");
  const row = await tokenByHash(deps.db, hashToken(token));
  const now = deps.clock.now();
  if (!row || (row.expiresAt !== null && row.expiresAt <= now))
    throw unauthorized("the token is not valid, was revoked or has expired");
  if (row.lastUsedAt === null || now - row.lastUsedAt >= LAST_USED_RESOLUTION_MS)
    await touchToken(deps.db, row.id, now);
  return { uuid: row.uuid, tokenId: row.id, scopes: parseScopes(row.scopes) };
}
