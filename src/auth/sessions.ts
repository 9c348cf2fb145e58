// Device sessions: the token check behind every signed-in route, and listing and signing out.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { ApiError } from "../http/errors.ts";
import {
  deleteAllSessions,
  deleteSession,
  sessionPage,
  sessionByTokenHash,
  sessionsOf,
  touchSession,
  type DeviceSession,
} from "./auth.query.ts";
import { hashToken, PERSONAL_TOKEN_PREFIX, TOKEN_PATTERN } from "../http/secret.ts";
import type { SignedIn } from "../http/signed-in.ts";
import { deletePageTokens } from "../accounts/accounts.ts";
import { revokeAllTokens, tokenNotAccepted } from "../tokens/tokens.ts";

/** last seen is kept to this resolution, so the token check writes at most once per 5 minutes. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

const tokenShape = new RegExp(TOKEN_PATTERN);

const unauthorized = (message: string) =>
  new ApiError("unauthorized", message, undefined, { "www-authenticate": 'Bearer realm="tally"' });

/** The signed-in account of a request, from `Authorization: Bearer <token>`; 401 otherwise. */
export async function authenticate(deps: { db: Db; clock: Clock }, authorization: string | null): Promise<SignedIn> {
  const match = /^Bearer ([^\s]+)$/.exec(authorization ?? "");
  if (!match) throw unauthorized("sign in first: send Authorization: Bearer <token>");
  const token = match[1]!;
  // A personal access token only reads, through tokens/read-guard.ts: here (writes, settings,
  // sessions, tokens) it is refused by its prefix before any lookup.
  if (token.startsWith(PERSONAL_TOKEN_PREFIX)) throw tokenNotAccepted();
  if (!tokenShape.test(token)) throw unauthorized("the token is not valid");
  const session = await sessionByTokenHash(deps.db, hashToken(token));
  const now = deps.clock.now();
  if (!session || session.expiresAt <= now) throw unauthorized("the token is not valid or has expired; sign in again");
  if (now - session.lastSeenAt >= LAST_SEEN_RESOLUTION_MS) await touchSession(deps.db, session.id, now);
  return { uuid: session.uuid, sessionId: session.id };
}

function describeSession(s: DeviceSession, currentId: string) {
  return {
    id: s.id,
    device: s.device,
    createdAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    expiresAt: s.expiresAt,
    current: s.id === currentId,
  };
}

export async function listSessions(deps: { db: Db; clock: Clock }, who: SignedIn) {
  const now = deps.clock.now();
  return (await sessionsOf(deps.db, who.uuid))
    .filter((s) => s.expiresAt > now)
    .map((s) => describeSession(s, who.sessionId));
}

/** Signs one device out; the page links and cookies it asked for end with it. */
export async function signOutOne(db: Db, who: SignedIn, id: string) {
  const gone = await db.transaction(async (tx) => {
    const n = await deleteSession(tx, who.uuid, id);
    if (n > 0) await deletePageTokens(tx, who.uuid, id);
    return n;
  });
  // Another account's id is answered exactly like an id that does not exist.
  if (gone === 0) throw new ApiError("not_found", "no such session on this account");
  return { signedOut: 1 };
}

/**
 * Signs out everywhere: every device session, every page link and cookie of the account, and
 * every personal access token (a token is a credential the player made while signed in).
 */
export async function signOutAll(db: Db, who: SignedIn) {
  return db.transaction(async (tx) => {
    const signedOut = await endAllSessions(tx, who.uuid);
    await deletePageTokens(tx, who.uuid);
    await revokeAllTokens(tx, who.uuid);
    return { signedOut };
  });
}

/** Ends every device session of the account (signing out everywhere, erasure); answers how many. */
export function endAllSessions(db: Db, uuid: string): Promise<number> {
  return deleteAllSessions(db, uuid);
}

/** A page of the account's device sessions for its export, in id order after `afterId`; never the token hash. */
export function sessionsForExport(db: Db, uuid: string, afterId: string | null, size: number) {
  return sessionPage(db, uuid, afterId, size);
}
