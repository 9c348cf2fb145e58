// Labels a person reads (issue 34): where the catalogue gives none, a readable rendering of the key.
//   item ids      ENCHANTED_GOLD -> "Enchanted Gold" (the game's own name first, when the item list has it)
//   pets          PET;ENDER_DRAGON;4 -> "Ender Dragon (Legendary)"
//   other ids     crimson_isle -> "Crimson Isle", combat_3 -> "Combat 3"
//   unknown keys  mining.skill.xp -> "Mining skill xp" (the namespace's label kept, so the four
//                 "<skill>.skill.xp" keys never read the same)
// Two keys of one list that still read the same get their key after the label (distinctLabels).

/**
 * Pet rarities by the digit after the pet's id, as the community's item repository writes pets
 * (NotEnoughUpdates-REPO: ENDER_DRAGON;3 is the epic pet, ENDER_DRAGON;4 the legendary one, SCATHA;2
 * the rare one); the order is the game's tiers, COMMON to MYTHIC (docs/decisions.md).
 */
export const PET_RARITIES = ["Common", "Uncommon", "Rare", "Epic", "Legendary", "Mythic"] as const;

const PET = /^PET;([A-Z0-9_]{1,48});([0-5])$/;

/** "ENCHANTED_GOLD" -> "Enchanted Gold": each word capitalised, the rest lower-case. */
export function titleWords(id: string): string {
  return id
    .split(/[_;:+#-]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join(" ");
}

/** A pet's name and rarity in words ("Ender Dragon (Legendary)"); undefined if the id is no pet. */
export function petName(id: string): string | undefined {
  const m = PET.exec(id);
  return m ? `${titleWords(m[1]!)} (${PET_RARITIES[Number(m[2])]})` : undefined;
}

/** An id in a key as words: a pet by name and rarity, else title case ("crimson_isle" -> "Crimson Isle"). */
export function readableSegment(segment: string): string {
  return petName(segment) ?? titleWords(segment);
}

/**
 * A label made from a key the catalogue does not know: the namespace's label (the catalogue's,
 * else the namespace itself), then the rest in words: "mining.skill.xp" -> "Mining skill xp".
 */
export function labelFromKey(key: string, namespaceLabel?: string): string {
  const [namespace, ...rest] = key.split(".");
  const words = rest.map((s) => (/[A-Z]/.test(s) ? readableSegment(s) : s.replace(/[_;:+#-]+/g, " ").trim())).join(" ");
  const head = namespaceLabel ?? readableSegment(namespace ?? key);
  return words ? `${head} ${words}` : head;
}

/** Labels of one list made distinct: two keys that read the same both get their key in brackets. */
export function distinctLabels<T extends { key: string; label: string }>(list: T[]): T[] {
  const seen = new Map<string, number>();
  for (const f of list) seen.set(f.label, (seen.get(f.label) ?? 0) + 1);
  return list.map((f) => ((seen.get(f.label) ?? 0) > 1 ? { ...f, label: `${f.label} (${f.key})` } : f));
}
