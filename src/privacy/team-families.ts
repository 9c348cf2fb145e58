// Teammates at play: dungeon mechanics, deaths and revives, parties, and any teammate's action by
// its structure. Name families (see families.ts for how a rule is written).

import { anyOf, EMBLEM, NAME, P, P2, RANK_TAG, rule, START, type Family, atLineStart } from "./shapes.ts";

export const dungeon: Family = {
  family: "dungeon",
  gate: anyOf(
    "activated a",
    "completed a",
    "has obtained",
    "picked up",
    "healed",
    "formed a tether",
    "granted you",
    "opened a",
    "was killed",
    "revived",
    "reconnected",
    "disconnected",
    "fell",
    "burnt",
    "burned",
    "suffocated",
    "drowned",
    "died",
    "became a ghost",
    "ready",
    "found",
    "tied ",
    "wasn't fooled",
    "killed by",
    "splashed by",
    "tether with",
    "teleported to",
    "used ",
    "PUZZLE",
    "DUNGEON BUFF",
    "answered",
    "wrong answer",
    "Kicked ",
    "☠",
    "❣",
    "your friend",
    "Archer",
    "Berserk",
    "Healer",
    "Mage",
    "Tank",
    "countdown",
    "Leap",
  ),
  doc: "Teammates in dungeons: levers, terminals, devices, doors, keys, deaths and revives, puzzles, blessings, trivia",
  rules: [
    rule(
      `${START}(?:[☠❣] )?${P}(?:'s)? (?:activated a|completed a|has obtained|picked up|healed you|fairy healed|formed a tether|granted you|opened a|was killed|was revived|` +
        `revived|has revived|reconnected|disconnected|fell|burnt|burned|suffocated|drowned|died|became a ghost|is now ready|` +
        `is no longer ready|found a|has found|tied |wasn't fooled|has started the dungeon countdown)`,
    ),
    rule(
      `(?:revived by|was killed by|killed by|Revived by|splashed by|health by|healed by|tether with|teleported to) ${P}`,
    ),
    rule(`${START}${P} used [^\\n]{1,40}? on you`),
    rule(`${atLineStart("PUZZLE (?:SOLVED|FAIL)! ")}${P} `),
    rule(`${atLineStart("DUNGEON BUFF! ")}${P} found`),
    rule(`: ${P} (?:answered (?:Question #\\d|the final question)|chose the wrong answer)`),
    rule(`${atLineStart("Kicked ")}${P} because they were offline`),
    // A death or revive line: the sign marks it, whatever the cause's wording; the first word
    // after the sign is a player (or "You"), and so is the one after "by".
    rule(`${START}[☠❣] ${P}`, { speaker: true }),
    rule(`[☠❣] [^\n]{1,80}? by ${P}`, { speaker: true }),
    rule(`(?:revive|heal|healed|save|saved) your friend ${P}`),
    // Whom a teammate leapt to, as the leap mods announce it in party chat (issue 36): "Party > [MVP+]
    // X: Leaped to Y!", "Leaping to Y", "[Skyblocker] Leaped to Y!". Not a place of the boss fight
    // a mod names the same way ("Leaped to ee3!", "Leaping to core").
    rule(
      `(?:: |\\] )(?:Leaped|Leaping|Leapt) to (?![Ee][Ee][1-4]\\b|[Cc]ore\\b|[Ss]tairs\\b|[Dd]evice\\b|[Mm]id\\b|[Tt]unnel\\b)${P}(?=[ \\t]{0,4}$|[.!])`,
      { speaker: true },
    ),
    // A party member as the Party Finder lists them: " Name: Mage (34)".
    rule(`${START}${P}: (?:Archer|Berserk|Healer|Mage|Tank) \\(\\d`),
  ],
  examples: [
    ["§bmartimavocado§r§a activated a lever! (§r§c7§r§a/7)", ["martimavocado"]],
    ["§c ☠ §r§7§r§bZeroHazel§r§7 was killed by §r§8§lAshfang§r§7§r§7.", ["ZeroHazel"]],
  ],
};

