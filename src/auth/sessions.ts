// Device sessions: the token check behind every signed-in route, and listing and signing out.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { ApiError } from "../http/errors.ts";
import { deleteAllSessions, deleteSession, sessionByTokenHash, sessionsOf, touchSession, type DeviceSession } from "./auth.query.ts";
import { hashToken, TOKEN_PATTERN } from "./tokens.ts";

/** last seen is kept to this resolution, so the token check writes at most once per 5 minutes. */
export const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

export type Signedin = { uuid: string; sessionId: string };

const tokenShape = new RegExp(TOKEN_PATTERN);

const unauthorized = (message: string) => new ApiError("unauthorized", message, undefined, { "www-authenticate": 'Bearer realm="tally"' });

/** The signed-in account of a request, from `Authorization: Bearer <token>`; 401 otherwise. */
export async function authenticate(deps: { db: Db; clock: Clock }, authorization: string | null): Promise<Signedin> {
  const match = /^Bearer ([^\s]+)$/.exec(authorization ?? "");
  if (!match) throw unauthorized("sign in first: send Authorization: Bearer <token>");
  const token = match[1]!;
  if (!tokenShape.test(token)) throw unauthorized("the token is not valid");
  const session = await sessionByTokenHash(deps.db, hashToken(token));
  const now = deps.clock.now();
  if (!session || session.expiresAt <= now) throw unauthorized("the token is not valid or has expired; sign in again");
  if (now - session.lastSeenAt >= LAST_SEEN_RESOLUTION_MS) await touchSession(deps.db, session.id, now);
  return { uuid: session.uuid, sessionId: session.id };
}

export function describeSession(s: DeviceSession, currentId: string) {
  return { id: s.id, device: s.device, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, expiresAt: s.expiresAt, current: s.id === currentId };
}

export async function listSessions(deps: { db: Db; clock: Clock }, who: Signedin) {
  const now = deps.clock.now();
  return (await sessionsOf(deps.db, who.uuid)).filter((s) => s.expiresAt > now).map((s) => describeSession(s, who.sessionId));
}

export async function signOutOne(db: Db, who: Signedin, id: string) {
  // Another account's id is answered exactly like an id that does not exist.
  if ((await deleteSession(db, who.uuid, id)) === 0) throw new ApiError("not_found", "no such session on this account");
  return { signedOut: 1 };
}

export async function signOutAll(db: Db, who: Signedin) {
  return { signedOut: await deleteAllSessions(db, who.uuid) };
}
