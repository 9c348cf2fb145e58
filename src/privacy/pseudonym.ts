// Stable pseudonyms for player names and uuids that slipped into free text: a keyed hash
// (HMAC-SHA256) with a key only the service holds, so one name always becomes one pseudonym and a
// pseudonym cannot be turned back into a name, or tested against a guessed name, without the key.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { keptPseudonymKey } from "./pseudonym.query.ts";

/** Names are case-insensitive in the game; a dashed uuid is the same as its undashed form. */
const canonical = (identity: string) => identity.toLowerCase().replaceAll("-", "");

/** "player-" and 10 hex characters (40 bits of the HMAC): short to read, no name-shaped word after the dash. */
export function pseudonym(key: string, identity: string): string {
  return `player-${new Bun.CryptoHasher("sha256", key).update(canonical(identity)).digest("hex").slice(0, 10)}`;
}

/**
 * The key in use: PSEUDONYM_KEY when set; otherwise one generated at random the first time and
 * kept in service_meta, so every instance and every restart uses the same one.
 */
export function pseudonymKey(deps: { db: Db; clock: Clock; config: { pseudonymKey: string } }): Promise<string> {
  if (deps.config.pseudonymKey) return Promise.resolve(deps.config.pseudonymKey);
  const fresh = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  return keptPseudonymKey(deps.db, fresh, deps.clock.now());
}

/** pseudonymKey, asked of the database once per process (a failed read is tried again next time). */
export function cachedPseudonymKey(deps: Parameters<typeof pseudonymKey>[0]): () => Promise<string> {
  let key: Promise<string> | undefined;
  return () => {
    key ??= pseudonymKey(deps).catch((e) => {
      key = undefined;
      throw e;
    });
    return key;
  };
}
