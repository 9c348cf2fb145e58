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
    "invited",
    "SkyBlock]",
    "profile",
    "promoted",
    "demoted",
    "kicked",
    "requested",
  ),
  doc: "Guild and co-op membership, visits, spectating, best friends: X was kicked from the guild by Y, X was promoted from A to B, X has muted Y, [SkyBlock] X is visiting Your Island!, You invited X to your co-op!",
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
    rule(`${START}\\[SkyBlock\\] ${P} `),
    rule(`${START}(?:You|you) (?:are now|are no longer|were) [^\n]{1,30}? (?:with|by|of) ${P}`),
  ],
  examples: [
    ["[VIP] Steve was kicked from the guild by [MVP+] Alex_99!", ["Steve", "Alex_99"]],
    ["[SkyBlock] Notch is visiting Your Island!", ["Notch"]],
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
