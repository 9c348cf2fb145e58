// Social verbs between players (issue 36): a player kicked, muted, invited, challenged or traded
// with, a social verb refused, done to or by you, or done by one player to another. Name families
// (see families.ts for how a rule is written).

import { CLAUSE_START, P, P2, rule, START_BEHIND, SUBJECT, type Family } from "./shapes.ts";

/** Verbs whose object is a player, in their stem: kick X, mute X, challenge X, boop X. */
const SOCIAL_VERB =
  "kick|ban|unban|mute|unmute|promote|demote|invite|warp|message|whisper|challenge|duel|trade|visit|report|tip|gift|" +
  "friend|unfriend|boop|spectate|ignore|unignore|block|unblock|summon|coop|trust|untrust|expel|warn|unwarn|unnote|jail|unjail";

/**
 * Before the object of a social verb: a word in lower case is more often a noun ("X added coins")
 * and is read only when it closes the clause ("Player X unbanned y_k", "X removed y from the team").
 */
const OBJECT = "(?:(?![a-z]{3,16}\\b)|(?=[a-z]{3,16}(?:[ \\t]{0,4}$|[.!,:]| (?:for|from|as)\\b)))";

/**
 * A social verb refused (issue 36): "You can't kick X because ...", "You cannot promote X.". The
 * player is the whole object, and a word of lower-case letters only there is a common noun ("You
 * cannot kick staff!").
 */
export const refusal: Family = {
  family: "refusal",
  gate: /[Yy]ou (?:can|may|are|'re|don't|do not)/,
  doc: "A social verb refused: You can't kick X because ..., You cannot invite X!",
  rules: [
    rule(
      `[Yy]ou (?:can't|cannot|can not|may not|(?:are|'re) not (?:allowed|able) to|(?:are|'re) unable to|(?:don't|do not) have permission to) ` +
        `(?:${SOCIAL_VERB}|add|remove|transfer [^\\n]{0,20}?to) (?![a-z]{3,16}\\b)${P}` +
        `(?=[ \\t]{0,4}(?:[!.,?]|$)| (?:because|since|as|from|out of|to|for|while|until|when|again)\\b)`,
      { speaker: true },
    ),
  ],
  examples: [["You can't kick Notch because of role hierarchy.", ["Notch"]]],
};

/** The same verbs done, with you as the subject or the object (issue 36). */
export const socialDone: Family = {
  family: "social_done",
  gate: / you\b|You /,
  doc: "A social verb done to or by you: You have muted X for 1h, X has muted you!, X has challenged you to a duel!",
  rules: [
    rule(`[Yy]ou (?:have |'ve )?(?:[a-z]{2,12}ly )?(?:${SOCIAL_VERB})(?:ed|d|ned|ped|ged|led) ${P}`, { speaker: true }),
    rule(` you\\b(?<=${START_BEHIND}${SUBJECT} (?:has |just )?(?:${SOCIAL_VERB})(?:ed|d|ned|ped|ged|led) you)`, {
      speaker: true,
    }),
  ],
  examples: [["Notch has challenged you to a duel!", ["Notch"]]],
};

/**
 * A social verb between two players, and a player who did something to you (issue 36, other
 * servers): "X has muted player Y.", "X invited Y to the island.", "You were kicked from your island
 * by X.", "Your island was disbanded by X.", "Could not find player X.". The verb's place in the clause
 * decides, not the server's words.
 */