export const party: Family = {
  family: "party",
  gate: anyOf(
    "●",
    "Finder",
    "Party",
    "partying",
    "party",
    "invited",
    "disbanded",
    "removed",
    "has left",
    "joined",
    "disconnected",
    "promoted",
    "demoted",
    "warped",
    "summoned you",
    "is not online",
    "rejoined",
    "transferred",
    "kicked",
  ),
  doc: "Party Finder joins, invites, leaders and members, transfers, removals, disbands, warps",
  rules: [
    rule(`${START}(?:Party|Dungeon) Finder > ${P} (?:joined|set|left|has)`),
    rule(atLineStart("You'll be partying with: "), { list: true }),
    // A list without a heading on its line (the guild's online list under its rank heading):
    // names each followed by "●".
    rule(`${START}${EMBLEM}?(?:(?<rank>${RANK_TAG}) ?)?(?<name>${NAME}) {1,2}●`, { list: true }),
    rule(`${atLineStart("You have joined ")}${P}'s? party`),
    rule(
      `${START}${P} (?:invited|has invited you|has disbanded|has been removed|was removed|has left|left the party|joined the party|` +
        `has disconnected|has promoted|has demoted|warped|summoned you|has joined|is not online|has rejoined)`,
    ),
    rule(`invited ${P} to the party`),
    rule(`${atLineStart("The party was transferred to ")}${P}(?: (?:by|because) ${P2})?`),
    rule(`${START}${P} has (?:promoted|demoted) ${P2}`),
    rule(`${START}The party leader, ${P}`),
    // Without "The", a player's own sentence opens so too ("Party leader shown wrong" as a report's
    // title): the game's line goes on with its verb.
    rule(`${START}Party leader ${P}(?= has | is | was |,)`),
    rule(`${atLineStart("You have been kicked from the party by ")}${P}`),
  ],
  examples: [
    ["Party Finder > nea89o joined the dungeon group! (Mage Level 34)", ["nea89o"]],
    ["Party Members: [VIP] Alex_99 ● Steve ● lrg89 ●", ["Alex_99", "Steve", "lrg89"]],
  ],
};

export const action: Family = {
  family: "action",
  gate: /ed /,
  doc: "A player's action by its structure, whatever the mechanic: X recovered one of Elle's supplies! (3/6), X dropped Elle's supplies back into the lava! Oops!",
  rules: [
    // A teammate's action by its structure, whatever the mechanic (new floors, Kuudra, Slayer):
    // a line that opens with a player and a verb in the past tense, "X recovered one of ...",
    // "X dropped Elle's supplies ...!", "X has repaired the ...!": a player, a verb in the past
    // tense, an object, and the exclamation every such broadcast ends with (the verbs above are
    // this shape's known cases). Lore sentences have no "!" after such an opening; a system word
    // in the subject's place drops it.
    rule(
      `${START}${P} (?:has |had |was )?[a-z]{2,20}ed (?:one of|a|an|the|their|some|all|[A-Z][a-z']{1,20})(?![A-Za-z])[^\\n]{0,120}?!`,
      { speaker: true },
    ),
  ],
  examples: [["Alex_99 recovered one of Elle's supplies! (3/6)", ["Alex_99"]]],
};

/**
 * A label naming a player (issue 36): a boss's name tag "Spawned by: X", and any "Word by: X" label
 * (the colon makes it a label, not a sentence), "Summoned by: X".
 */
export const label: Family = {
  family: "label",
  gate: / by: /,
  doc: "A label naming a player: a Slayer boss's Spawned by: X, Summoned by: X",
  rules: [rule(`${START}(?!Caused )[A-Z][a-z]{2,12} by: ${P}(?!\\.[A-Za-z])`)],
  examples: [["§7Spawned by: §bAlex_99", ["Alex_99"]]],
};
