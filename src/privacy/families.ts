// Where a player name stands in game text, family by family, as data: each family is its rules
// (regular expressions on the plain text, see normalise.ts) beside real examples of it. The ingest
// denylist and the report scrubber both read this one list; a new family is a new entry here.
//
// Every rule must stay linear on any input (issue 22): anchor to a line with `^` and the `m` flag,
// `[ \t]` rather than `\s`, bounded repeats, no quantifier inside a repeated group, and no unbounded
// repeat at all in a rule that is not anchored. test/security/scrubber.test.ts runs each rule over
// hostile inputs.
//
// A rule names the player in groups `name`, `name2`, `name3`; the rank tag in front of a name is
// captured as `rank` (`rank2`, ...), so a bracketed word that is not a rank (`[NPC]`, `[ERROR]`)
// drops the match. `list: true` reads more names after the match, to the end of its line.
// `speaker: true` marks a rule that reads a line's speaker by its place alone (whatever precedes the
// first ": "): its match is dropped when the word is a known system word (SYSTEM_WORDS), so the
// structure decides and one list of words, not a list of shapes, keeps labels and log lines out.

import { SYSTEM_WORDS } from "./system-words.ts";

export { SYSTEM_WORDS };

/** A player name as the game allows it, not inside a longer word. */
export const NAME = "[A-Za-z0-9_]{3,16}(?![A-Za-z0-9_])";
/** A rank tag: [VIP], [MVP++], [YOUTUBE], [JR HELPER], [PIG+++], colours already stripped. */
export const RANK_TAG = "\\[[A-Z][A-Z0-9]{0,11}(?: [A-Z0-9]{1,8})?\\+{0,3}\\]";
/**
 * The server's own ranks (issue 36): a rank tag standing alone before a word is only a rank when it
 * is one of these; a mod's chat prefix has the same shape ("[MWR] Unknown command.", "[GTBP] ...")
 * and is followed by a sentence, not a player. Inside a line's structure (a channel, a verb) any
 * tag of RANK_TAG's shape still counts, as before.
 */
const SERVER_RANK =
  "\\[(?:VIP\\+?|MVP\\+{0,2}|YOUTUBE|YT|PIG\\+{3}|INNIT|MOJANG|EVENTS|MCP|GM|ADMIN|MOD|HELPER|JR HELPER|OWNER|BUILD TEAM|STAFF)\\]";
/** A SkyBlock level in front of a name: [287] */
export const LEVEL = "\\[\\d{1,3}\\] ";
/** One symbol (an emblem, a music note, a class sign) and a space in front of a name: "☢ ". */
const EMBLEM = "(?:[^\\x00-\\x7F\\s] )";
/** The start of a line, or of a chat line inside a game-log line ("... [CHAT] Party > ..."). */
const START = "(?:^[ \\t]{0,40}|\\[CHAT\\] [ \\t]{0,40})";
/** A word that looks like a player's name and not like a label: it holds a digit or an underscore, or starts lower-case. */
const USERLIKE = "(?=[A-Za-z0-9_]{0,15}[0-9_]|[a-z])";
/** A formatting code, on the original text. */
const CODE = "§[0-9a-fA-Fk-oK-OrR]";

/** The chat channels' prefixes, long and compact: "Party >", "G >". */
const CHANNEL = "Party|Guild|Officer|Co-op|Coop|Friend|P|G|O|C|CC|GC|PC|OC";

/** A player as chat prints them: level, emblem, rank tag, then the name. */
const player = (n = "") => `(?:${LEVEL})?${EMBLEM}?(?:(?<rank${n}>${RANK_TAG}) ?)?(?<name${n}>${NAME})`;
const P = player();
const P2 = player("2");

/** Bracketed words that are not ranks: speakers of game lines, log levels and loggers. */
export const NOT_RANKS = new Set([
  "[NPC]",
  "[BOSS]",
  "[STATUE]",
  "[SKULL]",
  "[CROWD]",
  "[SECURITY]",
  "[FEAR]",
  "[INFO]",
  "[WARN]",
  "[WARNING]",
  "[ERROR]",
  "[FATAL]",
  "[DEBUG]",
  "[TRACE]",
  "[SEVERE]",
  "[STDOUT]",
  "[STDERR]",
  "[SYSTEM]",
  "[CHAT]",
  "[FML]",
  "[LWJGL]",
  "[OPTIFINE]",
  "[MIXIN]",
  "[MAIN]",
  "[OK]",
  "[X]",
  "[A]",
  "[B]",
  "[M]",
  "[H]",
  "[T]",
  "[AUCTION]",
  "[SKYBLOCK]",
  "[NEW]",
  "[SALE]",
  "[YOU]",
]);

