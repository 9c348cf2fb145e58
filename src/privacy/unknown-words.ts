// The report scrubber's structure-free fallback (issue 36): a word of free text shaped like a
// player's name that nothing knows is replaced, whatever the line's structure. The families
// (families.ts) find a name by where it stands; every new genre of line has a new structure, so a
// name in one they were not written for passes. This layer asks the word itself: a word of English
// (the `word-list` package's dictionary), a word the project knows (system-words.ts, not-names.ts,
// the profile names, the mods and tools known-words.ts lists, the game's own words the caller passes
// in: the item list's names, see GameWords), an identifier or a piece of code (joined to a `.`, `/`,
// `$`, `(`, `:`, a Java class's suffix, a stack frame, a mod id before its version, a number or hex)
// is kept. Only a word with a name's marks is replaced: a digit, an underscore, a lower-case
// start or a capital inside it ("xX_Pro_Xx", "junegunn", "Alex99", "CalMWolfs"). A capitalised word
// ("Goldor", "Hyperion", "Steve") is the game's boss, item and place names as often as a player's:
// it is read only where a person stands (person-place.ts), more strictly there. The ingest denylist
// uses this layer on texts of several words (denylist.ts; docs/decisions.md).
// One pass over the words of the text, Set look-ups (the words it knows: known-words.ts).
import { type GameWords, known, madeOfSuffix, madeOfWords, ofTheGame } from "./known-words.ts";
import { foreignPersonBefore, type LineLanguages, languageAt, languageRules } from "./language.ts";
import { FRAME } from "./lines.ts";
import { messageStart, namedPlace, PLAIN, personInClause, personPlaceRules, placed } from "./person-place.ts";

export type { GameWords };

/**
 * A Java type's last part: "NullPointerException", "ChatHandler", "ModConfig", "ClientLevel" name
 * code, not people; "BlackAddons", "BridgeBot" name a mod or a bot.
 */
const CODE_SUFFIX =
  /(?:Exception|Error|Handler|Listener|Manager|Event|Config|Impl|Factory|Provider|Service|Utils?|Helper|Mixin|Screen|Gui|Renderer|Loader|Module|Feature|Thread|Task|Client|Server|Packet|Entity|Block|Item|Stack|Registry|Builder|Callback|Accessor|Wrapper|Array|List|Map|Set|String|Level|Connection|Connector|Bridge|Profile|Context|Container|Controller|Component|Session|Pipeline|Executor|Adapter|Interface|Instance|Node|Type|Info|Data|Holder|Tracker|Processor|Parser|Reader|Writer|Stream|Buffer|Channel|Network|Plugin|Addons?|Mod|Bot)$/;

export const isWordChar = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95; // 0-9 A-Z a-z _
const isLower = (c: number) => c >= 97 && c <= 122;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Characters that join a word to code before it: "a.b", "path/x", "Outer$x", "mod:x", "-x", "#x",
 * "~x", a command's mark ("!warp", "c!price"). Not "@" (a mention, "@junegunn"), "<" and ">" (a
 * chat speaker, "<junegunn> hi") nor "=" (a value, often a player's: "name=Zyra_K").
 */
const JOINED_BEFORE = new Set([".", "/", "\\", "$", ":", "-", "#", "~", "&", "%", "*", "+", "!"]);
/** ... and after it: "x(", "x$", "x/", "x=", "x@" (an e-mail address), "x[", "x{" ("x.y", "x:y", "x-y" below). */
const JOINED_AFTER = new Set(["(", "$", "/", "\\", "=", "@", "#", "%", "*", "+", "[", "{"]);

/** A word's letters by kind, and whether a capital follows a lower-case letter in it ("xXProXx"). */
function marks(word: string) {
  let upper = 0;
  let lower = 0;
  let digits = 0;
  let under = 0;
  let innerCap = false;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (isUpper(c)) {
      upper++;
      if (i > 0 && isLower(word.charCodeAt(i - 1))) innerCap = true;
    } else if (isLower(c)) lower++;
    else if (isDigit(c)) digits++;
    else under++;
  }
  return { upper, lower, digits, under, innerCap };
}

/**
 * Has the word a player name's marks and nothing that says it is not one? A capital inside it that
 * is not all capitals, a digit or an underscore, or a lower-case start; then neither a known word,
 * nor a number with a unit ("64x", "20ms"), nor hex, nor a Java type's name.
 */
