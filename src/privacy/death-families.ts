// Vanilla death messages (issue 36, deaths in server and client logs): the game's own set of death
// keys (`death.attack.*`, `death.fell.*`, a published, closed set) read by their structure. The
// victim is the clause's subject behind any log prefix or lead-in (CLAUSE_START), whatever follows
// the key (a mob of two words: "X was slain by Piglin Brute"); the killer is the name after the
// key's "by", "whilst fighting", "trying to escape" or "a skull from", wherever the key stands (a
// villager's or a named mob's death told inside a console line: "Villager ..['Mason'/1] died,
// message: 'Mason was slain by X'"). A mob is not a player: the killer and the victim are read with
// `speaker: true`, so a mob's name (SYSTEM_WORDS) drops the match and "Zombie was slain by Skeleton"
// stays as it is. Intransitive keys ("drowned", "fell from a high place") are clause-families.ts'.

import { CLAUSE_START, NAME, P, rule, type Family } from "./shapes.ts";

/** A log's id after a name: "zyx123 (2f6e) was slain". */
const ID_AFTER = "(?: \\([0-9A-Fa-f-]{1,36}\\))?";

/** What follows a killer: the line's end, a stop, a quote, the weapon, or the next clause. */
const KILLER_END = "[ \\t]{0,4}$|[.!,;:'\"(]|'s |[ \\t](?:using|with|whilst|while|and|FINAL)\\b";

/**
 * The death keys with a player as their subject that clause-families.ts' PERSON_PREDICATE does not
 * already hold, and the passives a plugin's death message adds: "X was squished too much", "X was
 * roasted in dragon's breath", "X was impaled on a stalagmite", "X was doomed to fall", "X was
 * killed", "X was struck by lightning", "X was slain by Piglin Brute".
 */
const DEATH_KEY =
  "was (?:squished too much|roasted in dragon|impaled on|doomed to fall|killed(?=[ \\t]{0,4}$|[.!])|struck by lightning|" +
  "obliterated by|skewered by|pricked to death|stung to death|poked to death|frozen to death|burnt to a crisp|" +
  "burned to a crisp|slain by|shot by|killed by|blown up by|fireballed by|pummeled by|squashed by|impaled by|" +
  "blown from a high place|shot off|knocked (?:off|into)|killed trying to hurt)|has died\\b|died (?:from|because of|in)\\b";

/** The words before a killer in a death key, from the set: "was slain by X", "whilst fighting X", "a skull from X". */
const KILLER_LEAD =
  "(?:was (?:slain|shot|killed|blown up|fireballed|pummeled|squashed|impaled|doomed to fall|frozen to death|stung to death|" +
  "skewered|struck|obliterated|knocked into the void|knocked off a high place|blown from a high place|shot off (?:some vines|a ladder)) by|" +
  "whil(?:e|st) (?:fighting|trying to escape)|trying to escape|a skull from|finished by|died because of|killed trying to hurt)";

/**
 * A minigame's kill line (issue 36, Hypixel's Bed Wars and SkyWars kill messages, hundreds of themed
 * wordings): the victim at the line's start, a verb of the kill (was, had, hit, took, fought, ...), and the killer as the last word
 * before the closing stop, after a preposition, perhaps with the killer's own thing ("by Y's Golem.")
 * and the "FINAL KILL!" mark: "X was hit with a snowball from Y.", "X took the L to Y.", "X's heart was
 * pierced by Y. FINAL KILL!", "X was Y's final #12.".
 */
const KILL_TAIL =
  "(?:(?:[a-z][A-Za-z' -]{1,60}? )?was (?<name2>[A-Za-z0-9_]{3,16})'s final #[0-9,]{1,9}|" +
  "(?:was|were|had|hit|took|fought|howled|got|slipped|stumbled|tripped|fell|became) [A-Za-z' -]{1,60}? (?:by|from|to|for|with|against|of|meet|fighting|escape) (?<name3>[A-Za-z0-9_]{3,16})(?:'s [A-Za-z ]{2,30}?)?)" +
  "(?:\\.(?: FINAL KILL!)?| FINAL KILL!)[ \\t]{0,4}$";

export const death: Family = {
  family: "death",
  gate: / was | died|whil|escape|skull from|finished by|hurt |\.$|KILL!/m,
  doc: "Vanilla death messages behind any log prefix: X was squished too much, X was slain by Piglin Brute, [12:00:01] X was doomed to fall, ..died, message: 'Mason was slain by X'",
  rules: [
    rule(`${CLAUSE_START}${P}${ID_AFTER} (?:${DEATH_KEY})`, { speaker: true }),
    // Looked for by its key first, then the killer: the key's literal words start every match.
    rule(`(?<![A-Za-z])${KILLER_LEAD} (?<name>${NAME})${ID_AFTER}(?=${KILLER_END})`, { speaker: true }),
    rule(`${CLAUSE_START}${P}(?:'s [a-z]{2,12})? ${KILL_TAIL}`, { speaker: true }),
  ],
  examples: [
    ["[02:15:03] [Server thread/INFO]: Harmonia was squished too much", ["Harmonia"]],
    ["Harmonia was slain by Piglin Brute", ["Harmonia"]],
    ["Harmonia was shot by a skull from Nebulous", ["Nebulous"]],
    ["Harmonia took the L to Nebulous.", ["Harmonia", "Nebulous"]],
    [
      "[10:00:10] [Server thread/INFO]: Villager Villager['Mason'/41901, l='ServerLevel[world]', x=1.50, y=64.00, z=2.50] died, message: 'Mason was slain by Rookwood'",
      ["Rookwood"],
    ],
  ],
};
