// Servers other than Hypixel (issue 36, seventh batch): a player as the subject of a clause at a
// line's start, whatever lead-in the server puts before it, and the player an action was done by.
// Name families (see families.ts for how a rule is written). A server without ranks, channels or a
// level prints a bare "Name verb ...": the structure is the clause (a line's first word before a
// verb phrase only a person is the subject of), not the server's words.

import { anyOf, CLAUSE_LEAD, CLAUSE_START, NAME, P, P2, rule, START, SUBJECT, type Family } from "./shapes.ts";

/**
 * After a "Player" label: a word in lower case ("Player X muted.", "Player X has been added"), or
 * the clause's end when the word looks like a name (a digit, an underscore or a lower-case start:
 * "Loading player x_99."). Not a colon ("Player Stats: .." is a heading) nor a capitalised word
 * alone before a stop ("Player Invited!" is a headline).
 */
const AFTER_LABEL =
  "(?='? [a-z(]|(?<=[0-9_][A-Za-z0-9_]{0,15}|[^A-Za-z0-9_][a-z][A-Za-z0-9_]{0,15})[.!,]?[ \\t]{0,4}(?:$|[.!,]))";
/** A verb or an adverb straight after "Player": the word is the sentence's noun, not a label ("Player was not found"). */
const VERB_AFTER_NOUN =
  "(?:was|were|are|will|would|could|should|must|can|cannot|does|did|may|might|already|successfully|also|still|not|now)(?![A-Za-z0-9_])";

/** What follows a doer: the line's end, a stop, or the instrument, reason or cause. */
const DOER_END = "[ \\t]{0,4}$|[.!,;:(]|'s |[ \\t](?:using|with|wielding|for|from|while|because|[Rr]eason)\\b";

/** A log's id after a name: "zyx123 (2f6e) was kicked". */
const ID_AFTER = "(?: \\([0-9A-Fa-f-]{1,36}\\))?";

/**
 * Verb phrases only a person is the subject of, by their kind: a state (away), a request to you, a
 * visit of a server (joined, left), a milestone, and how a player died (the game's own death
 * messages, a published set, and the plugins' "was killed by").
 */
const PERSON_PREDICATE =
  "is (?:now |no longer |not |currently )?(?:AFK|afk)|is not AFK|" +
  "whispers to you|wants (?:to teleport|you to teleport)|has requested (?:to teleport|that you teleport)|" +
  "(?:sent|has sent) you a (?:teleport|tpa|TPA) request|" +
  "(?:has |have )?(?:joined|left|quit) the (?:server|game|network)|" +
  "has (?:completed|made|reached) the (?:advancement|goal|challenge)|" +
  "died|drowned|starved|froze to death|burned to death|blew up|withered away|suffocated|" +
  "fell (?:from|off|out|too|while)|hit the ground|went (?:up in flames|off with a bang)|tried to swim|walked into|" +
  "experienced kinetic|discovered the floor|didn't want to live|left the confines|took their own life|" +
  // A standing in a group, which only a person has: "X is now the island owner!", "X is no longer a
  // coop member of your island.", "X has been kicked from Y's island.", "X joined your island!",
  // "X banned you from their island!"
  "is an unknown player|is (?:not |already |now |no longer )?(?:(?:the|an?) (?:[A-Za-z-]{2,12} )?(?:[Oo]wner|[Mm]ember|[Oo]perator)|(?:the )?[Ll]eader of|banned|unbanned|trusted|whitelisted|blacklisted)|" +
  // What only a person tries or is spared (issue 36, island plugins): "X tried to kick you from their
  // island!", "X tried to take over the island!", "X is exempt from being banned.", "X is warping to your island!"
  "tried to [a-z]{2,12} (?:you|your)\\b|tried to take over|is exempt from|is (?:now )?warping to|" +
  "(?:changed|activated|deactivated|locked|unlocked) the island\\b|" +
  // An answer to an invitation or a request, which only its receiver gives: "X accepted your invite.",
  // "X has denied your invite.", "X didn't respond to your invite in time."
  "(?:has )?(?:accepted|denied|declined|rejected|ignored) (?:your|the) (?:[a-z-]{2,12} )?(?:invite|invitation|request)|(?:didn't|did not) respond to your|" +
  // A punishment's target, done or refused, without its doer (issue 36, moderation plugins): "X was
  // successfully kicked!", "X has already been muted!", "X is not banned!", "X has no warnings yet".
  "(?:was|got|has been|has already been|had been|is|is not|isn't|is already|is now) (?:successfully |already |temporarily |permanently )?(?:temp-?|ip-?)?" +
  "(?:banned|unbanned|muted|unmuted|kicked|warned|unwarned|noted|unnoted|jailed|unjailed|frozen|unfrozen)(?![A-Za-z])|" +
  "has no (?:[a-z]{2,12} )?(?:warnings|warns|notes|punishments|history|bans|mutes|infractions)\\b|" +
  // Who ended a fight, as a boss's damage list names them: "X dealt the final blow."
  "dealt the (?:final|last) blow|" +
  "has been (?:added|kicked|removed|banned|expelled|invited|promoted|demoted) (?:to|from)|" +
  "(?:has )?(?:joined|left) (?:your|his|her|their) |rejected your|(?:has )?(?:banned|unbanned|expelled|kicked|invited|cooped|trusted|removed) you\\b";

