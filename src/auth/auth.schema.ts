// Bodies and answers of the account check, development sign-in and device sessions.
import { Type as T } from "@sinclair/typebox";
import { SERVER_ID_PATTERN, SESSION_ID_PATTERN } from "./tokens.ts";

const strict = { additionalProperties: false } as const;
const Epoch = T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
export const Uuid = T.String({ pattern: "^[0-9a-f]{32}$" });
/** A game account name: 3 to 16 of [A-Za-z0-9_]. */
export const PlayerName = T.String({ pattern: "^[A-Za-z0-9_]{3,16}$" });
const Zone = T.String({ minLength: 1, maxLength: 64 });

export const ChallengeBody = T.Optional(T.Object({}, strict));
export const ChallengeAnswer = T.Object(
  { serverId: T.String({ pattern: SERVER_ID_PATTERN }), expiresAt: Epoch },
  strict,
);

export const VerifyBody = T.Object({ serverId: T.String({ maxLength: 64 }), name: PlayerName, zone: Zone }, strict);
export const DevSignInBody = T.Object({ uuid: Uuid, name: PlayerName, zone: Zone }, strict);

export const SignInAnswer = T.Object(
  {
    token: T.String(),
    expiresAt: Epoch,
    uuid: Uuid,
    name: T.String(),
    sessionId: T.String({ pattern: SESSION_ID_PATTERN }),
  },
  strict,
);

export const SessionInfo = T.Object(
  {
    id: T.String({ pattern: SESSION_ID_PATTERN }),
    device: T.String(),
    createdAt: Epoch,
    lastSeenAt: Epoch,
    expiresAt: Epoch,
    current: T.Boolean(),
  },
  strict,
);

export const CurrentSessionAnswer = T.Object(
  { uuid: Uuid, name: T.String(), zone: T.String(), session: SessionInfo },
  strict,
);
export const SessionsAnswer = T.Object({ sessions: T.Array(SessionInfo) }, strict);
export const SignedOutAnswer = T.Object({ signedOut: T.Integer({ minimum: 0 }) }, strict);
export const SessionIdParams = T.Object({ id: T.String({ pattern: SESSION_ID_PATTERN }) }, strict);