export function unknownName(word: string, game?: GameWords): boolean {
  const { upper, lower, digits, under, innerCap } = marks(word);
  if (lower === 0) return false; // numbers, ids and words in capitals: "404", "HYPERION", "ITEM_ID"
  const first = word.charCodeAt(0);
  if (!(innerCap || digits || under || isLower(first))) return false; // "Goldor", "Steve": left to the families
  if (isDigit(first) && lower + upper <= 3) return false; // "64x", "20ms", "1st", "8x24", "1080p"
  if (digits && /^[A-Za-z]{1,2}\d{1,3}$/.test(word)) return false; // "x24", "Lv200", "u51": a count, a level, a tier (4 digits: a handle, "sk1985")
  if (under && idOfWords(word, game)) return false; // "mining_1", "max_health", "frozen_steve": an id
  if (digits && /^(?:0x[0-9A-Fa-f]+|[0-9a-f]{6,})$/.test(word)) return false; // hex: hashes, addresses
  if (under && /^[a-z]{2}_[A-Z]{2}$/.test(word)) return false; // a locale: "en_US"
  if (innerCap && !digits && !under && CODE_SUFFIX.test(word)) return false;
  const lc = word.toLowerCase();
  if (known(lc) || ofTheGame(lc, game)) return false;
  if (!upper && !digits && !under && madeOfWords(word)) return false;
  if (innerCap && !digits && !under && isLower(first) && camelCode(word)) return false;
  if (/^(?:class|method|field|func|comp)_\d+(?:_[a-z])?$/.test(word)) return false; // "class_746", "func_70071_h"
  return true;
}

/**
 * An id of words (issue 36; session 26: of known words only): lower-case words of English or the game,
 * or of one or two letters, joined by underscores, perhaps with a number of one or two digits
 * ("mining_1", "max_health", "frozen_steve", "en_us", "r_2_1"); "battlestar_11" and "robo_12" are handles.
 */
function idOfWords(word: string, game?: GameWords): boolean {
  if (!/^[a-z]+(?:_(?:[a-z]+|\d{1,2}))+$/.test(word)) return false;
  return word.split("_").every((p) => p.length <= 2 || isDigit(p.charCodeAt(0)) || known(p) || ofTheGame(p, game));
}

/**
 * A Java field or method in camel case: a known word of 3 letters or more first, then known words
 * or short parts ("keepInventory", "batchId", "parseSplit"); "iTzMe" starts with a letter alone.
 */
function camelCode(w: string): boolean {
  const parts = w.split(/(?=[A-Z])/);
  if (parts[0]!.length < 3 || !known(parts[0]!)) return false;
  return parts.every((p) => p.length <= 2 || known(p.toLowerCase()) || madeOfSuffix(p.toLowerCase()));
}

/**
 * How a word of letters is known, lower-case (`lc`): "word" when the dictionary, the project's lists
 * or the game hold it; "made" when it is made of such words ("Minecart", "Gamerule", "Debuff",
 * "Walkers", "Hailgame"); undefined when nothing knows it. A capitalised word's parts are words of 4
 * letters or more: "Reisen" and "Sergey" are names, not "rei" + "sen" or "ser" + "gey". A lower-case
 * word is not split at all, only read for a prefix or a suffix: "flowerhack" and "frostming" are
 * handles (a game's compound is spelt with a capital where a message opens with it: "Minecart").
 */
function knownAs(lc: string, capital: boolean, game?: GameWords): "word" | "made" | undefined {
  if (known(lc) || ofTheGame(lc, game)) return "word"; // the dictionary first: most words are its
  return (capital ? madeOfWords(lc, 4) : madeOfSuffix(lc)) ? "made" : undefined;
}

/** A name's mark no language's word has: a digit, an underscore, a capital after a lower-case letter. */
function strongMark(word: string): boolean {
  const { digits, under, innerCap } = marks(word);
  return digits > 0 || under > 0 || innerCap;
}

/** A version after a word: a mod list's "modid 1.2.3", "modid v0.28", a crash report's "| modid | 1.2 |". */
const VERSION_AFTER = /^(?:\| )?v?\d{1,3}\.\d/;
/** A word of the plain text that could be a name. */
const WORD = /[A-Za-z0-9_]{3,16}/g;
/** A signature's mark before a name ("-HelioPlayz", "~felicia", "//felicia"): person-place.ts reads the rest. */
const SIGN = new Set(["-", "~", "/"]);
/** A Discord tag after a handle (issue 36, session 26): "Zyoode7#0122" is a person, not code. */
const DISCORD_TAG = /^#\d{4}(?!\d)/;
/** A word in capitals, or capitalised, one space after another ("Growth", "API"). */
const TITLE_AFTER = /^ ([A-Z][A-Za-z]{1,15})(?![A-Za-z0-9_])/;
/** A word capital, capital inside, letters only: "NetherWart", "BlockGetter". */
const CAMEL = /^[A-Z][a-z]+[A-Z][A-Za-z]*$/;
/** A noun of software or of the game's worlds a product's name goes before: "the QuickShop version". */
const SOFTWARE_NOUN_AFTER =
  /^ (?:version|plugin|mod|addon|server|build|config|container|database|data|info|statistics|lock|display|command|api|update|jar|file|files|settings|support|integration|hook|module|feature|menu|gui|shop|world)(?![A-Za-z0-9_])/;

