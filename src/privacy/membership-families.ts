// Guilds, co-ops, lobbies and servers: membership changes, visits, joins and leaves. Name families
// (see families.ts for how a rule is written).

import {
  anyOf,
  CLAUSE_LEAD,
  EMBLEM,
  NAME,
  P,
  P2,
  RANK_TAG,
  rule,
  START,
  START_BEHIND,
  SUBJECT,
  atLineStart,
  type Family,
} from "./shapes.ts";

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
    "owned by",
    "accepted your",
    "declined your",
    "denied your",
    "Invited",
  ),
  doc: "Guild and co-op membership, visits, spectating, best friends: X was kicked from the guild by Y, X was promoted from A to B, X has muted Y, [SkyBlock] X is visiting Your Island!, You invited X to your co-op!, X is already in another guild!, Can't find a player by the name of 'X'",
  rules: [
    rule(
      `${START}${P} (?:was (?:kicked|promoted|demoted|muted|unmuted|removed|invited)|` +
        `has (?:muted|unmuted|kicked|promoted|demoted|requested to join|invited|joined|left|been|accepted your|declined your|denied your)|` +
        `(?:joined|left) (?:the|your) (?:guild|Guild|SkyBlock Co-op|co-op|Co-op|island|Island)|` +
        `is (?:visiting|now visiting|now spectating|spectating|now a best friend|no longer a best friend)|isn't on your friends list)`,
    ),
    rule(
      `(?:from the guild by|has (?:muted|unmuted|kicked|promoted|demoted|invited)|You invited|You (?:are|were) now spectating|` +
        `You are visiting|now spectating|visiting|to the guild by|co-op by|owned by) ${P}`,
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
    rule(`(?:[Ii]nvited|invite to|invite from|invitation from|invitation to) ${P}`),
    rule(`(?:player|user|anyone) (?:by the name of|named|called) '?${P}`),
    rule(`${atLineStart("\\[SkyBlock\\] ")}${P} `),
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
  gate: /\/(?:g|guild|p|party|f|friend|visit|viewprofile|pv|msg|w|tell|boop|coop|ban|unban|tempban|mute|unmute|tempmute|kick|warn|unwarn|history|warns|notes|check|seen|whois|jail|unjail)/,
  doc: "A command naming a player: /g accept X, /party kick X, /visit X, /viewprofile X, /msg X hi, /history X 2, /ban X 7d",
  rules: [
    rule(
      `(?<![A-Za-z0-9_/.])/(?:(?:g|guild|p|party|f|friend) (?:accept|invite|kick|remove|promote|demote|transfer|join|mute|unmute|add|deny)|` +
        `visit|viewprofile|pv|msg|w|tell|boop|coopadd|coopkick|` +
        // Moderation commands take a player too (issue 36): "/history X 2", "/ban X 7d", "/warns X".
        `ban|unban|tempban|ipban|mute|unmute|tempmute|kick|warn|unwarn|history|warns|notes|checkban|checkmute|seen|whois|jail|unjail) ${P}`,
    ),
  ],
  examples: [
    ["Click here to accept or type /guild accept Alex_99!", ["Alex_99"]],
    ["/visit Notch", ["Notch"]],
  ],
};

/**
 * Guild membership verbs by their object (issue 36): whoever the subject and whatever the group, a
 * social verb's object is a player. Four families, each gated on its own words, so a report opens
 * only the rules whose verbs it holds.
 */
export const transfer: Family = {
  family: "transfer",
  gate: /[Tt]ransferred /,
  doc: "Whoever something is handed on to: X has transferred guild ownership to Y, Transferred leadership to X",
  rules: [
    rule(`transferred (?<=${SUBJECT} (?:has )?transferred )[^\\n]{0,30}?to ${P2}`),
    rule(`[Tt]ransferred (?:[^\\n]{0,30}? )?to ${P}`),
    // Who handed it on: "Leadership transferred by X to Y".
    rule(`[Tt]ransferred by ${P}`),
  ],
  examples: [["Steve has transferred guild ownership to Alex_99.", ["Steve", "Alex_99"]]],
};

export const groupVerb: Family = {
  family: "group_verb",
  gate: /(?:[Kk]icked|[Bb]anned|[Mm]uted|[Pp]romoted|[Dd]emoted|[Rr]emoved|[Aa]dded|[Ii]nvited) /,
  doc: "A player moved in or out of a group: Kicked X from SkyBlock world!, You promoted X to Officer, Invited X to your island.",
  rules: [
    rule(
      `(?:[Kk]icked|[Bb]anned|[Mm]uted|[Pp]romoted|[Dd]emoted|[Rr]emoved|[Aa]dded|[Ii]nvited) ${P} ` +
        `(?:from|to|out of) (?:the |your |their )?(?:guild|Guild|party|Party|co-op|Co-op|island|Island|team|Team|lobby|SkyBlock|server|world)`,
    ),
    rule(`${START}(?:Kicked|Banned|Unbanned|Muted|Unmuted|Promoted|Demoted|Invited) ${P}(?=[ \\t]{0,4}[!.]| to [A-Z])`),
  ],
  examples: [["§aKicked §bNotch §afrom SkyBlock world!", ["Notch"]]],
};

/** A possessive whose noun only a player has (issue 36). */
export const possessive: Family = {
  family: "possessive",
  gate: /'s (?:[Ii]sland|[Tt]eam|invit|[Pp]arty|[Gg]uild|[Cc]o-op|[Pp]rofile|house|plot|inventory|[Gg]arden|[Mm]useum|auction|trade|friend|[Hh]omes?\b|teleport|tpa|data\b)/,
  doc: "A possessive whose noun only a player has: Removing X's island., You accepted X's invitation., X's profile, X's teleport request, X's home",
  rules: [
    // A possessive whose noun only a player has (issue 36): "Removing X's island.", "You were
    // kicked from X's team", "You accepted X's invitation.", "X's profile". A lore or NPC
    // possessive ("Elle's supplies", "Jacob's Contest") names another noun.
    rule(
      `'s (?<=${SUBJECT}'s )(?:island|Island|team|Team|invitation|invite|party|Party|guild|Guild|co-op|Co-op|profile|` +
        `Profile|house|plot|inventory|garden|Garden|museum|Museum|auctions?|trade request|friend request|` +
        // A teleport plugin's (issue 36): "You accepted X's teleport request!", "X's home, base", "X's Homes:".
        `home|Home|homes|Homes|teleport request|tpa request|data)(?![A-Za-z])`,
      { speaker: true },
    ),
  ],
  examples: [["§cRemoving §bNotch§c's island.", ["Notch"]]],
};

/**
 * Names in a list after its heading (issue 36): "Guild Master: X", "Party Leader: [MVP+] X ●",
 * "Members: X, Y", "Online Members: X ● Y". The heading names a role in a group; every name after
 * it, separated by "●", "," or spaces, is read (see find.ts: a name of digits only is a count).
 */
export const roster: Family = {
  family: "roster",
  gate: /eaders?|aster|wners?|embers|oderators|fficers|dmins|[Oo]nline|ONLINE|riends/,
  doc: "Names after a list heading: Guild Master: X, Party Members: X ● Y, Members: X, Y, There are 2 of a max of 20 players online: X, Y",
  rules: [
    rule(
      `: (?<=${START_BEHIND}(?:(?:Guild|Party|Co-op|Coop|Island|Team|Clan|Faction|Online|Offline) )?` +
        `(?:Leader|Leaders|Master|Owner|Owners|Members|Moderators|Officers|Admins)(?: \\(\\d{1,4}\\))?: )`,
      { list: true },
    ),
    // The same headings in any case, after a clause's lead-in (a plugin's prefix, a log's time) and a
    // word or two, or a player's own ("Party members: X, Y", "Current party members: X", "Island |
    // Leader: X", "X's friends (3): Y, Z"; issue 36).
    rule(
      `: (?<=${CLAUSE_LEAD}(?:${SUBJECT}'s |[A-Z][a-z]{1,15} (?:[a-z]{2,15} )?)?` +
        `(?:[Ll]eaders?|[Oo]wners?|[Mm]embers|[Mm]oderators|[Oo]fficers|[Ff]riends)(?: \\(\\d{1,4}(?:/\\d{1,4})?\\))?: )`,
      { list: true, speaker: true },
    ),
    // Who is online, after a heading that says so (issue 36, servers' and bots' list replies): "There
    // are 2 of a max of 20 players online: X, Y", "[Server] Players online: X, Y", "Online players (2/20): X, Y".
    rule(
      `: (?<=${START_BEHIND}(?:\\[\\d{1,2}:\\d{2}(?::\\d{2})?\\] \\[[^\\]\\n]{1,40}\\]: )?(?:\\[[A-Za-z]{1,16}\\] )?(?:[A-Za-z0-9 ]{0,40} )?(?:[Pp]layers [Oo]nline|[Oo]nline [Pp]layers)(?: \\(\\d{1,4}(?:/\\d{1,4})?\\))?: )`,
      { list: true },
    ),
    // Who is in the lobby, as Hypixel's /who answers (issue 36): "ONLINE: X, Y, Z", in a game log too.
    rule(`: (?<=${START_BEHIND}ONLINE: )`, { list: true }),
    // The same role with the name after "is" (issue 36, island plugins): "X's Island Owner is Y."
    rule(`(?:Leader|Master|Owner|leader|master|owner) is (?:now )?${P}(?=[ \\t]{0,4}(?:[.!]|$))`),
  ],
  examples: [
    ["§2Guild Master: §fNotch", ["Notch"]],
    ["Members: Alex_99, Steve", ["Alex_99", "Steve"]],
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
