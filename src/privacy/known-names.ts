// Names this instance knows are players' (issue 36, session 28): a report's word that is an
// account's name or a name the profile lookups cached is a player's name wherever it stands in free
// text, whatever the line's shape, and is replaced like the families' names. The rules find a name
// by where it stands; a player signing their own report ("Thanks! HelioPlayz"), or naming a friend
// who plays with the mod, in a sentence no rule reads, is caught here. The scrubber reads no table:
// the caller looks the words up (`nameCandidates` gives them, bounded) and passes the names found
// (`ScrubOptions.players`). A word of English or of the game is never looked up: a player named
// "Crash" or "Hyperion" does not take those words from every report.
import { type GameWords, known, ofTheGame } from "./known-words.ts";
import { FRAME } from "./lines.ts";
import { normalise } from "./normalise.ts";
import { isWordChar } from "./unknown-words.ts";

/** At most this many of a report's words are looked up: one bounded query whatever the report holds. */
export const MOST_NAMES_LOOKED_UP = 512;

/** A word that could be a player's name (the game's rule: 3 to 16 letters, digits and underscores). */
const WORD = /[A-Za-z0-9_]{3,16}/g;
const hasLetter = (w: string) => /[A-Za-z]/.test(w);

/**
 * Calls `each` with every word of the plain text that stands alone (no word character joined to it),
 * has a letter and is not on a stack frame's line, in order; stops when `each` answers true.
 */
function eachWord(plain: string, each: (word: string) => boolean | undefined): boolean {
  for (let from = 0; from <= plain.length; ) {
    let to = plain.indexOf("\n", from);
    if (to === -1) to = plain.length;
    const line = plain.slice(from, to);
    from = to + 1;
    if (FRAME.test(line)) continue;
    for (const m of line.matchAll(WORD)) {
      const at = m.index;
      const end = at + m[0].length;
      if ((at > 0 && isWordChar(line.charCodeAt(at - 1))) || (end < line.length && isWordChar(line.charCodeAt(end))))
        continue;
      if (hasLetter(m[0]) && each(m[0])) return true;
    }
  }
  return false;
}

/**
 * The words of a report to look up as players' names, lower-case, each once, in the order they
 * stand: those of its free text that no dictionary, list or game word holds, at most
 * MOST_NAMES_LOOKED_UP (the first ones: a report's own words come first, its crash text after).
 */
export function nameCandidates(fields: Record<string, string | undefined>, game?: GameWords): string[] {
  const words = new Set<string>();
  for (const value of Object.values(fields)) {
    if (!value) continue;
    const full = eachWord(normalise(value).plain, (word) => {
      const lower = word.toLowerCase();
      if (!words.has(lower) && !known(lower) && !ofTheGame(lower, game)) words.add(lower);
      return words.size >= MOST_NAMES_LOOKED_UP;
    });
    if (full) break;
  }
  return [...words];
}

/** The words of the plain text, as they are written, that are one of these players' names (lower-case). */
export function playerNamesIn(plain: string, players: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  if (players.size === 0) return found;
  eachWord(plain, (word) => {
    if (players.has(word.toLowerCase())) found.add(word);
    return false;
  });
  return found;
}

/** This file's regular expressions (for the hostile-input tests). */
export const knownNameRules: readonly { name: string; pattern: RegExp }[] = [
  { name: "known_name_word", pattern: WORD },
];
