// Where a person's name stands in a line of game text or a log (issue 36, written from the
// development part): a message's or a sentence's first word before a lower-case word, a word after a
// word for a person or a label for one. The structure-free layer (unknown-words.ts) reads a word of
// letters there more strictly than elsewhere: a capitalised one too. Pure text, constant work a word.

/**
 * A log line's prefix before its message: "[12:00:01] [Server thread/INFO]: ", "[12:00:01 INFO]: ",
 * "[Client thread/INFO]: [CHAT] ", a rank ("[MVP+] "), a plugin's name before its mark ("PvP ➤ ",
 * "CBA >> "), then a few marks ("» ", "- "); not an NPC's or a boss's tag ("[NPC] Oringo: "). Read on a line's
 * first 160 characters.
 */
const MESSAGE_START =
  /^(?:\[(?!NPC\]|BOSS\])[^\]\n]{1,60}\] ?){0,4}:? ?(?:\[CHAT\] (?:\[(?!NPC\]|BOSS\])[^\]\n]{1,20}\] ?){0,3})?(?:[A-Za-z]{2,12} ?(?:[➤»›|]|>>) )?[^A-Za-z0-9[\n]{0,4}/;
/** A word of letters, capitalised or not ("Quintrix", "flowerhack"): read where a person's name stands. */
export const PLAIN = /^[A-Za-z][a-z]{2,15}$/;
/**
 * A message's first word is its subject when a lower-case word follows it ("Zyrael joined the game",
 * "Quintrix was slain by a Zombie") or ": " (a speaker); "Gabagool the Fish" is an epithet.
 */
const SUBJECT_AFTER = /^(?:: | {1,2}(?!the )[a-z])/;
/**
 * Another place a word is a person's (issue 36, from the development part's server-plugin messages):
 * after a word for a person ("killing player Quintrix", 'the owner "Quintrix"', session 26: "Player
 * (Bahex) got 25 points", two spaces as a plugin pads a coloured name, a trade's buyer, seller or
 * purchaser), or a label for one before a short list ("Trusted: a, b, Quintrix", "Owner(s):
 * Quintrix"). Read on at most 48 characters before the word.
 */
const PERSON_BEFORE =
  /(?:^|[^A-Za-z])(?:player|owner|user|author|member|sender|trusted|buyer|seller|purchaser|friend|teammate|leader|guy|dude|buddy)(?:\(s\)|s)?(?: {1,2}"?| \(|: | not found: | info: )(?:[A-Za-z0-9_]{3,16}, ){0,2}$/i;
/**
 * A leaderboard's row (issue 36, session 26, from the development part's plugin tops): a rank at a
 * line's start before the word ("1. Glandos - 24", "#3 Chiffa", "2) Rekihyt: 12"), and after it the
 * line's end or a score.
 */
const RANK_ROW_BEFORE = /(?:^|\n)[ \t]{0,4}#?\d{1,3}[.)]? {1,2}$/;
const RANK_ROW_AFTER = /^(?: {0,2}(?:\r?\n|$)| {0,2}[-–:] {0,2}[\d$])/;
/**
 * A dungeon class after the word (issue 36, session 26, from the development part's dungeon modules):
 * "Added Zuruh (Archer) to the list", "Removed Quintrix (Tank)". Read on the 10 characters after it.
 */
const CLASS_AFTER = /^ \((?:Archer|Berserk|Healer|Mage|Tank)[ )]/;
/**
 * A player naming themself or another in a report's own words (issue 36, session 26, from the
 * development part's bug reports): "my name is Giantlobstah", "Current IGN: Reisen", "username is
 * Hailgame", "in game name - koren_99", "by the name of Sakies".
 */
const SELF_BEFORE =
  /(?:^|[^A-Za-z])(?:(?:user|in-?game|ingame|minecraft|mc|forum|account|my|his|her|their) ?name(?: is| -|:| of)?|name (?:is|of)|ign(?: is|:| -)?|nick(?:name)?(?: is|:)|gamertag(?: is|:)?)"? {1,2}$/i;
/**
 * A person thanked or greeted, or one who said something (issue 36, session 26, from the development
 * part's bug reports): "thanks Ambertje for clearing up", "Ackro said he has fixed the issue".
 */
const GREETING_BEFORE = /(?:^|[^A-Za-z])(?:thanks|thank you|thx|ty|hi|hey|hello|dear)[ ,]{1,2}$/i;
const SPEECH_AFTER =
  /^ (?:said|says|told|asked|mentioned|reported|wrote|suggested|confirmed|described|explained|replied|answered|stated)(?![A-Za-z])/;
/** What every self-naming lead-in holds: most words are read without trying SELF_BEFORE. */
const SELF_HINT = /name|ign|nick|tag/i;
/** A sentence's end before a word: "The shop is full! Quintrix tried to sell". */
const SENTENCE_BEFORE = /[.!?] $/;

/**
 * A clause's end after a preposition for a person (issue 36, session 25, from the development part's
 * plugin lines): "Teleported to Reuven.", "Owned by Jeroendevr", "Tagged by Eruvanos!", "the
 * nickname of Merlin", read for a capitalised word only, before a mark that ends it, a line's end or the text's end.
 */
const CLAUSE_END_BEFORE = / (?:to|by|from|with|of) $/;
const CLAUSE_END_AFTER = /^(?:[.!?,;)\r\n]|$)/;

/**
 * A possessive before a lower-case word (issue 36, session 25, from the development part's plugin
 * lines): "You don't have Parkayun's permission", "Deleted all of Nickatak's claims".
 */
const POSSESSIVE_AFTER = /^['’]s [a-z]/;

/**
 * Does a capitalised word stand where a person's name does inside a sentence: at a clause's end after
 * "to", "by", "from", "with" or "of", or as a possessive?
 */
export const personInClause = (text: string, at: number, end: number) =>
  (CLAUSE_END_BEFORE.test(text.slice(Math.max(0, at - 6), at)) && CLAUSE_END_AFTER.test(text.slice(end, end + 1))) ||
  POSSESSIVE_AFTER.test(text.slice(end, end + 4));

/** Where the message of a line starts, after its log prefix, rank, plugin prefix and marks. */
export function messageStart(head: string): number {
  return MESSAGE_START.exec(head.slice(0, 160))![0].length;
}

/** Does a word stand where a person's name does (a message's subject, PERSON_BEFORE, ...)? */
export function placed(text: string, at: number, end: number, opensMessage: boolean): boolean {
  const before = text.slice(Math.max(0, at - 48), at);
  if ((opensMessage || SENTENCE_BEFORE.test(before)) && SUBJECT_AFTER.test(text.slice(end, end + 6))) return true;
  return namedPlace(text, at, end);
}

/**
 * Does a word stand where only a person does: after a word for a person or a label for one, a
 * greeting, a self-naming lead-in, before a dungeon class or a verb of speech, in a leaderboard's
 * row? (Not a sentence's subject: a thing is one as often.)
 */
export function namedPlace(text: string, at: number, end: number): boolean {
  const after = text.slice(end, end + 6);
  const before = text.slice(Math.max(0, at - 48), at);
  if (RANK_ROW_BEFORE.test(before) && RANK_ROW_AFTER.test(after)) return true;
  if (CLASS_AFTER.test(text.slice(end, end + 10))) return true;
  if (GREETING_BEFORE.test(before.slice(-12)) || SPEECH_AFTER.test(text.slice(end, end + 12))) return true;
  if (PERSON_BEFORE.test(before)) return true;
  if (signed(before, after)) return true;
  const tail = before.slice(-24); // the longest self-naming lead-in, "minecraft name is ", and a quote
  return SELF_HINT.test(tail) && SELF_BEFORE.test(tail);
}

/**
 * A message signed (issue 36, session 28, from the development part's bug reports): its line's last
 * word after a dash, a tilde or two slashes that follow a space ("Thanks! -HelioPlayz", "help me
 * -Dybber10", "thx for now! //felicia"); not a command line's last flag ("-Xms1G -Xmx4G").
 */
const SIGNATURE_BEFORE = /(?:^|\s)(?:-{1,2}|~|\/\/|—) ?$/;
const SIGNATURE_AFTER = /^[ \t]{0,4}[.!]?[ \t]{0,4}(?:\r?\n|$)/;
const FLAG_BEFORE = /(?:^|\s)-{1,2}[A-Za-z][^\n]{0,40}\s-{1,2} ?$/;
const signed = (before: string, after: string) =>
  SIGNATURE_AFTER.test(after) && SIGNATURE_BEFORE.test(before.slice(-5)) && !FLAG_BEFORE.test(before);

/** These regular expressions (for the hostile-input tests). */
export const personPlaceRules: readonly { name: string; pattern: RegExp }[] = [
  { name: "unknown_word_message_start", pattern: MESSAGE_START },
  { name: "unknown_word_subject_after", pattern: SUBJECT_AFTER },
  { name: "unknown_word_person_before", pattern: PERSON_BEFORE },
  { name: "unknown_word_clause_end_before", pattern: CLAUSE_END_BEFORE },
  { name: "unknown_word_clause_end_after", pattern: CLAUSE_END_AFTER },
  { name: "unknown_word_possessive_after", pattern: POSSESSIVE_AFTER },
  { name: "unknown_word_rank_row_before", pattern: RANK_ROW_BEFORE },
  { name: "unknown_word_rank_row_after", pattern: RANK_ROW_AFTER },
  { name: "unknown_word_class_after", pattern: CLASS_AFTER },
  { name: "unknown_word_self_before", pattern: SELF_BEFORE },
  { name: "unknown_word_self_hint", pattern: SELF_HINT },
  { name: "unknown_word_greeting_before", pattern: GREETING_BEFORE },
  { name: "unknown_word_speech_after", pattern: SPEECH_AFTER },
  { name: "unknown_word_signature_before", pattern: SIGNATURE_BEFORE },
  { name: "unknown_word_signature_after", pattern: SIGNATURE_AFTER },
  { name: "unknown_word_flag_before", pattern: FLAG_BEFORE },
];
