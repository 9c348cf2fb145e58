// The shapes a player name takes in game text (contract 1.1 rule 2). Every string that arrives is
// checked against them, outside the fields that are identifiers by contract; ingest refuses a match
// and bug intake replaces it with a pseudonym. A match names its rule, never the text it matched.
export const NAME = "[A-Za-z0-9_]{3,16}";
/** A rank tag as the game prints it: [VIP], [MVP+], [MVP++], [YOUTUBE], [ADMIN], [GM], ... */
export const RANK = "\\[(?:[A-Z][A-Z0-9]{1,11}\\+{0,2}|[A-Z]{1,4}\\+{1,2})\\]";
/** A SkyBlock level in front of a name: [287] */
export const LEVEL = "\\[\\d{1,3}\\]";

export type DenylistRule = { name: string; pattern: RegExp };

export const denylistRules: readonly DenylistRule[] = [
  // "[MVP+] Steve", "[287] [VIP] Alex_99": a rank tag (perhaps after a level) followed by a name.
  { name: "rank_tag", pattern: new RegExp(`(?:${LEVEL} )?${RANK} ?${NAME}\\b`) },
  // "[42] Notch: hello": a bare level tag only before a chat line's name and colon.
  { name: "rank_tag", pattern: new RegExp(`${LEVEL} ${NAME}: `) },
  // "Party > [MVP+] Steve: go", "Guild > Alex [Officer]: hi", "Co-op > ...", "Friend > Steve joined."
  { name: "channel_line", pattern: /(?:^|\n)\s*(?:Party|Guild|Officer|Co-op|Friend|Coop)\s*>\s*\S/ },
  // "From [VIP] Steve: hey", "To Alex: ok"
  { name: "whisper", pattern: new RegExp(`(?:^|\\n)\\s*(?:From|To) (?:${RANK} )?${NAME}: `) },
  // "Steve joined.", "Alex left the party.", "Steve has joined the lobby!"
  { name: "joined_line", pattern: new RegExp(`(?:^|\\n)\\s*(?:${RANK} )?${NAME} (?:has )?(?:joined|left)(?: (?:the|your) (?:lobby|party|guild|game|server))?[.!]`) },
  // A uuid, dashed or not, in free text or in a key segment.
  { name: "uuid", pattern: /(?:^|[^0-9A-Fa-f])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Fa-f])/ },
  { name: "uuid", pattern: /(?:^|[^0-9A-Fa-f])[0-9A-Fa-f]{32}(?![0-9A-Fa-f])/ },
];

/** The rule a text breaks, or undefined when it holds no player-name shape. */
export function denylistMatch(text: string): string | undefined {
  for (const rule of denylistRules) if (rule.pattern.test(text)) return rule.name;
  return undefined;
}

export type DenylistHit = { path: string; rule: string };

/**
 * Walks every string in a value (object values and array items, depth first, in order) and
 * answers the JSON path of the first one that matches. `skip(path)` exempts the fields that are
 * identifiers by contract (uuids, installIds, batchIds, profile ids). A path is spelled out only
 * for a string that matches, so a clean upload of thousands of rows builds none.
 */
export function findDenylisted(value: unknown, skip: (path: string) => boolean = () => false): DenylistHit | undefined {
  const at: (string | number)[] = [];
  const pathOf = () => (at.length ? at.map((p) => `/${typeof p === "number" ? p : p.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("") : "/");
  const walk = (v: unknown): DenylistHit | undefined => {
    if (typeof v === "string") {
      const rule = denylistMatch(v);
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
