// Secrets the service hands out. A token is 32 random bytes in base64url; only its SHA-256 is
// stored, so a copy of the database holds nothing that signs anyone in.
const randomBase64url = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
const randomHex = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");

export const newToken = () => randomBase64url(32);
export const hashToken = (token: string) => new Bun.CryptoHasher("sha256").update(token).digest("hex");
/** A device session id: 24 hex characters, so it is never mistaken for a uuid. */
export const newSessionId = () => randomHex(12);
/** A serverId for the identity provider's join: 40 hex characters, like the game's own. */
export const newServerId = () => randomHex(20);
/** A share key for /s/<key>: 32 base64url characters. */
export const newShareKey = () => randomBase64url(24);

export const TOKEN_PATTERN = "^[A-Za-z0-9_-]{43}$";
export const SESSION_ID_PATTERN = "^[0-9a-f]{24}$";
export const SERVER_ID_PATTERN = "^[0-9a-f]{40}$";