export const clause: Family = {
  family: "clause",
  gate: anyOf(
    "layer ",
    "fighting",
    "escape",
    "formerly known as",
    " was ",
    " were ",
    " got ",
    "AFK",
    "afk",
    "whispers to you",
    "wants ",
    "has requested",
    "sent you a",
    "joined the",
    "left the",
    "quit the",
    "has completed",
    "has made",
    "has reached",
    "died",
    "drowned",
    "starved",
    "froze",
    "burned",
    "blew up",
    "withered",
    "suffocated",
    "fell ",
    "hit the ground",
    "went ",
    "tried to",
    "walked into",
    "experienced",
    "discovered",
    "didn't want",
    "confines",
    "own life",
    "owner",
    "member",
    "banned",
    "trusted",
    "unknown player",
    "has been",
    "joined your",
    "left your",
    "rejected",
    "accepted",
    "denied",
    "declined",
    "ignored",
    "respond to",
    "final blow",
    "warn",
    "noted",
    "jailed",
    "frozen",
    "kicked",
    "muted",
    "has no",
    "last blow",
    "whitelisted",
    "blacklisted",
    "Owner",
    "Member",
    "perator",
    "eader of",
    "tried to",
    "exempt",
    "warping",
    "the island",
    "ed you",
  ),
  doc: "A player as a clause's subject at a line's start on any server: X is now AFK., ⏩ X has joined the server., KICK: X was kicked by Y, X was slain by Y using [Bow], X drowned",
  rules: [
    rule(`${CLAUSE_START}${P}${ID_AFTER} (?:${PERSON_PREDICATE})\\b`, { speaker: true }),
    // A "Player" label names whoever follows it, whatever the verb (issue 36, server plugins): at a
    // line's start ("Player X muted for 1 hour.", "Player X has been added to team red.", "The
    // player 'X' connected"), and inside a sentence when the word has a capital or a digit ("You
    // ignore player Jeremy from now on.", "Disconnecting player X_2: timed out"). A lower-case word
    // there is more often a noun ("player data", "player list") and is not read mid-line.
    rule(
      `layer '?(?<=${CLAUSE_LEAD}(?:[Tt]he )?[Pp]layer '?)(?!${VERB_AFTER_NOUN})(?<name>${NAME})${ID_AFTER}${AFTER_LABEL}`,
      {
        speaker: true,
      },
    ),
    // Whoever did what the label's clause tells, named after "by" at its end ("Player X was banned
    // by Y.", "Player X jailed for 2 hours by Y.").
    rule(
      `layer '?(?<=${CLAUSE_LEAD}(?:[Tt]he )?[Pp]layer '?)${NAME}'? [a-z][A-Za-z0-9' -]{1,60}? by ${P2}(?=${DOER_END})`,
      { speaker: true },
    ),
    // A player's former name, as the game prints a renamed player joining: "X (formerly known as Y) joined the game".
    rule(`\\(formerly known as ${P}\\)`),
    rule(
      `\\(formerly known as (?<=${CLAUSE_START}${SUBJECT} \\(formerly known as )[A-Za-z0-9_]{3,16}\\) (?:joined|left)\\b`,
      {
        speaker: true,
      },
    ),
    rule(`player '?(?<=(?<![A-Za-z])player '?)(?<name>(?=[A-Za-z0-9_]{0,15}[A-Z0-9_])${NAME})${AFTER_LABEL}`, {
      speaker: true,
    }),
    // A passive of something done to a player, and by whom: "X was shot by Y using a AK47", "X was
    // bashed to death by Y", "X (2f6e) was kicked by Y (91ab)". The doer is read only when it is a
    // name, not an article ("by a Zombie").
    rule(
      `${CLAUSE_START}${P}${ID_AFTER} (?:was|were|got|has been|had been) [A-Za-z' -]{2,60}?(?: by (?:(?:a|an|the) |${P2}${ID_AFTER}(?=${DOER_END}))|(?= using | with | while | to death(?! by)))`,
      { speaker: true },
    ),
    // A death told of a player's body part, and by whom (issue 36, death-message plugins): "X's skull was
    // crushed by Y's shield", "X's face was torn off by Y.", "X's vital organs were ruptured by a Zombie."
    rule(
      `${CLAUSE_START}${P}'s [a-z ]{2,30}? (?:was|were|got) [a-z' -]{2,60}? by (?:(?:a|an|the) |${P2}(?:'s |(?=${DOER_END})))`,
      { speaker: true },
    ),
    // Whoever did what a game's headline in capitals tells, after "by" (issue 36, minigames): "BED
    // DESTRUCTION > Red Bed was destroyed by X!", "BED DESTRUCTION > Blue Bed was melted by X's holiday
    // spirit!", "BED DESTRUCTION > Your bed was destroyed by X". Not an article ("by a Zombie").
    rule(`${START}[A-Z]{2,16}(?: [A-Z]{2,16})? > [^\\n]{1,80}? by (?!(?:a|an|the) )${P2}(?=${DOER_END})`, {
      speaker: true,
    }),
    // Whoever a fight was with, and the clause's subject (issue 36: a death's victim, whatever the
    // death's words): "X walked into fire while fighting Y", "X bled to death whilst fighting Y", "X
    // drowned while trying to escape Y", "X was killed while trying to hurt Y".
    rule(
      `${CLAUSE_START}(?<name2>${NAME}) [a-z' ]{2,80}?(?:whil(?:e|st) fighting|trying to escape|to escape|trying to hurt|same world as|doomed to fall by|finished by|fired from [^\\n]{1,40}? by) (?<name>${NAME})`,
      { speaker: true },
    ),
  ],
  examples: [
    ["§7Tinkerbolt is now AFK.", ["Tinkerbolt"]],
    ["Harmonia was kicked by Nebulous for advertising", ["Harmonia", "Nebulous"]],
    [":heavy_plus_sign: Player Rookwood has joined the server!", ["Rookwood"]],
    ["§bSkyBlock §8| §aInfo§8: §dKestrel §ehas been promoted to an §dOperator§e.", ["Kestrel"]],
    ["SkyBlock | Info: Goldshard accepted your invite.", ["Goldshard"]],
    ["Player Harmonia has been added to team red.", ["Harmonia"]],
    ["Harmonia bled to death whilst fighting Nebulous", ["Harmonia", "Nebulous"]],
    ["§f§lBED DESTRUCTION > §r§9Blue Bed §r§7was destroyed by §r§cRookwood§r§7!", ["Rookwood"]],
  ],
};

