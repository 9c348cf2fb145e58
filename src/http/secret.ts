// Secrets the service hands out and takes back. A token is 32 random bytes in base64url; only its
// SHA-256 is stored, so a copy of the database holds nothing that signs anyone in. A presented
// operator secret is compared in constant time.
import { timingSafeEqual } from "node:crypto";

export const randomBase64url = (bytes: number) =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
export const randomHex = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");

export const newToken = () => randomBase64url(32);
export const hashToken = (token: string) => new Bun.CryptoHasher("sha256").update(token).digest("hex");
export const TOKEN_PATTERN = "^[A-Za-z0-9_-]{43}$";

/**
 * A personal access token (src/tokens/) carries this prefix before the same 43 characters: the
 * guards tell it from a device session's token by it, and a leaked one is found by searching for it.
 */
export const PERSONAL_TOKEN_PREFIX = "tly_";
export const newPersonalToken = () => PERSONAL_TOKEN_PREFIX + newToken();
export const PERSONAL_TOKEN_PATTERN = `^${PERSONAL_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`;

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
