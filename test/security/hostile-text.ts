// Hostile text for the privacy rules (issue 22, finding 3): 32 KiB of the shapes that make a
// backtracking engine go quadratic, and every rule of the scrubber and the denylist. Shared by
// test/security/scrubber.test.ts and bench/scrub.ts.
import { chatBlockRules } from "../../src/privacy/chat-block.ts";
import { allRules } from "../../src/privacy/families.ts";
import { uuidRules } from "../../src/privacy/denylist.ts";
import { findRules } from "../../src/privacy/find.ts";
import { linkRules } from "../../src/privacy/links.ts";
import { scrubberRules } from "../../src/privacy/scrub.ts";
import { unknownWordRules } from "../../src/privacy/unknown-words.ts";
import { knownNameRules } from "../../src/privacy/known-names.ts";

const SIZE = 32 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

export const hostile: [string, string][] = [
  ["newlines", fill("\n")],
  ["space-newline", fill(" \n")],
  ["spaces", fill(" ")],
  ["tabs then x", fill("\t") + "x"],
  ["dots", fill(".")],
  ["digits and dots", fill("1.2.")],
  ["octets", fill("255.")],
  ["hex", fill("0123456789abcdef")],
  ["hex and dashes", fill("0123abcd-")],
  ["rank tags", fill("[MVP+] ")],
  ["rank tags without space", fill("[MVP++]")],
  ["open brackets", fill("[")],
  ["levels", fill("[287] ")],
  ["colour codes", fill("§a")],
  ["colour codes and names", fill("§b[MVP§c+§b] ")],
  ["at signs", fill("@")],
  ["local parts", fill("a.") + "@"],
  ["addresses without end", fill("a@a.")],
  ["word run", fill("a")],
  ["name-sized words", fill("Steve_99 ")],
  ["channel prefixes", fill("Party > ")],
  ["chat markers", fill("[CHAT] ")],
  ["emblems", fill("☢ ")],
  ["jwt starts", fill("-eyJ")],
  ["jwt parts", fill("eyJabcdefgh.")],
  ["token prefixes", fill("token:")],
  ["secret args", fill("--session=")],
  ["windows homes", fill("C:\\Users\\")],
  ["unix homes", fill("/home/")],
  ["stack frames", fill("\tat a.b.C.d(")],
  ["apostrophes", fill("['")],
  ["braces", fill("{name=")],
  ["selling", fill("selling ")],
  ["list bullets", fill("Party Members: a ● ")],
  ["colons", fill("a: ")],
  ["possessives", fill("Steve's ")],
  ["transfers", fill("Steve transferred to ")],
  ["refused verbs", fill("You cannot kick ")],
  ["list headings", fill("Members: a, ")],
  ["npc greetings", fill("[NPC] A: Hi. ")],
  // The clause rules of other servers (issue 36, batch 7): a subject's passive without its doer, a
  // log's lead-in and id repeated, angle-bracket speakers, whisper arrows, "while fighting" chains.
  ["passives", fill("\nSteve was shot a ")],
  ["log lead-ins", fill("[12:00:00] [Server thread/INFO]: Steve (2f6e) ")],
  ["angle speakers", fill("\n[Blue] <a")],
  ["whisper arrows", fill("[Steve -> ")],
  ["fight chains", fill("Steve died while fighting ")],
  ["doer chains", fill("You were kicked by ")],
  ["toggles", fill("enabled for 1")],
  // Island plugins' lines and a boss's damage list (issue 36, batch 8): a prefix and its separator
  // repeated before a clause, "the player" chains, ownership phrases, damage ranks, adverbs.
  ["plugin prefixes", fill("\nSkyBlock | Info: Steve ")],
  ["prefix separators", fill("Island » ")],
  ["player labels", fill("the player Steve ")],
  ["player not found", fill("Player Steve has not been ")],
  ["ownership", fill("ownership of the Island to ")],
  ["owner is", fill("Owner is ")],
  ["damage ranks", fill("\n1st Damager - ")],
  ["adverbs", fill("You have quickly ")],
  ["invite answers", fill("\nSteve accepted your ")],
  // Moderation plugins' lines (issue 36): punishments without a doer, record headings, look-ups, commands.
  ["punishments", fill("\nSteve was successfully temp-")],
  ["record headings", fill("History for Steve ")],
  ["look-ups", fill("UUID of Steve ")],
  ["moderation commands", fill("/history Steve ")],
  ["not able to", fill("You are not able to ban ")],
  ["teleported chains", fill("\nTeleported Steve to Steve ")],
  ["teleport asks", fill("teleport request asking ")],
  ["home possessives", fill("Steve's home")],
  ["online headings", fill("a players online: ")],
  ["tried to", fill("\nSteve tried to kick ")],
  ["unknown players", fill("Unknown player Steve ")],
  ["transferred by", fill("transferred by ")],
  ["bot found nothing", fill("\nGuild > Bot: no data found for ")],
  ["possessive passives", fill("\nSteve's skull was crushed a ")],
  // Speakers by their place (issue 36, batch 9's round): relays, tags before a separator, labels.
  ["bridge relays", fill("\nGuild > Bot: Steve replying to ")],
  ["chat tags", fill("[VIP] (G) ")],
  ["tags before separators", fill("\n[VIP] Steve_99  ")],
  ["word tags", fill("\n[Leader] [Всем] ")],
  ["player labels", fill("Player player Player ")],
  ["puzzle marks", fill("\n Ice Fill: [✔] (")],
  ["label doers", fill("\nPlayer Steve was a a a by ")],
  ["former names", fill("Steve (formerly known as ")],
  ["emote leads", fill("\n** Steve is ")],
  ["social objects", fill("\nIsland » Steve kicked steve ")],
  ["bot reply fields", fill("\nGuild > Bot: Steve | ")],
  ["list headings", fill("\nIsland | Steve's Current party members: ")],
  ["profile brackets", fill("Steve (Apple) (")],
  ["frame lines", fill("\tat a.b.c(")],
  ["frame starts without a bracket", fill("\tat aaaa ")],
  ["indented ats", `${" ".repeat(SIZE - 4)}at x`],
  ["a chat block", `Party > Steve: hi\n${fill("Alex » hi\n")}`],
  ["a chat block of prefixes", fill("Essentials » Reloaded.\n")],
  // Crash reports and logs as players paste them (issue 36, batch 10's round).
  ["an entity list", `\tAll players: 9999 total; [${fill("bll['Steve_99'/1, l='MpServer', x=0.5], ")}`],
  ["entity lists without entities", fill("\tAll players: ")],
  ["entity quotes", `All players: ${fill("['")}`],
  ["player classes", fill("PlayerPlayerPlayer['")],
  ["player classes without a name", fill("EntityPlayer['Steve_99 ")],
  ["server entities", fill("](Steve at ")],
  ["entity names", fill("\tEntity Type: minecraft:zombie\n\tEntity ID: 1\n\tEntity Name: ")],
  ["entity names without end", fill("\tEntity Name: Steve_99 ")],
  ["who lists", fill("ONLINE: Steve, ")],
  ["star levels", fill("[1234✫] ")],
  ["capital tags", fill("\n[SHOUT] [RED] ")],
  ["log chat markers", fill("[System] [CHAT] [CHAT] ")],
  ["headline doers", fill("\nBED DESTRUCTION > was by by by ")],
  ["headlines without a doer", fill("\nBED DESTRUCTION > Red Bed was destroyed ")],
  ["fight clauses", fill("\nSteve bled whilst whilst fighting ")],
  ["codes read as Windows-1252", fill("Â§b[MVPÂ§c+Â§b] ")],
  ["lone Windows-1252 marks", fill("ÂÂ")],
  ["star levels read as Windows-1252", fill("[1234âœ«] ")],
  // Console lines (issue 36, console-families.ts and LOG_PREFIX): prefixes without a message,
  // addresses without their verb, feedback verbs without a target, echoes and block-logger rows
  // without their end.
  ["console prefixes", fill("\n[12:00:00] [Server thread/INFO] [minecraft/PlayerList]: ")],
  ["paper prefixes", fill("\n[12:00:00 INFO]: [12:00:00 INFO]: ")],
  ["wrapped prefixes", fill("\nmc-1  | Jan 05 12:00:00 host java[1]: 02:07:04 [INFO] ")],
  ["addresses without a verb", fill("\nSteve[/1.2.3.4:5555]Steve[local:E:1a2b] (/1.2.3.4:5) ")],
  ["feedback verbs", fill("\nKicked Made Banned player Teleported Set Gave 64 [Stone] to ")],
  ["operator echoes", fill("\n[Steve: [Steve: Made Steve ")],
  ["block logger rows", fill("\n0.00/h ago - + - Steve placed ")],
  ["proxy brackets", fill("[/1.2.3.4|Steve,/1.2.3.4] [connected player] ")],
  ["bedrock gamertags", fill("Player connected: a b c d e f g h ")],
  ["chat threads", fill("Async Chat Thread - #1/INFO]: [Not Secure] [Member] ")],
  // Lines that name a player, each read strictly for others (issue 36, scrub.ts strictLines): every
  // line names one, every other word is a capitalised unknown one or a long compound.
  ["naming lines", fill("\nParty > [MVP+] Steve_99: Quintrix Zyrael Reisenbergmann ")],
  // "&" colour codes (normalise.ts): codes everywhere, ampersands that are no code, words between them.
  ["ampersand codes", fill("&a")],
  ["ampersands", fill("&")],
  ["ampersands in words", fill("a&b ")],
  ["one naming line", `Party > [MVP+] Steve_99: ${fill("Quintrixzyraelab ")}`],
  // Bare labels beside chat (issue 36, session 26, chat-block.ts): every other line a label the chat
  // line before it makes a speaker, every label a word of English, camel-case words before capitals.
  ["labels beside chat", fill("\nParty > Steve: hi\nAlias: Nether\nDirection: North")],
  ["camel words before capitals", fill("NetherWart Growth ")],
  // Profile links (links.ts): hosts without an end, and paths of profile segments.
  ["hosts", fill("a.bb/")],
  ["profile paths", `https://x.io${fill("/stats/u")}`],
  // A line's language (language.ts, session 27): one line of another language's function words and
  // unknown words, each after that language's word for a player; accented words to fold.
  ["function words and handles", fill("nie gracz abcdef de ")],
  ["accented words", fill("się żółto ")],
];

/** Every rule: the families' (by family and index), the uuid rules, the scrubber's own. */
export function privacyRules(): [string, RegExp][] {
  return [
    ...allRules.map(({ family, rule }, i) => [`${family}#${i}`, rule.pattern] as [string, RegExp]),
    ...uuidRules.map((r, i) => [`${r.name}#${i}`, r.pattern] as [string, RegExp]),
    ...scrubberRules.map((r) => [r.name, r.pattern] as [string, RegExp]),
    ...chatBlockRules.map((r) => [r.name, r.pattern] as [string, RegExp]),
    ...linkRules.map((r) => [r.name, r.pattern] as [string, RegExp]),
    ...findRules.map((r) => [r.name, r.pattern] as [string, RegExp]),
    ...unknownWordRules.map((r) => [r.name, r.pattern] as [string, RegExp]),
    ...knownNameRules.map((r) => [r.name, r.pattern] as [string, RegExp]),
  ];
}

/** Runs a rule to the end of a text, as the scrubber does (every match). */
export function everyMatchOf(pattern: RegExp): (text: string) => number {
  const all = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  return (text) => {
    let n = 0;
    for (const _ of text.matchAll(all)) n++;
    return n;
  };
}

/** The best of three runs, in ms. */
export function time(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    run();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}
