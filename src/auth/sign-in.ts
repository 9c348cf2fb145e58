// The account check (contract 5): a single-use serverId, the identity provider's word that this
// player joined with it, then a token of our own. The player's access token never reaches us.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { hasJoined } from "../upstream/identity.ts";
import { UpstreamError } from "../upstream/upstream-error.ts";
import { backOff, DEFAULT_BACKOFF_MS, IDENTITY_HEADS } from "../upstream/backoff.ts";
import { upsertAtSignIn } from "../accounts/accounts.ts";
import { isKnownZone } from "../wire/zone.ts";
import { insertChallenge, insertSession, takeChallenge } from "./auth.query.ts";
import { hashToken, newToken } from "../http/secret.ts";
import { newServerId, newSessionId } from "./tokens.ts";

export type SignInDeps = {
  db: Db;
  clock: Clock;
  log: Log;
  fetch: typeof fetch;
  config: Pick<
    Config,
    "identityUrl" | "upstreamTimeoutMs" | "challengeTtlMs" | "tokenTtlDays" | "retentionDefaultDays"
  >;
};

const DAY_MS = 24 * 60 * 60 * 1000;

export async function createChallenge(deps: SignInDeps) {
  const now = deps.clock.now();
  const serverId = newServerId();
  const expiresAt = now + deps.config.challengeTtlMs;
  await insertChallenge(deps.db, serverId, now, expiresAt);
  return { serverId, expiresAt };
}

function requireZone(zone: string) {
  if (!isKnownZone(zone))
    throw new ApiError("unknown_zone", `${JSON.stringify(zone)} is not a known IANA time zone`, "/zone");
}

/** Creates or updates the account and opens a device session in one transaction. */
async function openSession(deps: SignInDeps, who: { uuid: string; name: string; zone: string }, userAgent: string) {
  const now = deps.clock.now();
  const token = newToken();
  const session = {
    id: newSessionId(),
    tokenHash: hashToken(token),
    uuid: who.uuid,
    device: userAgent,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + deps.config.tokenTtlDays * DAY_MS,
  };
  const account = await deps.db.transaction(async (tx) => {
    const a = await upsertAtSignIn(tx, { ...who, now, retentionDays: deps.config.retentionDefaultDays });
    await insertSession(tx, session);
    return a;
  });
  return { token, expiresAt: session.expiresAt, uuid: account.uuid, name: account.name, sessionId: session.id };
}

export async function verify(deps: SignInDeps, body: { serverId: string; name: string; zone: string }, device: string) {
  requireZone(body.zone);
  // Taken before asking the identity provider: a serverId is spent by any attempt, good or bad.
  const expiresAt = await takeChallenge(deps.db, body.serverId);
  if (expiresAt === undefined || expiresAt < deps.clock.now()) {
    throw new ApiError(
      "challenge_invalid",
      "this serverId is unknown, used or expired; ask POST /v1/auth/challenge for a new one",
      "/serverId",
    );
  }
  let answer: Awaited<ReturnType<typeof hasJoined>>;
  try {
    answer = await hasJoined(
      { fetch: deps.fetch, identityUrl: deps.config.identityUrl, timeoutMs: deps.config.upstreamTimeoutMs },
      body.name,
      body.serverId,
    );
  } catch (e) {
    if (!(e instanceof UpstreamError)) throw e;
    // Throttled (a 429, or its gateway's HTML 403): head look-ups, which share the provider's
    // budget, pause on every instance so sign-ins get what is left. A sign-in itself is always tried.
    if (e.reason === "throttled") await backOff(deps, IDENTITY_HEADS, e.waitMs ?? DEFAULT_BACKOFF_MS);
    deps.log.warn("identity provider unavailable", { reason: e.reason, status: e.status, detail: e.message });
    throw new ApiError(
      "identity_unavailable",
      "the identity provider could not confirm the sign-in; try again shortly",
      undefined,
      { "retry-after": "10" },
    );
  }
  if (!answer.joined) throw new ApiError("not_joined", "the identity provider has no join for this name and serverId");
  if (answer.name.toLowerCase() !== body.name.toLowerCase()) {
    deps.log.warn("identity provider confirmed a different name than asked", {
      asked: body.name.length,
      answered: answer.name.length,
    });
    throw new ApiError("not_joined", "the identity provider confirmed a different player than asked");
  }
  return openSession(deps, { uuid: answer.uuid, name: answer.name, zone: body.zone }, device);
}

export async function devSignIn(deps: SignInDeps, body: { uuid: string; name: string; zone: string }, device: string) {
  requireZone(body.zone);
  return openSession(deps, body, device);
}
