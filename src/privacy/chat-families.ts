// Chat lines and lists: rank tags, channel chat, whispers, all-chat, tab-list entries. Name
// families (see families.ts for how a rule is written).

import {
  CHANNEL,
  CODE,
  EMBLEM,
  LEVEL,
  NAME,
  P,
  RANK_TAG,
  rule,
  SERVER_RANK,
  START,
  USERLIKE,
  type Family,
  START_BEHIND,
} from "./shapes.ts";

export const rankTag: Family = {
  family: "rank_tag",
  gate: /\[[A-Z]/,
  doc: "A rank tag and the name after it, anywhere: [MVP+] Steve, [JR HELPER] Name, [PIG+++] Name",
  rules: [rule(`(?<rank>${SERVER_RANK}) ?(?<name>${NAME})`)],
  examples: [
    ["§7☢ §r§b[MVP§d+§b] hannibal2", ["hannibal2"]],
    ["RARE DROP! Enchanted Book (+120% ✯ Magic Find) [MVP+]Steve", ["Steve"]],
    ["Killed by [YOUTUBE] Dream", ["Dream"]],
  ],
};

export const channelLine: Family = {
  family: "channel_line",
  gate: />/,
  doc: "Party, guild, officer and co-op chat, friend lines, and the compact prefixes P > G > O > C >",
  rules: [
    rule(`${START}(?:${CHANNEL}) ?> ?${P}`),
    rule(`${START}(?:Party|Guild|Officer|Co-op|Coop|Friend) ?> ?[^ \\t\\n]`, { shape: true }),
    // Another player named in a channel message by its structure (issue 36): a mention at the
    // start of the message ("Guild > Bot [Staff]: @Name, Name's weight: ..."), and a bot
    // command's one argument ("Guild > A: !skyblock Name", "From A: !nw Name").
    rule(`${START}(?:${CHANNEL}) ?> ?[^\\n:]{1,60}: @(?<name>${NAME})`),
    rule(`${START}(?:${CHANNEL}) ?> ?[^\\n:]{1,60}: ![a-z]{1,16} (?<name>${NAME})(?=[ \\t]*$)`, { speaker: true }),
    // A player a message opens with, as a bot's reply names them (issue 36): a possessive, an
    // auxiliary or a verb in the past tense right after the speaker, or the player addressed with a
    // comma ("Guild > Bot [Bot]: X has a networth of 2.1B", "X's Skyblock Level: 287", "X disabled
    // their inventory API.", "X did not enable their skill API.", "X, party ended.").
    rule(
      `${START}(?:${CHANNEL}) ?> ?[^\\n:]{1,60}: ${EMBLEM}?(?<name2>${NAME})(?:'s [A-Za-z]|, [a-z]| (?:has|have|hasn't|had|is|isn't|was|wasn't|did|didn't|does|doesn't|can't|cannot|needs|owns|got|[a-z]{3,12}ed) )`,
      { speaker: true },
    ),
    // A guild bridge's relayed speaker, by its place (issue 36): a name opening the message before a
    // second separator is whoever the bridge's account speaks for ("Guild > Bot [Member]: X: hi",
    // "Guild > Bot: X » hi", "Guild > Bot: X > hi"), and whom they reply to ("X replying to Y: hi", "X [to] Y: hi");
    // a bot's reply that opens with the player before a field separator ("X ➜ Medals ..", "X | ⭐412 | ..").
    rule(
      `>(?<=${START_BEHIND}(?:${CHANNEL}) ?>) ?[^\\n:]{1,60}: ${EMBLEM}?(?<name2>${NAME})(?:(?: replying to| \\[to\\]) (?<name3>${NAME}))?(?: ?[»›>➜➤⋙⇨►➯|]|:) `,
      { speaker: true },
    ),
    // The player a bot found nothing for, closing its reply: "Guild > Bot: No catacombs data found for X".
    rule(
      `${START}(?:${CHANNEL}) ?> ?[^\\n:]{1,60}: [^\\n]{0,60}?(?:data|stats|profiles?|results?|runs?) (?:found|available) for ${EMBLEM}?(?<name2>${NAME})(?=[ \\t]{0,4}(?:[.!]|$))`,
      { speaker: true },
    ),
  ],
  examples: [
    ["§9Party §8> §7nea89o§f: peee", ["nea89o"]],
    ["§2Guild > §6⚔ §6[MVP§3++§6] RealBacklight§f: !warp", ["RealBacklight"]],
    ["§bCo-op > §7nea89o§f: hallooooo", ["nea89o"]],
    ["Guild > [MVP+] Harbinger [Member]: Kalmaria: anyone up for dungeons?", ["Harbinger", "Kalmaria"]],
  ],
};

export const whisper: Family = {
  family: "whisper",
  gate: /(?:From|To) /,
  doc: "Private messages: From Name: ..., To [MVP+] Name: ...",
  rules: [
    rule(`${START}(?:From|To) ${P}: `),
    // A bot command's one argument in a whisper: "From [VIP] A: !nw Name" (see channel_line).
    rule(`${START}(?:From|To) [^\\n:]{1,60}: ![a-z]{1,16} (?<name>${NAME})(?=[ \\t]*$)`, { speaker: true }),
  ],
  examples: [
    ["To nea89o: lol", ["nea89o"]],
    ["From [MVP+] Eisengolem: Boop!", ["Eisengolem"]],
  ],
};

/** A chat line's tag before its speaker: "[VIP]", "[G]", "(Admin)", "{Clan}". */
const CHAT_TAG = "[\\[({][A-Za-z0-9+ ]{1,16}[\\])}]";
/** A tag of a word in capitalised letters, any alphabet: "[Leader]", "[Member]", "[Всем]". */
const WORD_TAG = "\\[(?:[A-Z]|[^\\x00-\\x7F])(?:[a-z]|[^\\x00-\\x7F\\]]){1,15}(?: [A-Z][a-z]{1,15})?\\]";
/** A chat separator other than a colon: » › ➯ ⋙ ⇨ ► ➤. */
const SEPARATOR = "[»›➯⋙⇨►➤]";

export const allChat: Family = {
  family: "all_chat",
  gate: /: |[^\x00-\x7F]|[\])}] ?[A-Za-z0-9_]{3,16} {1,2}> /,
  doc: "All-chat: with a level ([58] Name: ...), after [CHAT] in a game log, or a bare line Name: ... when the name looks like one",
  rules: [
    rule(`(?:${START}|(?<![\\w\\]]))${LEVEL}${EMBLEM}?(?:(?<rank>${RANK_TAG}) ?)?(?<name>${NAME})(?=: )`),
    // A log's chat line's speaker; a heading in capitals ("[CHAT] ONLINE: X, Y") is a system word.
    rule(`\\[CHAT\\] ${EMBLEM}?(?<name>${NAME}): `, { speaker: true }),
    // A bare line, its speaker by its place: one word at the start of a line (after at most one
    // space and an emblem) before ": " and a message, unless the word is a system word
    // ("Health: +100", "Ability: Throw", "Description: Rendering screen"). Not after a tab
    // (crash-report details, mod lists "\tfabricloader: 0.16") nor before a number or a sign. A
    // word of English or of the game before a capitalised value is a plugin's label ("Alias: Nether",
    // "Direction: North") unless the report has chat around it (chat-block.ts); one before a
    // lower-case message is a speaker still ("Orbital: gg").
    rule(`^ ?${EMBLEM}?(?<name>${NAME}): (?=[^\\s\\d+-])`, { speaker: true, label: true }),
    // With its codes: a name in a colour, then another colour for the colon (a player's line);
    // a label's colon takes the label's colour ("§7Ability: §6Throw").
    rule(`${START}(?:${CODE}){0,6}§[0-9a-f](?<name>${NAME})(?:${CODE}){1,4}: `, { raw: true, speaker: true }),
    // A speaker before a separator other than a colon (issue 36, other servers' chat formats): after
    // one to three tags ("[VIP] X  » hi", "(Admin) X > hi", "[G] (Clan) [Elite] X ➯ hi"; a tag that
    // is the server's own voice, "[Server]", "[Info]", drops the match), or bare when the word looks
    // like a name ("x_99 » hi", "Name ⇨ hi" is a plugin's prefix as often as a player). A bare ">"
    // only after a tag: "Party > hi" is a channel, not a speaker.
    rule(
      `(?:${SEPARATOR}|>) (?<=${START_BEHIND}(?<rank>${CHAT_TAG}) ?(?:(?<rank2>${CHAT_TAG}) ?)?(?:(?<rank3>${CHAT_TAG}) ?)?${EMBLEM}?(?<name>${NAME}) {1,2}(?:${SEPARATOR}|>) )`,
      { speaker: true },
    ),
    rule(`${SEPARATOR} (?<=${START_BEHIND}${EMBLEM}?${USERLIKE}(?<name>${NAME}) {1,2}${SEPARATOR} )`, {
      speaker: true,
    }),
    // A speaker after a server's role or channel tags in words, in any alphabet ("[Leader] X: hi",
    // "[Spy] [Member] X: hi", "[Всем] X: hi").
    rule(`\\] (?<=${START_BEHIND}(?<rank>${WORD_TAG}) )(?:(?<rank2>${WORD_TAG}) )?${EMBLEM}?(?<name>${NAME}): `, {
      speaker: true,
    }),
    // A speaker after one or two tags in capitals, as a game's modes print them (issue 36, minigame
    // all-chat: "[SPECTATOR] X: gg", "[SHOUT] [RED] X: gg"); a log level or a logger's tag ("[INFO]",
    // "[CHAT]") is not a rank and drops the match, and a system word is no speaker.
    rule(`\\] (?<=${START_BEHIND}(?<rank>\\[[A-Z]{2,12}\\]) )(?:(?<rank2>\\[[A-Z]{2,12}\\]) )?(?<name>${NAME}): `, {
      speaker: true,
    }),
    // An emblem and a name alone on a line (a name tag, a player list).
    rule(`${START}[^\\x00-\\x7F\\s] (?<name>${USERLIKE}${NAME})[ \\t]*$`),
  ],
  examples: [
    ["[58] §7nea89o§7: haiiiii", ["nea89o"]],
    ["[12:00:01] [Render thread/INFO]: [CHAT] Alex_99: anyone for F7?", ["Alex_99"]],
    ["[VIP] Maplethorn  » anyone selling iron", ["Maplethorn"]],
    ["[Всем] Tinkerbolt: е", ["Tinkerbolt"]],
  ],
};

