// The shapes a player name takes in game text (contract 1.1 rule 2). Every string that arrives is
// checked against them, outside the fields that are identifiers by contract; ingest refuses a match
// and bug intake replaces it with a pseudonym. A match names its family (families.ts) or "uuid",
// never the text it matched.
import { firstNameFamily } from "./find.ts";
import { profileLinkNames } from "./links.ts";
import { normalise } from "./normalise.ts";
import { unknownWordSpans } from "./unknown-words.ts";
export type DenylistRule = { name: string; pattern: RegExp };

/** Uuids, dashed or not, in free text or in a key segment (read on the text as it came). */
export const uuidRules: readonly DenylistRule[] = [
  {
    name: "uuid",
    pattern:
      /(?:^|[^0-9A-Fa-f])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Fa-f])/,
  },
  { name: "uuid", pattern: /(?:^|[^0-9A-Fa-f])[0-9A-Fa-f]{32}(?![0-9A-Fa-f])/ },
];

/**
 * `unknownWords`: the structure-free layer (unknown-words.ts, PRIVACY_UNKNOWN_WORDS) also reads a
 * text of several words: a word with a name's marks nothing knows, or an unknown word where a person
 * stands (person-place.ts), is a name (issue 36). A text of one word (a key, a version, an id) is left to the families:
 * no field of an upload carries sentences, so only free text that should not be there is refused.
 */
export type DenylistOptions = { unknownWords?: boolean };

/** The rule a text breaks, or undefined when it holds no player-name shape. */
export function denylistMatch(text: string, options: DenylistOptions = {}): string | undefined {
  const family = firstNameFamily(text);
  if (family) return family;
  // Both uuid shapes hold 32 hex digits at least: a shorter text (most counter keys) holds neither.
  if (text.length >= 32) for (const rule of uuidRules) if (rule.pattern.test(text)) return rule.name;
  if (text.includes("/") && profileLinkNames(text).length > 0) return "profile_link";
  if (options.unknownWords && /\S\s+\S/.test(text) && unknownWordSpans(normalise(text).plain).length > 0)
    return "unknown_word";
  return undefined;
}

export type DenylistHit = { path: string; rule: string };

/**
 * Walks every string in a value (object values and array items, depth first, in order) and
 * answers the JSON path of the first one that matches. `skip(path)` exempts the fields that are
 * identifiers by contract (uuids, installIds, batchIds, profile ids). A path is spelled out only
 * for a string that matches, so a clean upload of thousands of rows builds none.
 */
export function findDenylisted(
  value: unknown,
  skip: (path: string) => boolean = () => false,
  options: DenylistOptions = {},
): DenylistHit | undefined {
  const at: (string | number)[] = [];
  const pathOf = () =>
    at.length
      ? at.map((p) => `/${typeof p === "number" ? p : p.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("")
      : "/";
  const walk = (v: unknown): DenylistHit | undefined => {
    if (typeof v === "string") {
      const rule = denylistMatch(v, options);
      if (!rule) return undefined;
      const path = pathOf();
      return skip(path) ? undefined : { path, rule };
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        at.push(i);
        const hit = walk(v[i]);
        at.pop();
        if (hit) return hit;
      }
    } else if (v && typeof v === "object") {
      for (const k in v) {
        at.push(k);
        const hit = walk((v as Record<string, unknown>)[k]);
        at.pop();
        if (hit) return hit;
      }
    }
    return undefined;
  };
  return walk(value);
}