/** Words a rule's place can hold that are never a player: "You activated a lever", "Party > Party". */
export const NOT_NAMES = new Set([
  "you",
  "your",
  "the",
  "they",
  "them",
  "their",
  "have",
  "has",
  "who",
  "this",
  "that",
  "she",
  "all",
  "any",
  "one",
  "each",
  "every",
  "someone",
  "somebody",
  "nobody",
  "everyone",
  "everybody",
  "anyone",
  "party",
  "guild",
  "friend",
  "officer",
  "from",
  "defeated",
  "null",
  "player",
  "and",
  "but",
  "not",
  "was",
  "were",
  "its",
]);

/**
 * `raw`: the rule reads the text as it came, codes included (a colour is its only sign of a name).
 * `shape`: the rule names no player but only other players' chat has its shape ("Party > hi"):
 * the denylist refuses it, the scrubber has nothing to replace.
 */
export type Rule = { pattern: RegExp; list?: boolean; raw?: boolean; shape?: boolean; speaker?: boolean };
export type Family = {
  family: string;
  doc: string;
  /**
   * Found on the plain text before the family's rules run: every literal word its rules need, so a
   * text without any of them (most of a stack trace) is not scanned by each rule in turn.
   */
  gate: RegExp;
  rules: Rule[];
  /** Real lines (or lines built from a mod's pattern) and the names in them: the family's own test. */
  examples: [text: string, names: string[]][];
};

const rule = (
  source: string,
  opts: { list?: boolean; raw?: boolean; shape?: boolean; speaker?: boolean } = {},
): Rule => ({
  pattern: new RegExp(source, "dgm"),
  ...opts,
});
/** A gate: any of these words. */
const anyOf = (...words: string[]) => new RegExp(words.join("|"));

