// The language a line of a report is written in (issue 36, session 27): players write reports in
// their own language, and the structure-free layer (unknown-words.ts) knows English words only, so
// every word of a French or German sentence looked like a lower-case handle ("joueur", "perdu").
// A line is in another language when more of its words are that language's function words (the
// `stopword` package's lists: "le", "est", "und", "nicht", "que", "nie") than are English words;
// there a word is read as a name only by a mark no language's word has (a digit, an underscore, a
// capital inside it) or after the language's word for a player, a friend or a nick. Linear: one
// pass over the line's words, set look-ups each.
import * as stopword from "stopword";
import { known } from "./known-words.ts";

/**
 * The Latin-script languages read, by ISO 639-3 code (their words are what the layer would otherwise
 * take for handles); Portuguese's list is Portugal's and Brazil's together.
 */
const CODES = [
  "cat",
  "ces",
  "dan",
  "deu",
  "est",
  "fin",
  "fra",
  "glg",
  "hrv",
  "hun",
  "ind",
  "ita",
  "lat",
  "lav",
  "lit",
  "msa",
  "nld",
  "nob",
  "pol",
  "ron",
  "slk",
  "slv",
  "spa",
  "swe",
  "tgl",
  "tur",
] as const;
const OTHERS: Record<string, readonly string[]> = {
  ...Object.fromEntries(CODES.map((code) => [code, stopword[code]])),
  por: [...stopword.por, ...stopword.porBr],
};

/** English's words of one or two letters players write that `stopword`'s English list has not. */
const SHORT_ENGLISH = ["no", "ok", "oh", "so", "hi", "yo", "ya", "go", "us", "um", "ah", "ty", "gg"];

type Lists = { english: Set<string>; languages: string[]; of: Map<string, number[]> };
let lists: Lists | undefined;
/**
 * English's function words, and for each other language's word the languages it is a function word
 * of, but not English's ("die", "also", "was" are German's too: a word both have says nothing of
 * which the line is in). One look-up a word. Built on first use.
 */
function functionWords(): Lists {
  if (lists) return lists;
  // With a few short words of players' English the list lacks ("no", "ok", "so").
  const english = new Set([...stopword.eng.map((w) => w.toLowerCase()), ...SHORT_ENGLISH]);
  const languages = Object.keys(OTHERS);
  const of = new Map<string, number[]>();
  languages.forEach((language, i) => {
    for (const word of new Set(OTHERS[language]!.flatMap((w) => [w.toLowerCase(), withoutAccents(w.toLowerCase())]))) {
      if (english.has(word)) continue;
      const list = of.get(word);
      if (list) list.push(i);
      else of.set(word, [i]);
    }
  });
  lists = { english, languages, of };
  return lists;
}

/**
 * The shortest word `known` holds that counts as English on a line: its dictionary holds many short
 * words of other languages ("jeu", "ami", "mon", "sur", "pote"), rare in English, common there.
 */
const ENGLISH_WORD = 5;
/** An English contraction's tail after its apostrophe ("don't", "it's", "I'm", "you're"): no word of its own. */
const APOSTROPHES = new Set(["'", "\u2019"]);
const CONTRACTIONS = new Set(["t", "s", "m", "re", "ve", "ll", "d"]);
/** A letter outside ASCII ("é", "ł", "ß"): a word is a run of letters, accented ones included. */
const LETTER = /^\p{L}$/u;
/** How many UTF-16 units the letter at `at` takes (a letter outside the BMP two), or 0 when none stands there. */
function letterAt(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return 1;
  if (c < 128 || Number.isNaN(c)) return 0;
  const letter = String.fromCodePoint(text.codePointAt(at)!);
  return LETTER.test(letter) ? letter.length : 0;
}
/** Words already read without their accents, a few thousand at most (emptied when full). */
const unaccented = new Map<string, string>();
/** A word without its accents: players often type "sie" for "się", "esta" for "está". */
function withoutAccents(w: string): string {
  if (/^[\x00-\x7f]*$/.test(w)) return w;
  let plain = unaccented.get(w);
  if (plain === undefined) {
    if (unaccented.size >= 4096) unaccented.clear();
    plain = w.normalize("NFD").replace(/\p{M}/gu, "");
    unaccented.set(w, plain);
  }
  return plain;
}

