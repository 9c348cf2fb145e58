// The shapes every name family is built from (see families.ts): a player name, a rank tag, a level,
// an emblem, the start of a line, a channel prefix, a player as chat prints them, and the Rule and
// Family types with their constructors. Linear on any input: see the rules in families.ts.

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
export const SERVER_RANK =
  "\\[(?:VIP\\+?|MVP\\+{0,2}|YOUTUBE|YT|PIG\\+{3}|INNIT|MOJANG|EVENTS|MCP|GM|ADMIN|MOD|HELPER|JR HELPER|OWNER|BUILD TEAM|STAFF)\\]";
/**
 * A game log's chat marker is never a rank (issue 36): in "[12:00:00] [Render thread/INFO]: [System]
 * [CHAT] X was slain by Y" the player stands after "[CHAT] ", where START and CLAUSE_LEAD look for it;
 * read as a rank tag it would take the line's start and drop the match.
 */
export const NOT_LOG_TAG = "(?!\\[CHAT\\])";
/**
 * A player before a word, read backwards from that word (issue 36): a rule written as
 * "word(?<=SUBJECT word)" is tried only where its word stands, not at every position of a 32 KiB
 * report, and finds the same player (rank tag allowed) as a rule starting with P.
 */
export const SUBJECT = `(?<![A-Za-z0-9_'\\]])(?:${NOT_LOG_TAG}(?<rank>${RANK_TAG}) ?)?(?<name>${NAME})`;
/** The start of a line or of a chat line, inside a look-behind (see SUBJECT). */
export const START_BEHIND = "(?:^|\\[CHAT\\] )[ \\t]{0,40}";
/**
 * A literal at the start of a line or chat line, as `${START}literal` finds it, written so the
 * literal is looked for first and the line's start is checked behind it: a report is then read at
 * the literal's few places rather than at every position.
 */
export const atLineStart = (literal: string) => `${literal}(?<=${START_BEHIND}${literal})`;
/** A console line's time, perhaps with its date: "12:34:56", "2024-04-01 20:50:26:198", "2021-01-01 12:00:00.000". */
const LOG_TIME = "(?:\\d{4}-\\d{2}-\\d{2}[ T])?\\d{1,2}:\\d{2}(?::\\d{2})?(?:[.,:]\\d{1,3})?";
/**
 * A server or client console's prefix before its message (issue 36), each part bounded and nothing
 * repeated: vanilla's and Forge's "[12:34:56] [Server thread/INFO]: " (a logger after the thread, "
 * [minecraft/PlayerList]: ", or NeoForge's " (Minecraft) "), Paper's and a Bedrock server's "[12:34:56 INFO]: ",
 * "[2024-04-01 20:50:26:198 INFO] ", the thread without its time ("[Server thread/INFO]: "), and
 * old servers', BungeeCord's and Nukkit's time before a bracketed level ("2012-09-02 07:54:39 [INFO] ",
 * "02:07:04 [信息] ").
 */
export const LOG_PREFIX =
  `\\[${LOG_TIME}(?: [A-Z]{2,5})?\\] \\[[^\\]\\n]{1,40}\\](?: \\[[^\\]\\n]{1,60}\\]| \\([A-Za-z][^)\\n]{0,30}\\))?:? |` +
  `\\[${LOG_TIME} [A-Z]{3,7} ?\\]:? |\\[[A-Z][A-Za-z #0-9-]{1,30}\\/[A-Z]{3,5}\\]:? |${LOG_TIME} \\[[^\\]\\n]{1,12}\\]:? |` +
  // A time alone, bracketed or bare, perhaps with its level (issue 36, deaths in server logs):
  // "[12:00:01] X was slain by Y", "2023-05-01 12:00:01,123 INFO X drowned". Not before a bracket:
  // there the time's own level follows ("2012-09-02 07:54:39 [INFO] "), not a rank tag.
  `\\[${LOG_TIME}\\]:? (?!\\[)|${LOG_TIME}(?: (?:INFO|WARN|WARNING|ERROR|DEBUG))? (?!\\[)`;