/** Whispers as servers other than Hypixel print them: "X whispers to you: ..", "You whisper to X: ..", "[X -> me] ..". */
export const serverWhisper: Family = {
  family: "server_whisper",
  gate: / -> |whisper to /,
  doc: "Whispers on other servers: You whisper to X: hi, [X -> me] hi, [me -> X] hi, [X -> Y] hi (social spy)",
  rules: [rule(`You whisper to ${P}:`), rule(`\\[(?:me|${P}) -> (?:me|${P2})\\] `)],
  examples: [["You whisper to Goldshard: on my way", ["Goldshard"]]],
};

/** A chat line's speaker in angle brackets, as vanilla servers print it: "<X> hi", "[Team] <X> hi". */
export const angleChat: Family = {
  family: "angle_chat",
  gate: /> /,
  doc: "The speaker in angle brackets at a line's start: <X> hi, [Server thread/INFO]: <X> hi, [Blue] <X> hi, -> [Blue] <X> hi",
  // Looked for by its "> " first, the line's start checked behind it: a stack trace's "<init>" is
  // not read at every position.
  rules: [rule(`> (?<=${CLAUSE_START}(?:-> )?(?:\\[[A-Za-z0-9_ ]{1,16}\\] )?<(?<name>${NAME})> )`, { speaker: true })],
  examples: [["[12:01:33] [Server thread/INFO]: <Larkspur> anyone at spawn?", ["Larkspur"]]],
};

/** Whoever a teleport request went to: "Request sent to X", "TPA request sent to X", "Sent teleport request to: X". */
export const teleportRequest: Family = {
  family: "teleport_request",
  gate: /sent to|request to/,
  doc: "Whoever a request or an invitation was sent to: Request sent to X., TPA request sent to X, Sent teleport request to: X, Invitation sent to X.",
  rules: [rule(`(?:[Rr]equest sent to|[Tt]eleport request to|[Ii]nvitation sent to|[Ii]nvite sent to):? ${P}`)],
  examples: [["Teleport request sent to Pineapple_Pete. Please wait for a response.", ["Pineapple_Pete"]]],
};