/**
 * A word in camel case before a capitalised word of English or the game is the first part of a
 * thing's name, not a person's (issue 36, session 26, from the development part's log and mod-list
 * lines): "NetherWart Growth Modifier: 100%", "Fabric BlockGetter API (v2)", "Forge RecipeSorter
 * Baking"; so is one before a noun of software ("This QuickShop build", "a AdvancedChests
 * container", from its plugin lines). A handle stands before a mark or another lower-case word
 * ("DarkMatter joined", "[MVP+] DarkMatter: hi", "visiting DarkMatter island"). Constant work: the 18
 * characters after the word.
 */
function namesAThing(text: string, end: number, word: string, game?: GameWords): boolean {
  if (!CAMEL.test(word)) return false;
  if (SOFTWARE_NOUN_AFTER.test(text.slice(end, end + 14))) return true;
  const next = TITLE_AFTER.exec(text.slice(end, end + 18))?.[1]?.toLowerCase();
  return next !== undefined && (known(next) || ofTheGame(next, game));
}

/** A letter outside ASCII: "Piñata", "Pokémon" are one word, not "Pi" + "ata". */
const OTHER_LETTER = /\p{L}/u;
const isOtherLetter = (c: string | undefined) => c !== undefined && c > "\u007f" && OTHER_LETTER.test(c);

/** This layer's regular expressions (for the hostile-input tests). */
export const unknownWordRules: readonly { name: string; pattern: RegExp }[] = [
  { name: "unknown_word", pattern: WORD },
  { name: "unknown_word_frame", pattern: FRAME },
  { name: "unknown_word_code_suffix", pattern: CODE_SUFFIX },
  { name: "unknown_word_version_after", pattern: VERSION_AFTER },
  { name: "unknown_word_title_after", pattern: TITLE_AFTER },
  { name: "unknown_word_camel", pattern: CAMEL },
  { name: "unknown_word_discord_tag", pattern: DISCORD_TAG },
  { name: "unknown_word_software_noun_after", pattern: SOFTWARE_NOUN_AFTER },
  ...personPlaceRules,
  ...languageRules,
];

/**
 * The spans (in the plain text) of the words that stand alone in free text and are unknown names:
 * bounded by characters that are not a word's, not joined to code, not on a stack frame's line, not
 * a field's name on a crash report's indented line. A word seen in a logger's tag or as a mod's id
 * before its version anywhere in the text ("[AntMan/]", "ivtoolkit{1.3.3}") is an identifier wherever
 * it stands: `code` gathers them (lower-case; pass one set for every field of a report, then filter
 * again). `languages`: the languages of lines already read (language.ts), to share between the calls
 * of one report. `strict` gathers the words a strict reading adds (on a line that already names a
 * player, scrub.ts reads every capitalised word of letters as in a person's place; a lower-case one
 * mid-line is a word more often than a handle): those capitalised words of letters nothing knows on
 * a line in English that the layer left, as their spans.
 */