export const socialBetween: Family = {
  family: "social_between",
  gate: / by |(?:ed|[Pp]layer|allow) | for |wnership | of |player /,
  doc: "A social verb between two players, a passive naming who did it to you, a player a look-up names: X has muted player Y, You were kicked from your island by X, Could not find player X.",
  rules: [
    rule(
      `ed (?<=${CLAUSE_START}${SUBJECT} (?:has |have |just )?(?:${SOCIAL_VERB}|add|remove|expel|jail|heal|revoke)(?:ed|d|ned|ped|ged|led) )(?:player )?${OBJECT}${P2}`,
      { speaker: true },
    ),
    rule(
      `[Yy]ou(?:r [a-z-]{2,12})? (?:were|was|are|is|have been|has been|got) [a-z' -]{2,60}? by ${P}(?=[ \\t]{0,4}(?:$|[.!,;:(])| (?:for|from|with|because|[Rr]eason)\\b)`,
      { speaker: true },
    ),
    rule(`(?:player (?:called|named)|find player) ${P}(?= (?:is|was|has|[a-z]{2,14}ed)\\b|[ \\t]{0,4}(?:[.!]|$))`, {
      speaker: true,
    }),
    // A player the line calls one (issue 36, island plugins): "You have banned the player X from the
    // Island.", "The player X disconnected and didn't respond". After "the player" or "a player", a
    // name then a stop or a clause's next word.
    rule(
      `(?:[Tt]he |[Aa] )[Pp]layer '?(?![a-z]{3,16}\\b)${P}'?(?=[ \\t]{0,4}(?:[.!,?]|$)| (?:is|was|has|had|from|to|in|on|at|for|with|because|disconnected|didn't|cannot|can't)\\b)`,
      { speaker: true },
    ),
    // A player the server could not find: "Error: Player X has not been found."
    rule(
      `(?<![A-Za-z,] )[Pp]layer '?${P}'? (?:(?:has not been|was not|could not be|cannot be|can't be|is not) (?:found|online)|has no island)`,
      { speaker: true },
    ),
    // Whose records a moderation heading or look-up shows (issue 36): "History for X:", "Warnings for
    // X:", "Could not find the history of X", "Could not fetch the UUID of X!", "There is no saved IP for X!".
    rule(
      `(?:History|Notes|Warnings|Warns|Punishments|Bans|Mutes|Kicks|Infractions) (?:for|of) ${P}(?=[ \\t]{0,4}(?:[:.!(]|$))`,
    ),
    rule(
      `(?:history|punishments|warnings|UUID|uuid|saved IP|IP address|IP) (?:of|for) ${P}(?=[ \\t]{0,4}(?:[.!:(]|$)| :\\()`,
    ),
    // A name the server does not know, and whom trust was taken from: "Unknown player X", "Invalid
    // player X supplied.", "X revoked trust in Y on the island".
    rule(`(?:[Uu]nknown|[Ii]nvalid) player:? ${P}(?=[ \\t]{0,4}(?:[.!]|$)| supplied\\b)`),
    rule(`revoked (?:trust|access) (?:in|from|for) ${P}`),
    // Whom a group's ownership goes to: "The ownership of the Island has been assigned to X!", "assign
    // ownership of the Island to the player X".
    rule(
      `[Oo]wnership (?:of (?:the |your |this )?[A-Za-z-]{2,12} )?(?:(?:has been |was )?(?:assigned|given|transferred|handed|granted) )?to (?:the player )?${P}`,
    ),
    // Whom a mode was turned on or off for: "Godmode enabled for X.", "Flying Mode Disabled for X";
    // the player closes the line, and a duration ("for 10m.") is not one.
    rule(
      `(?:[Ee]nabled|[Dd]isabled|[Tt]oggled|[Rr]eset) for:? (?![0-9]{1,6}[a-z]{0,7}(?![A-Za-z0-9_]))${P}(?=[ \\t]{0,4}(?:[.!]|$))`,
      { speaker: true },
    ),
    // A social verb a rank or a setting does not allow: "Your rank does not allow to kick X!".
    rule(
      `(?:does not|doesn't) allow (?:you )?to (?:${SOCIAL_VERB}|add|remove) (?![a-z]{3,16}\\b)${P}(?=[ \\t]{0,4}(?:[!.,?]|$))`,
      { speaker: true },
    ),
  ],
  examples: [
    ["Harmonia has muted player Nebulous.", ["Harmonia", "Nebulous"]],
    ["You were kicked from your island by Kestrel.", ["Kestrel"]],
  ],
};
