// The ids sign-in hands out (session tokens themselves are made in http/secret.ts).
import { randomHex } from "../http/secret.ts";

/** A device session id: 24 hex characters, so it is never mistaken for a uuid. */
export const newSessionId = () => randomHex(12);
/** A serverId for the identity provider's join: 40 hex characters, like the game's own. */
export const newServerId = () => randomHex(20);

export const SESSION_ID_PATTERN = "^[0-9a-f]{24}$";
export const SERVER_ID_PATTERN = "^[0-9a-f]{40}$";
