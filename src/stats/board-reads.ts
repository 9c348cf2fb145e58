// What the boards module reads of the statistics (issue 35), so it never names a stats table:
// the keys of a profile under a key prefix, the fold of given keys over calendar windows, and the
// lifetime figures. All of them are the fold the player's own pages show.
import type { Db } from "../db/database.ts";
import { profileKeysWithPrefix, windowRows, type Window } from "./periods.query.ts";

export { keysWithLifetime } from "./fold.ts";
export type { Window };

/** Keys of one profile (closed or open days) starting with `prefix`, at most `limit`, in byte order. */
export const keysWithPrefix = profileKeysWithPrefix;

/** Per window and key: the key's fold over the window's days (absent when it has none). */
export async function windowFolds(db: Db, uuid: string, profileId: string, windows: Window[], keys: string[]) {
  if (windows.length === 0 || keys.length === 0) return [];
  const found = await windowRows(db, uuid, profileId, windows, keys);
  return found.map((r) => ({ window: r.window, key: r.key, kind: r.kind, value: BigInt(r.value) }));
}