/**
 * The language a line is written in: another language's ISO 639-3 code when at least one of its
 * words is that language's own function word and more of them are than the line has English words
 * that are not; "" for English (a line with an English word and no more of another language's);
 * undefined when the line has neither (too few words to tell, or code: "Logi czyste", "peee"). An
 * English word is one of its function words, or one `known` holds (the dictionary's and the
 * project's lists: "config" and "server" in a Polish line are English's) of five letters or more,
 * or shorter when it is another language's function word too ("will", "see", "mon": shared, it
 * tells neither way). `line` is plain (normalise.ts: no colour codes). Linear: set look-ups a word.
 */
export function lineLanguage(line: string): string | undefined {
  const { english, languages, of } = functionWords();
  const isEnglish = (lower: string, functionOf: number[] | undefined) =>
    english.has(lower) || ((lower.length >= ENGLISH_WORD || functionOf !== undefined) && known(lower));
  // Each word once, with the languages it is a function word of.
  const words = new Map<string, number[] | undefined>();
  let met = false;
  for (let at = 0, end = 0; at < line.length; at = end) {
    // The next run of letters, read a character at a time: most are ASCII.
    let step = letterAt(line, at);
    if (step === 0) {
      end = at + 1;
      continue;
    }
    let ascii = true;
    let lowerCase = false;
    for (end = at; step > 0; end += step, step = letterAt(line, end)) {
      const c = line.charCodeAt(end);
      if (c > 127) ascii = false;
      else if (c >= 97) lowerCase = true;
    }
    const word = line.slice(at, end);
    if (at > 0 && APOSTROPHES.has(line[at - 1]!) && CONTRACTIONS.has(word.toLowerCase())) continue;
    // A word in capitals is an id's part or a numeral ("NO_PAIN", "VI"), not prose.
    if (ascii ? !lowerCase : word === word.toUpperCase()) continue;
    const lower = word.toLowerCase();
    if (words.has(lower)) continue;
    const functionOf = of.get(ascii ? lower : withoutAccents(lower));
    words.set(lower, functionOf);
    if (functionOf) met = true;
  }
  // No other language's function word (most English lines): English as soon as one word is.
  if (!met) {
    for (const lower of words.keys()) if (isEnglish(lower, undefined)) return "";
    return undefined;
  }
  let englishWords = 0;
  // Per language met: its function words on the line, and those of them English has too ("son", "die").
  const hits = new Map<number, { all: number; shared: number }>();
  for (const [lower, languagesOf] of words) {
    const inEnglish = isEnglish(lower, languagesOf);
    if (inEnglish) englishWords++;
    for (const i of languagesOf ?? []) {
      const h = hits.get(i) ?? { all: 0, shared: 0 };
      h.all++;
      if (inEnglish) h.shared++;
      hits.set(i, h);
    }
  }
  let best: [number, number] | undefined;
  for (const [i, h] of hits)
    if (h.all > englishWords - h.shared && (!best || h.all > best[1] || (h.all === best[1] && i < best[0])))
      best = [i, h.all];
  if (best) return languages[best[0]];
  return englishWords > 0 ? "" : undefined;
}

/** How much of a text's head its language is read from when a line cannot tell (a report's own words stand first). */
const TEXT_HEAD = 2048;

/** The languages of lines already read, by line: one report's calls share it (strict lines are read twice). */
export type LineLanguages = Map<string, string | undefined>;

/**
 * The language of a text's line, or of the text's head when the line cannot tell ("Merci beaucoup"
 * alone says little; the report it stands in says French): another language's code, or "" for
 * English. `text` is plain; `head` caches the head's answer for one text, `lines` each line's.
 */