export const families: readonly Family[] = [
  {
    family: "rank_tag",
    gate: /\[[A-Z]/,
    doc: "A rank tag and the name after it, anywhere: [MVP+] Steve, [JR HELPER] Name, [PIG+++] Name",
    rules: [rule(`(?<rank>${SERVER_RANK}) ?(?<name>${NAME})`)],
    examples: [
      ["§7☢ §r§b[MVP§d+§b] hannibal2", ["hannibal2"]],
      ["RARE DROP! Enchanted Book (+120% ✯ Magic Find) [MVP+]Steve", ["Steve"]],
      ["Killed by [YOUTUBE] Dream", ["Dream"]],
    ],
  },
  {
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
    ],
    examples: [
      ["§9Party §8> §7nea89o§f: peee", ["nea89o"]],
      ["§2Guild > §6⚔ §6[MVP§3++§6] RealBacklight§f: !warp", ["RealBacklight"]],
      ["§bCo-op > §7nea89o§f: hallooooo", ["nea89o"]],
    ],
  },
  {
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
  },
  {
    family: "all_chat",
    gate: /: |[^\x00-\x7F]/,
    doc: "All-chat: with a level ([58] Name: ...), after [CHAT] in a game log, or a bare line Name: ... when the name looks like one",
    rules: [
      rule(`(?:${START}|(?<![\\w\\]]))${LEVEL}${EMBLEM}?(?:(?<rank>${RANK_TAG}) ?)?(?<name>${NAME})(?=: )`),
      rule(`\\[CHAT\\] ${EMBLEM}?(?<name>${NAME}): `),
      // A bare line, its speaker by its place: one word at the start of a line (after at most one
      // space and an emblem) before ": " and a message, unless the word is a system word
      // ("Health: +100", "Ability: Throw", "Description: Rendering screen"). Not after a tab
      // (crash-report details, mod lists "\tfabricloader: 0.16") nor before a number or a sign.
      rule(`^ ?${EMBLEM}?(?<name>${NAME}): (?=[^\\s\\d+-])`, { speaker: true }),
      // With its codes: a name in a colour, then another colour for the colon (a player's line);
      // a label's colon takes the label's colour ("§7Ability: §6Throw").
      rule(`${START}(?:${CODE}){0,6}§[0-9a-f](?<name>${NAME})(?:${CODE}){1,4}: `, { raw: true, speaker: true }),
      // An emblem and a name alone on a line (a name tag, a player list).
      rule(`${START}[^\\x00-\\x7F\\s] (?<name>${USERLIKE}${NAME})[ \\t]*$`),
    ],
    examples: [
      ["[58] §7nea89o§7: haiiiii", ["nea89o"]],
      ["[12:00:01] [Render thread/INFO]: [CHAT] Alex_99: anyone for F7?", ["Alex_99"]],
    ],
  },
  {
    family: "tab_list",
    gate: /\[\d|\[[MAHTB]\]|\[Lvl|\((?:Archer|Berserk|Healer|Mage|Tank|EMPTY|DEAD)/,
    doc: "Tab-list and scoreboard entries: [210] Name, [319] Name α (Mage XXXIV), [M] Name 2,480❤, Name [Lvl34]",
    rules: [
      rule(`${START}${LEVEL}${EMBLEM}?(?:(?<rank>${RANK_TAG}) ?)?(?<name>${NAME})(?=[ \\t]*$| [^\\x00-\\x7F\\s]| \\()`),
      rule(`${START}\\[[MAHTB]\\] (?<name>${NAME})(?=[ \\t]*$| [\\d,]{1,9}❤| DEAD| \\[Lvl ?\\d| \\()`),
      rule(`${START}${EMBLEM}?(?<name>${NAME}) \\[Lvl ?\\d{1,3}\\]`),
      rule(
        `${START}(?:(?<rank>${RANK_TAG}) ?)?(?<name>${NAME}) [^\\x00-\\x7F\\s(]{0,4} ?\\((?:Archer|Berserk|Healer|Mage|Tank|EMPTY|DEAD)`,
      ),
    ],
    examples: [
      ["§8[§r§9319§r§8] §r§bEmpa_ §r§7α §r§f(§r§dMage XXXIV§r§f)", ["Empa_"]],
      ["§e[M] §7Steve §a2,480§c❤", ["Steve"]],
    ],
  },
  {
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
    ),
    doc: "Teammates in dungeons: levers, terminals, devices, doors, keys, deaths and revives, puzzles, blessings, trivia",
    rules: [
      rule(
        `${START}(?:[☠❣] )?${P}(?:'s)? (?:activated a|completed a|has obtained|picked up|healed you|fairy healed|formed a tether|granted you|opened a|was killed|was revived|` +
          `revived|has revived|reconnected|disconnected|fell|burnt|burned|suffocated|drowned|died|became a ghost|is now ready|` +
          `is no longer ready|found a|has found|tied |wasn't fooled)`,
      ),
      rule(
        `(?:revived by|was killed by|killed by|Revived by|splashed by|health by|healed by|tether with|teleported to) ${P}`,
      ),
      rule(`${START}${P} used [^\\n]{1,40}? on you`),
      rule(`${START}PUZZLE (?:SOLVED|FAIL)! ${P} `),
      rule(`${START}DUNGEON BUFF! ${P} found`),
      rule(`: ${P} (?:answered (?:Question #\\d|the final question)|chose the wrong answer)`),
      rule(`${START}Kicked ${P} because they were offline`),
      // A death or revive line: the sign marks it, whatever the cause's wording; the first word
      // after the sign is a player (or "You"), and so is the one after "by".
      rule(`${START}[☠❣] ${P}`, { speaker: true }),
      rule(`[☠❣] [^\n]{1,80}? by ${P}`, { speaker: true }),
      rule(`(?:revive|heal|healed|save|saved) your friend ${P}`),
      // A party member as the Party Finder lists them: " Name: Mage (34)".
      rule(`${START}${P}: (?:Archer|Berserk|Healer|Mage|Tank) \\(\\d`),
    ],
    examples: [
      ["§bmartimavocado§r§a activated a lever! (§r§c7§r§a/7)", ["martimavocado"]],
      ["§c ☠ §r§7§r§bZeroHazel§r§7 was killed by §r§8§lAshfang§r§7§r§7.", ["ZeroHazel"]],
    ],
  },
  {
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
      rule(`${START}Party (?:Leader|Moderators|Members): `, { list: true }),
      rule(`${START}You'll be partying with: `, { list: true }),
      // A list without a heading on its line (the guild's online list under its rank heading):
      // names each followed by "●".
      rule(`${START}${EMBLEM}?(?:(?<rank>${RANK_TAG}) ?)?(?<name>${NAME}) {1,2}●`, { list: true }),
      rule(`${START}You have joined ${P}'s? party`),
      rule(
        `${START}${P} (?:invited|has invited you|has disbanded|has been removed|was removed|has left|left the party|joined the party|` +
          `has disconnected|has promoted|has demoted|warped|summoned you|has joined|is not online|has rejoined)`,
      ),
      rule(`invited ${P} to the party`),
      rule(`${START}The party was transferred to ${P}(?: (?:by|because) ${P2})?`),
      rule(`${START}${P} has (?:promoted|demoted) ${P2}`),
      rule(`${START}(?:The party leader, |Party leader )${P}`),
      rule(`${START}You have been kicked from the party by ${P}`),
    ],
    examples: [
      ["Party Finder > nea89o joined the dungeon group! (Mage Level 34)", ["nea89o"]],
      ["Party Members: [VIP] Alex_99 ● Steve ● lrg89 ●", ["Alex_99", "Steve", "lrg89"]],
    ],
  },
  {
    family: "friend",
    gate: anyOf(
      "Friend request",
      "friends with",
      "friend request",
      "You removed",
      "Click here to view",
      "removed you",
      "your friend",
      "accepted your",
    ),
    doc: "Friend requests, friend lists, profiles: Click here to view Name's profile",
    rules: [
      rule(`(?:Friend request from|You are now friends with|friend request to|You removed|Click here to view) ${P}`),
      rule(
        `${START}${P} (?:removed you from|is now your friend|has sent you a friend request|accepted your friend request)`,
      ),
    ],
    examples: [["\n§eClick here to view §bnea89o§e's profile", ["nea89o"]]],
  },
  {
    family: "trade",
    gate: /[Tt]rad/,
    doc: "Trades: requests, completions, cancellations",
    rules: [
      rule(
        `(?:Trade completed with|trade request to|trading with|Trade request from|You traded with|Trading with) ${P}`,
      ),
      rule(
        `${START}${P} (?:has sent you a trade request|cancelled the trade|sent you a trade request|accepted the trade)`,
      ),
    ],
    examples: [["Trade completed with §b[MVP§c+§b] lrg89§f!", ["lrg89"]]],
  },
  {
    family: "auction",
    gate: /Auction|auction|sold to|bought by|outbid by|Seller:|Buyer:|Bidder:/,
    doc: "Auction house: bought, outbid, sold to, claimed from someone's auction",
    rules: [
      rule(`${START}\\[Auction\\] ${P} (?:bought|outbid|bid|claimed|collected)`),
      rule(`(?:selling [^\\n]{1,80}? to|from|by) ${P}'s? (?:in an auction|auction)`),
      rule(`(?:sold to|bought by|outbid by|Seller:|Buyer:|Bidder:) ${P}`),
    ],
    examples: [["[Auction] [MVP+] Steve bought Hyperion for 1,000,000 coins CLICK", ["Steve"]]],
  },
  {
    family: "reward",
    gate: anyOf(
      "has obtained",
      "found",
      "unlocked",
      "caught",
      "dug up",
      "reached",
      "is holding",
      "is wearing",
      "is friends with",
      "You punched",
      "What's up,",
      "Good job,",
      "Thanks,",
      "[Ww]elcome,",
    ),
    doc: "Broadcasts naming who found, unlocked or obtained something",
    rules: [
      rule(
        `${START}(?:[A-Z][A-Z ]{1,24}! )?${P} (?:has obtained|found|unlocked|caught|dug up|reached|is holding|is wearing|` +
          `is friends with)`,
      ),
      rule(`(?:You punched|What's up,|Good job,|Thanks,|welcome,|Welcome,) ${P}`),
    ],
    examples: [["§b[MVP§r§c+§r§b] Empa_§r§f §r§ehas obtained §r§a§r§7[Lvl 1] §r§6Bal§r§e!", ["Empa_"]]],
  },
  {
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
  },
  {
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
  },
  {
    family: "crash_report",
    gate: /\['|name=|Setting user|Username|Player name|Logged in as|Entity Type|<[A-Za-z0-9_]/,
    doc: "Crash reports and game logs: player lists, game profiles, entity details, user lines, vanilla chat",
    rules: [
      rule(
        `(?:EntityPlayerSP|EntityOtherPlayerMP|EntityPlayerMP|LocalPlayer|RemotePlayer|ServerPlayer|ClientPlayerEntity|` +
          `OtherClientPlayerEntity|ServerPlayerEntity|class_\\d{1,5})\\['(?<name>${NAME})'/`,
      ),
      rule(
        `(?:GameProfile|class_\\d{1,5}|PlayerInfo|Profile)(?:@[0-9a-f]{1,16})?[\\[{](?:id=[0-9a-fA-F-]{0,36}, ?)?name=(?<name>${NAME})`,
      ),
      rule(`(?:Setting user|Username|Player name|Logged in as): (?<name>${NAME})`),
      rule(
        `^[ \\t]{0,8}Entity Type: [^\\n]{0,60}[Pp]layer[^\\n]{0,80}\\n[ \\t]{0,8}Entity ID: \\d{1,10}\\n` +
          `[ \\t]{0,8}Entity Name: (?<name>${NAME})`,
      ),
      rule(`${START}<(?<name>${NAME})> `),
    ],
    examples: [
      ["\tAll players: 1 total; [EntityPlayerSP['Steve'/123, l='MpServer', x=1.50, y=70.00, z=3.50]]", ["Steve"]],
      ["[CHAT] <Alex_99> anyone for F7?", ["Alex_99"]],
    ],
  },
  {
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
  },
];

/** Every rule with its family, in order. */
export const allRules: readonly { family: string; gate: RegExp; rule: Rule }[] = families.flatMap((f) =>
  f.rules.map((rule) => ({ family: f.family, gate: f.gate, rule })),
);