/**
 * What a container or a service manager puts before a console's own prefix (issue 36): a Docker
 * Compose service's "mc-1  | ", the journal's "Jan 05 12:00:00 host java[1234]: ".
 */
export const LOG_WRAPPER =
  "[a-z][a-z0-9_.-]{0,40}[ \\t]{1,8}\\| |[A-Z][a-z]{2} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} [A-Za-z0-9_.-]{1,40} [A-Za-z0-9_.-]{1,30}\\[\\d{1,8}\\]: ";
/**
 * Where a clause's subject stands: the start of a line or chat line, a server log's time and thread
 * (`[12:10:02] [Server thread/INFO]: `), then at most one lead-in a server prints before the
 * player (an emoji or symbol, an emote's or a list's `*`, a `:emoji:` code, a `[Plugin]` prefix, a `KICK:` label, an
 * `ESCAPED!` headline) and a `Player ` label. Each part bounded; nothing repeated.
 */
export const CLAUSE_LEAD =
  `(?:^|\\[CHAT\\] )[ \\t]{0,40}(?:${LOG_WRAPPER})?(?:${LOG_PREFIX})?` +
  "(?:(?:[^\\x00-\\x7F\\s]{1,2}|\\*{1,2}|:[a-z_]{1,30}:|\\[[A-Za-z][A-Za-z ]{0,19}\\]|[A-Z][A-Za-z]{1,15}:|[A-Z]{2,12}(?: [A-Z]{2,12})?!|" +
  // A plugin's prefix and its separator, then at most one label: "SkyBlock | Info: ", "Island » ", "Skyblock >> ".
  "[A-Z][A-Za-z]{1,15}(?: [A-Za-z]{1,15})? ?(?:[|»›➤➜]|>>|-)(?: [A-Z][A-Za-z]{1,15}:)?) )?";
/**
 * A Bedrock player's mark before the name, as Floodgate prefixes it (issue 36): ".Name", "*Name"
 * (the name after it is what is replaced).
 */
export const BEDROCK = "(?:[.*](?=[A-Za-z0-9_]))?";
/** A clause's start, then a "Player" label if there is one, then a Bedrock mark if there is one. */
export const CLAUSE_START = `${CLAUSE_LEAD}(?:(?:[Tt]he )?[Pp]layer )?${BEDROCK}`;
/**
 * A level in front of a name: SkyBlock's [287], and a game's star level with its prestige symbol
 * (issue 36, Bed Wars and SkyWars all-chat: [1234✫], [12✪], and "[12âœ«]" as a log read as Windows-1252 shows it).
 */
export const LEVEL = "\\[\\d{1,4}[^\\x00-\\x7F\\s\\]]{0,3}\\] ";
/** One symbol (an emblem, a music note, a class sign) and a space in front of a name: "☢ ". */
export const EMBLEM = "(?:[^\\x00-\\x7F\\s] )";
/** The start of a line, or of a chat line inside a game-log line ("... [CHAT] Party > ..."). */
export const START = "(?:^[ \\t]{0,40}|\\[CHAT\\] [ \\t]{0,40})";
/** A word that looks like a player's name and not like a label: it holds a digit or an underscore, or starts lower-case. */
export const USERLIKE = "(?=[A-Za-z0-9_]{0,15}[0-9_]|[a-z])";
/** A formatting code, on the original text. */
export const CODE = "§[0-9a-fA-Fk-oK-OrR]";

/** The chat channels' prefixes, long and compact: "Party >", "G >". */
export const CHANNEL = "Party|Guild|Officer|Co-op|Coop|Friend|P|G|O|C|CC|GC|PC|OC";

/** A player as chat prints them: level, emblem, rank tag, then the name. */
export const player = (n = "") =>
  `(?:${LEVEL})?${EMBLEM}?(?:${NOT_LOG_TAG}(?<rank${n}>${RANK_TAG}) ?)?(?<name${n}>${NAME})`;