export const tabList: Family = {
  family: "tab_list",
  gate: /\[\d|\[[MAHTB]\]|\[Lvl|\((?:Archer|Berserk|Healer|Mage|Tank|EMPTY|DEAD)|\] ?\(/,
  doc: "Tab-list and scoreboard entries: [210] Name, [319] Name α (Mage XXXIV), [M] Name 2,480❤, Name [Lvl34]",
  rules: [
    rule(`${START}${LEVEL}${EMBLEM}?(?:(?<rank>${RANK_TAG}) ?)?(?<name>${NAME})(?=[ \\t]*$| [^\\x00-\\x7F\\s]| \\()`),
    rule(`${START}\\[[MAHTB]\\] (?<name>${NAME})(?=[ \\t]*$| [\\d,]{1,9}❤| DEAD| \\[Lvl ?\\d| \\()`),
    rule(`${START}${EMBLEM}?(?<name>${NAME}) \\[Lvl ?\\d{1,3}\\]`),
    rule(
      `${START}(?:(?<rank>${RANK_TAG}) ?)?(?<name>${NAME}) [^\\x00-\\x7F\\s(]{0,4} ?\\((?:Archer|Berserk|Healer|Mage|Tank|EMPTY|DEAD)`,
    ),
    // Who did a thing a tab-list widget reports by its status mark, named in brackets after it
    // (issue 36): " Ice Fill: [✔] (X)", " Creeper Beams: [✖] (X)".
    rule(`\\] ?\\((?<=${START_BEHIND}[A-Za-z?][A-Za-z?' ]{0,30}: \\[[^\\]\\n]{1,3}\\] ?\\()(?<name>${NAME})\\)`),
  ],
  examples: [
    ["§8[§r§9319§r§8] §r§bEmpa_ §r§7α §r§f(§r§dMage XXXIV§r§f)", ["Empa_"]],
    ["§e[M] §7Steve §a2,480§c❤", ["Steve"]],
    ["§r Creeper Beams: §r§7[§r§c§l✖§r§7] §r§f(§r§bquietfox_§r§f)§r", ["quietfox_"]],
  ],
};