export function languageAt(
  text: string,
  lineStart: number,
  lineEnd: number,
  head: { language?: string },
  lines: LineLanguages = new Map(),
): string {
  const line = text.slice(lineStart, lineEnd);
  if (!lines.has(line)) lines.set(line, lineLanguage(line));
  const own = lines.get(line);
  if (own !== undefined || (lineStart === 0 && lineEnd >= text.length)) return own ?? "";
  head.language ??= lineLanguage(text.slice(0, TEXT_HEAD)) ?? "";
  return head.language;
}

/**
 * The words other languages write a player, a friend or a nick with, before the person's name ("gracz
 * kxt", "Spieler silwol", "meu amigo toymil", "mon pseudo est"), lower-case and without accents: the
 * translations of the English person's places (person-place.ts: "player X", "my friend X").
 */
const PERSON_WORDS = new Set(
  [
    // Polish, German, French, Spanish and Portuguese, Italian, Dutch
    "gracz gracza graczem graczu gracze graczy kolega kolegi kolege koledzy kolezanka kumpel kumpla znajomy",
    "nick nicku nickiem",
    "spieler spielers spielerin freund freundin freunde kumpel kollege kollegin nick nickname ingamename",
    "joueur joueuse joueurs ami amie amis pote potes pseudo",
    "jugador jugadora jugadores amigo amiga amigos jogador jogadora jogadores parceiro usuario",
    "giocatore giocatrice giocatori amico amica speler spelers vriend vriendin",
    // Swedish, Danish and Norwegian, Czech and Slovak, Turkish, Hungarian, Romanian, Indonesian and Malay
    "spelare spiller kompis ven venn hrac hraca kamarad kamarat oyuncu oyuncusu arkadas arkadasim",
    "jatekos jatekost baratom jucator jucatorul prieten prietenul pemain teman kawan",
  ]
    .join(" ")
    .split(" "),
);

/**
 * The word before a place, one or two spaces before it: a bounded run of letters from a word's start
 * (linear). The rule `wordBefore` reads, a character at a time (the regular expression is slower).
 */
const WORD_BEFORE = /(?<!\p{L})(\p{L}{1,22})[ \t]{1,2}$/u;

/** The word WORD_BEFORE finds in the 24 characters before `at`, read backwards; undefined when none. */
export function wordBefore(text: string, at: number): string | undefined {
  const from = Math.max(0, at - 24);
  let end = at;
  while (end > from && at - end < 2 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  if (end === at) return undefined;
  let start = end;
  let letters = 0;
  for (let step = letterBefore(text, start, from); step > 0; step = letterBefore(text, start, from)) {
    start -= step;
    letters++;
  }
  return letters === 0 || letters > 22 ? undefined : text.slice(start, end);
}

/**
 * Is the word at `at` in a person's place of a line in another language: right after that language's
 * word for a player, a friend or a nick ("Gracz smonv ma", "Spieler silwol wird")? Constant work: the
 * 24 characters before it.
 */
export function foreignPersonBefore(text: string, at: number): boolean {
  const before = wordBefore(text, at);
  return before !== undefined && PERSON_WORDS.has(withoutAccents(before.toLowerCase()));
}

/** How many UTF-16 units the letter ending at `end` takes, not reading before `from`; 0 when none. */
function letterBefore(text: string, end: number, from: number): number {
  if (end <= from) return 0;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xdc00 && c <= 0xdfff && end - 2 >= from) return letterAt(text, end - 2) === 2 ? 2 : 0;
  return letterAt(text, end - 1) === 1 ? 1 : 0;
}

/** This file's regular expressions (for the hostile-input tests). */
export const languageRules: readonly { name: string; pattern: RegExp }[] = [
  { name: "language_letter", pattern: LETTER },
  { name: "language_word_before", pattern: WORD_BEFORE },
];
