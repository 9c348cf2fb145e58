// Guilds, co-ops, lobbies and servers: membership changes, visits, joins and leaves. Name families
// (see families.ts for how a rule is written).

import {
  anyOf,
  CLAUSE_LEAD,
  CLAUSE_START,
  EMBLEM,
  NAME,
  P,
  P2,
  RANK_TAG,
  rule,
  START,
  START_BEHIND,
  SUBJECT,
  type Family,
  atLineStart,
} from "./shapes.ts";

/** Verbs whose object is a player, in their stem: kick X, mute X, challenge X, boop X. */
const SOCIAL_VERB =
  "kick|ban|unban|mute|unmute|promote|demote|invite|warp|message|whisper|challenge|duel|trade|visit|report|tip|gift|" +
  "friend|unfriend|boop|spectate|ignore|unignore|block|unblock|summon|coop|trust|untrust|expel|warn|unwarn|unnote|jail|unjail";

/**
 * Before the object of a social verb: a word in lower case is more often a noun ("X added coins")
 * and is read only when it closes the clause ("Player X unbanned y_k", "X removed y from the team").
 */
const OBJECT = "(?:(?![a-z]{3,16}\\b)|(?=[a-z]{3,16}(?:[ \\t]{0,4}$|[.!,:]| (?:for|from|as)\\b)))";

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
