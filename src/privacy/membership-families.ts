// Guilds, co-ops, lobbies and servers: membership changes, visits, joins and leaves. Name families
// (see families.ts for how a rule is written).

import { anyOf, EMBLEM, NAME, P, RANK_TAG, rule, START, type Family } from "./shapes.ts";

export const membership: Family = {
  family: "membership",
  gate: anyOf(
    "guild",
    "Guild",
    "muted",
    "co-op",
    "Co-op",
    "visiting",
    "spectat",
    "best friend",
    "friends list",
    "invit",
    "SkyBlock]",
    "profile",
    "promoted",
    "demoted",
    "kicked",
    "requested",
    "(?:is|isn't|was|wasn't) (?:already |not |no longer |now |still )?(?:in |a member|the )",
    "(?:player|user|anyone) (?:by the name of|named|called)",
  ),
  doc: "Guild and co-op membership, visits, spectating, best friends: X was kicked from the guild by Y, X was promoted from A to B, X has muted Y, [SkyBlock] X is visiting Your Island!, You invited X to your co-op!, X is already in another guild!, Can't find a player by the name of 'X'",
  rules: [
    rule(
      `${START}${P} (?:was (?:kicked|promoted|demoted|muted|unmuted|removed|invited)|` +
        `has (?:muted|unmuted|kicked|promoted|demoted|requested to join|invited|joined|left|been)|` +
        `(?:joined|left) (?:the|your) (?:guild|Guild|SkyBlock Co-op|co-op|Co-op|island|Island)|` +
        `is (?:visiting|now visiting|now spectating|spectating|now a best friend|no longer a best friend)|isn't on your friends list)`,
    ),
    rule(
      `(?:from the guild by|has (?:muted|unmuted|kicked|promoted|demoted|invited)|You invited|You (?:are|were) now spectating|` +
        `You are visiting|now spectating|visiting|to the guild by|co-op by) ${P}`,
    ),
    // A player's standing in a group, whatever the answer's wording (issue 36): "X is already in
    // another guild!", "X is not in your guild!", "X is the guild master so can't be demoted!".
    rule(
      `${START}${P} (?:is|isn't|was|wasn't) (?:already |not |no longer |now |still )?(?:in (?:another|your|the|a|this|their) ` +
        `(?:guild|Guild|party|co-op|Co-op|lobby|game)|a member of|the (?:guild master|Guild Master|party leader|owner))`,
    ),
    // Whoever an invite goes to or comes from ("You've already invited X to your guild!", "You sent
    // an offline invite to X!"), and a player the server looked up by name ("Can't find a player by
    // the name of 'X'").
    rule(`(?:invited|invite to|invite from|invitation from|invitation to) ${P}`),
    rule(`(?:player|user|anyone) (?:by the name of|named|called) '?${P}`),
    rule(`${START}\\[SkyBlock\\] ${P} `),
    rule(`${START}(?:You|you) (?:are now|are no longer|were) [^\n]{1,30}? (?:with|by|of) ${P}`),
  ],
  examples: [
    ["[VIP] Steve was kicked from the guild by [MVP+] Alex_99!", ["Steve", "Alex_99"]],
    ["[SkyBlock] Notch is visiting Your Island!", ["Notch"]],
  ],
};

/**
 * A social command's argument (issue 36): "/g accept X", "/party kick X", "/visit X", "/pv X". Only
 * after a verb that takes a player, so "/g online" and "/p list" are not read as names.
 */
export const command: Family = {
  family: "command",
  gate: /\/(?:g|guild|p|party|f|friend|visit|viewprofile|pv|msg|w|tell|boop|coop)/,
  doc: "A command naming a player: /g accept X, /party kick X, /visit X, /viewprofile X, /msg X hi",
  rules: [
    rule(
      `(?<![A-Za-z0-9_/.])/(?:(?:g|guild|p|party|f|friend) (?:accept|invite|kick|remove|promote|demote|transfer|join|mute|unmute|add|deny)|` +
        `visit|viewprofile|pv|msg|w|tell|boop|coopadd|coopkick) ${P}`,
    ),
  ],
  examples: [
    ["Click here to accept or type /guild accept Alex_99!", ["Alex_99"]],
    ["/visit Notch", ["Notch"]],
  ],
};

export const joinedLine: Family = {
  family: "joined_line",
  gate: /joined|left|spooked|quit/,
  doc: "Name joined. Name left. Name has joined the lobby! Name has joined (5/12)! Name has quit!",
  rules: [
    rule(
      `${START}${EMBLEM}?(?:(?<rank>${RANK_TAG}) )?(?<name>${NAME}) (?:has )?(?:joined|left|spooked|quit)` +
        `(?: (?:the|your) (?:lobby|party|guild|game|server)| \\(\\d{1,3}/\\d{1,3}\\))?[.!]`,
    ),
  ],
  examples: [
    ["Friend > Steve joined.", ["Steve"]],
    ["Notch has joined the lobby!", ["Notch"]],
  ],
};