export function unknownWordSpans(
  text: string,
  game?: GameWords,
  code: Set<string> = new Set(),
  languages: LineLanguages = new Map(),
  strict?: [number, number][],
): [number, number][] {
  const spans: [number, number][] = [];
  let lineEnd = -1;
  let frame = false;
  let indented = false;
  let messageAt = -1;
  let lineStart = 0;
  // The line's language ("" for English), read once a line when a word needs it (language.ts).
  let language: string | null = null;
  const textLanguage: { language?: string } = {};
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const at = m.index;
    const end = at + m[0].length;
    if (at > lineEnd) {
      lineStart = text.lastIndexOf("\n", at - 1) + 1;
      language = null;
      lineEnd = text.indexOf("\n", at);
      if (lineEnd === -1) lineEnd = text.length;
      const head = text.slice(lineStart, Math.min(lineEnd, lineStart + 420));
      frame = FRAME.test(head);
      indented = head[0] === "\t";
      messageAt = lineStart + messageStart(head);
    }
    if (frame) {
      WORD.lastIndex = lineEnd; // a frame's other words are not read: the next word is on the next line
      continue;
    }
    if (at > 0 && isWordChar(text.charCodeAt(at - 1))) continue;
    if (end < text.length && isWordChar(text.charCodeAt(end))) continue;
    const before = text[at - 1];
    const after = text[end];
    if (isOtherLetter(before) || isOtherLetter(after)) continue; // part of a word with a letter outside ASCII
    const plain = PLAIN.test(m[0]);
    const capital = isUpper(m[0].charCodeAt(0));
    if (plain) {
      // On a line already read as another language, a word of letters is that language's (below),
      // unless it follows its word for a person or is joined to code: not looked up at all.
      if (language && !foreignPersonBefore(text, at) && !joinedToCode(text, at, end)) continue;
      // A word of letters something knows stays wherever it stands (unknownName is no stricter on
      // it), so nothing else is read for it: most words of a player's sentences. One made of words
      // too, but where nothing but a person stands a capitalised one is a name ("her username is
      // Hailgame", "my friend Mattbazooka"); a lower-case one is a word's form ("thats", "respawned").
      const how = knownAs(m[0].toLowerCase(), capital, game);
      if (how === "word" || (how === "made" && !(capital && namedPlace(text, at, end)))) continue;
    }
    const next = text[end + 1];
    const tagged = after === "#" && DISCORD_TAG.test(text.slice(end, end + 6));
    if (!tagged && joinedToCode(text, at, end) && !(SIGN.has(before ?? "") && namedPlace(text, at, end))) {
      if (inCode(text, at, end)) code.add(m[0].toLowerCase());
      continue;
    }
    if ((after === "'" || after === "\u2019") && next === "t") continue; // "didn't", "doesn't"
    if (after === ":" && indented) continue; // a crash report's field or a mod list's id: "\tCpuCount: 4", "\t\tapoli: Apoli 2.2.2"
    // On a line in another language (language.ts), a word nothing knows is that language's, and
    // English's person's places say nothing: only a mark no language's word has ("Steve_99",
    // "xXProXx"), or that language's word for a player, a friend or a nick before it ("Spieler
    // silwol", "meu amigo Canop"), makes it a name. The line's language is read once, and only for
    // a word that would otherwise be replaced or stands after such a word.
    const strong = strongMark(m[0]);
    const foreignPerson = plain && foreignPersonBefore(text, at);
    if (foreignPerson || !strong) {
      if (language === null) language = languageAt(text, lineStart, lineEnd, textLanguage, languages);
      if (language) {
        if (foreignPerson) spans.push([at, end]);
        continue;
      }
    }
    const person = plain
      ? tagged || (capital && personInClause(text, at, end)) || placed(text, at, end, at === messageAt)
      : m[0].includes("_") && namedPlace(text, at, end); // "my friend philomathic_life": not an id of words there
    if (person || (unknownName(m[0], game) && !namesAThing(text, end, m[0], game))) spans.push([at, end]);
    else if (plain && capital) strict?.push([at, end]);
  }
  return spans.filter(([start, end]) => !code.has(text.slice(start, end).toLowerCase()));
}

/**
 * Joins that make a word code for the whole report: a logger's tag ("[AntMan/]", "[FML/AntMan]"), a mod list's id
 * before its version in braces ("ivtoolkit{1.3.3}") or after a dash ("IvToolkit-1.3.3.jar"). Not a
 * Java name, a file's stem or a key ("dev.mod.X", "X.json", "kills.island.X"), nor "x@", "x#1234",
 * "x=" or a home folder: a player's name stands so too (a per-player file, an e-mail, a Discord tag),
 * and a name the layer finds in free text must not be spared by it.
 */
function inCode(text: string, at: number, end: number): boolean {
  const after = text[end];
  if (after === "{") return true;
  if (after === "/") return text[at - 1] === "[";
  if (after === "]" && text[at - 1] === "/") {
    const tag = text.slice(Math.max(0, at - 40), at); // "[FML/AntMan]": a bracket opens the tag, no space in it
    return tag.lastIndexOf("[") > tag.lastIndexOf(" ");
  }
  return after === "-" && isDigit(text.charCodeAt(end + 1));
}

/**
 * Is the word at [at, end) joined to code: a character of a path, a Java name or an id before or
 * after it, a mod id before its version, or ".x", ":x", "-x" after it?
 */
function joinedToCode(text: string, at: number, end: number): boolean {
  const before = text[at - 1];
  const after = text[end];
  const next = text[end + 1];
  if (before && JOINED_BEFORE.has(before)) return true;
  if (after && JOINED_AFTER.has(after)) return true;
  if (after === " " && VERSION_AFTER.test(text.slice(end + 1, end + 9))) return true; // "\t- zoomify 2.11.2": a mod id
  return (after === "." || after === ":" || after === "-") && next !== undefined && isWordChar(next.charCodeAt(0));
}