export const P = player();
export const P2 = player("2");

/**
 * `raw`: the rule reads the text as it came, codes included (a colour is its only sign of a name).
 * `shape`: the rule names no player but only other players' chat has its shape ("Party > hi"):
 * the denylist refuses it, the scrubber has nothing to replace.
 */
export type Rule = {
  pattern: RegExp;
  list?: boolean;
  /** Every entity of a crash report's list after the match, to its line's end, is a player: `X['Name'/12`. */
  entities?: boolean;
  raw?: boolean;
  shape?: boolean;
  speaker?: boolean;
  /**
   * A bare line's speaker that may be a label (issue 36): a word of English or of the game before a
   * capitalised value ("Alias: Nether", "Test: The item in your hand...") is not a name.
   */
  label?: boolean;
  /**
   * The pattern can read past its own line (a crash report's entity block: "Entity Type: ..\n
   * Entity ID: ..\nEntity Name: X"): it runs on the whole text, not on its family's gated lines
   * (lines.ts). Set by `rule` from the pattern itself.
   */
  acrossLines?: boolean;
};
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

export const rule = (
  source: string,
  opts: { list?: boolean; entities?: boolean; raw?: boolean; shape?: boolean; speaker?: boolean; label?: boolean } = {},
): Rule => ({
  pattern: new RegExp(source, "dgm"),
  ...opts,
  ...(readsAcrossLines(source) ? { acrossLines: true } : {}),
});

/** Escapes that match a line break: "\n", whitespace, a non-digit, a non-word character. */
const BREAKING_ESCAPES = new Set(["n", "s", "D", "W"]);

/** The code of a character class's item at `at` ("a", "\x7F", "\u00A7", "\]"), and where it ends. */
function classItem(source: string, at: number): { code?: number; escape?: string; end: number } {
  if (source[at] !== "\\") return { code: source.codePointAt(at)!, end: at + 1 };
  const e = source[at + 1]!;
  if (e === "x") return { code: Number.parseInt(source.slice(at + 2, at + 4), 16), end: at + 4 };
  if (e === "u") return { code: Number.parseInt(source.slice(at + 2, at + 6), 16), end: at + 6 };
  if (e === "n") return { code: 10, end: at + 2 };
  if (/[sSdDwWtr]/.test(e)) return { escape: e, end: at + 2 };
  return { code: e.codePointAt(0)!, end: at + 2 };
}

/**
 * Can a pattern's match (or what it looks around at) reach past a line break? It can where it holds
 * "\n", "\s", "\D" or "\W" outside a class, or a class that admits a line break ("[\s\S]",
 * "[^\]]"; not "[^\]\n]", "[^\x00-\x7F]"). Conservative: a rule it answers yes for only costs more.
 */
export function readsAcrossLines(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      const e = source[i + 1]!;
      if (BREAKING_ESCAPES.has(e) || (e === "x" && source.slice(i + 2, i + 4) === "0A")) return true;
      if (e === "u" && source.slice(i + 2, i + 6) === "000A") return true;
      i++;
      continue;
    }
    if (c !== "[") continue;
    const negated = source[i + 1] === "^";
    let j = negated ? i + 2 : i + 1;
    let breaks = false;
    for (let first = true; j < source.length && (first || source[j] !== "]"); first = false) {
      const item = classItem(source, j);
      j = item.end;
      if (item.escape) {
        if (BREAKING_ESCAPES.has(item.escape)) breaks = true;
        continue;
      }
      if (source[j] === "-" && source[j + 1] !== "]") {
        const to = classItem(source, j + 1);
        j = to.end;
        if (item.code! <= 10 && (to.code ?? 0) >= 10) breaks = true;
      } else if (item.code === 10) breaks = true;
    }
    if (negated !== breaks) return true;
    i = j;
  }
  return false;
}

/** A gate: any of these words. */
export const anyOf = (...words: string[]) => new RegExp(words.join("|"));
