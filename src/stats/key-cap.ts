// The cap of distinct keys per profile (issue 22). Keys such as loot.item.<ITEM_ID> are open-ended:
// without a cap one account could grow its page and every upload without bound. An upload that would
// take a profile past STATS_MAX_KEYS_PER_PROFILE keeps every row of a key the profile already holds
// and of new keys up to the cap (in key order), and refuses the rows of the other new keys, counted by
// day under the code too_many_keys with a warning that names the cap: nothing is lost silently, and
// the rest of the upload is never held back by them (docs/decisions.md "Per-profile key budget value").
// What it costs: the usual upload repeats the key set its account last sent, and reads only that
// set's kept digest; another set counts the profile's keys; only a set that might not fit probes
// each of its keys.
import type { Db } from "../db/database.ts";
import { freshKeys, heldKeyCount, setHeldDigest } from "./key-cap.query.ts";

type Row = { profileId: string; key: string; day: string };

export type KeyCap = {
  /** Whether a row is refused (its key is new to its profile and past the cap). */
  refuses(row: Row): boolean;
  /** How many keys were refused, and the first of them (at most 10, in key order). */
  count: number;
  first: string[];
  /** The digest of the upload's (profile, key) set to keep for the next upload, when it changed and none was refused. */
  heldDigest: string | null;
};

/**
 * The digest of an upload's (profile, key) set in the upload's order (the mod sends its keys in the
 * same order each time; another order only costs the probes). Not sorted: 10 000 keys took 10 ms.
 */
function digestOf(keysOf: Map<string, Set<string>>): string {
  // One string hashed once: the same bytes as a hash update per key, at a fifth of the cost.
  const parts: string[] = [];
  for (const [profileId, keys] of keysOf) {
    parts.push(`${profileId}\n`);
    for (const key of keys) parts.push(`\t${key}\n`);
  }
  return new Bun.CryptoHasher("sha256").update(parts.join("")).digest("base64");
}

const byBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Which of these rows the cap refuses (see the file's head); `max` is the cap per profile, `held` the
 * digest of the key set the account last held whole (its mark's, readMark).
 */
export async function capKeys(tx: Db, uuid: string, max: number, rows: Row[], held: string | null): Promise<KeyCap> {
  const keysOf = new Map<string, Set<string>>();
  for (const r of rows) {
    let keys = keysOf.get(r.profileId);
    if (!keys) keysOf.set(r.profileId, (keys = new Set()));
    keys.add(r.key);
  }
  const refused = new Map<string, Set<string>>();
  let count = 0;
  const first: string[] = [];
  const digest = digestOf(keysOf);
  if (keysOf.size === 0 || held === digest) return { refuses: () => false, count, first, heldDigest: null };
  for (const [profileId, keys] of keysOf) {
    // A profile with room for every key of the upload, new or not, needs no probe of them.
    const held = await heldKeyCount(tx, uuid, profileId);
    if (held + keys.size <= max) continue;
    const fresh = await freshKeys(tx, uuid, profileId, [...keys]);
    const room = Math.max(0, max - held);
    if (fresh.length <= room) continue;
    const over = fresh.sort(byBytes).slice(room);
    refused.set(profileId, new Set(over));
    count += over.length;
    first.push(...over.slice(0, 10 - first.length));
  }
  return {
    refuses: (r) => refused.get(r.profileId)?.has(r.key) ?? false,
    count,
    first,
    heldDigest: count === 0 ? digest : null,
  };
}

/** The refusal's warning: names the cap, its setting, how many keys and the first of them. */
export function keyCapWarning(cap: KeyCap, max: number) {
  const more = cap.count > cap.first.length ? `, and ${cap.count - cap.first.length} more` : "";
  return {
    code: "too_many_keys" as const,
    key: cap.first[0],
    message: `a profile holds at most ${max} distinct keys (STATS_MAX_KEYS_PER_PROFILE); the rows of ${cap.count} new key${cap.count === 1 ? "" : "s"} were refused too_many_keys: ${cap.first.join(", ")}${more}`,
  };
}

/** Once the upload's rows are written: keeps its key set's digest for the next upload, when capKeys gave one. */
export async function keepHeldDigest(tx: Db, uuid: string, cap: KeyCap) {
  if (cap.heldDigest) await setHeldDigest(tx, uuid, cap.heldDigest);
}

/**
 * Which of `keys` the account holds in any of `profileIds` (its profiles and its own scope): a
 * player's headline choice names only keys the catalogue or the account knows. A few primary-key
 * probes per profile and key (freshKeys), whatever the account holds.
 */
export async function heldKeys(db: Db, uuid: string, profileIds: string[], keys: string[]): Promise<Set<string>> {
  const held = new Set<string>();
  for (const profileId of profileIds) {
    const open = keys.filter((k) => !held.has(k));
    if (open.length === 0) break;
    const fresh = new Set(await freshKeys(db, uuid, profileId, open));
    for (const k of open) if (!fresh.has(k)) held.add(k);
  }
  return held;
}
