// Finding the player names a text holds: the families' rules run on the plain text (codes and
// invisible characters stripped), and each name found is answered with its span in the original.
import { CHAT_FAMILIES, chatBlockHits } from "./chat-block.ts";
import { allRules, NAME, NOT_NAMES, NOT_RANKS, RANK_TAG, SYSTEM_WORDS } from "./families.ts";
import { gatedLines, type Lines, lineCount, withoutFrames } from "./lines.ts";
import { wordOfLanguage } from "./known-words.ts";
import { normalise, originalSpan, type Plain } from "./normalise.ts";

/**
 * A name and where it stands; `name` is empty for a rule that finds a shape, not a name. `label`: a
 * bare line's word that reads as a plugin's label ("Alias: Nether"), a speaker only beside chat.
 */
export type NameHit = { family: string; name: string; start: number; end: number; label?: boolean };

/** One name of a list ("[VIP] Alex ● Steve ●", "[MVP+] A, [VIP] B"), read from where the last ended. */
const LIST_ITEM = new RegExp(
  `[ \\t]{0,4}(?:(?<rank>${RANK_TAG}) ?)?(?=[0-9_]{0,15}[A-Za-z])(?<name>${NAME})[ \\t]{0,4}(?:●|,|and(?= ))?`,
  "dy",
);

/**
 * One entity of a crash report's list, whatever its class ("bll['Name'/56391, ..", "EntityPlayer['Name'/9, ..",
 * "class_745['Name'/3, .."): the name in quotes, then its numeric id. Read only after a heading whose
 * list holds players alone (issue 36); looked for by its "['", one pass over the line.
 */
const ENTITY = new RegExp(`\\['(?<name>${NAME})'/\\d`, "dg");

const GROUPS = ["", "2", "3"] as const;

/** The rules this step runs besides the families' (for the hostile-input tests). */
export const findRules: readonly { name: string; pattern: RegExp }[] = [
  { name: "list_item", pattern: LIST_ITEM },
  { name: "entity", pattern: ENTITY },
];

/** Is the first letter at `at`, past at most four colour codes, a capital ("§fNether", "The item")? */
function capitalAt(text: string, at: number): boolean {
  for (let i = 0; i < 4 && text[at] === "§"; i++) at += 2;
  const c = text.charCodeAt(at);
  return c >= 65 && c <= 90;
}

/** A word a speaker rule reads that is a label or a log word, not anyone: "Ability", "INFO". */
const systemWord = (name: string) => SYSTEM_WORDS.has(name.toLowerCase()) || /^[A-Z]+$/.test(name);

/**
 * Calls `onHit` for every name found in the plain text (spans in plain positions, or in the original
 * for a raw rule), rule by rule; stops as soon as `onHit` answers something truthy. Stack frames are
 * left out first (lines.ts).
 */
function eachHit(whole: string, wholeOriginal: string, onHit: (h: NameHit, raw: boolean) => unknown): void {
  if (!MAY_HOLD_NAME.test(whole)) return;
  const unframed = withoutFrames(whole);
  const unframedOriginal = wholeOriginal === whole ? unframed : withoutFrames(wholeOriginal);
  const plain = unframed?.text ?? whole;
  const original = unframedOriginal?.text ?? wholeOriginal;
  const backPlain = unframed?.back ?? ((at: number) => at);
  const backOriginal = unframedOriginal?.back ?? ((at: number) => at);
  // Each family reads the lines its gate admits (lines.ts); a raw rule reads the whole original, a
  // rule that reads past its line the whole plain text.
  const lines = lineCount(plain);
  const gated = new Map<RegExp, Lines | "all" | undefined>();
  for (const { family, gate, rule } of allRules) {
    if (rule.raw && wholeOriginal === whole) continue;
    if (!gated.has(gate)) gated.set(gate, gatedLines(plain, lines, gate));
    const open = gated.get(gate);
    if (!open) continue;
    const own = open === "all" || rule.acrossLines ? undefined : open;
    const text = rule.raw ? original : (own?.text ?? plain);
    const back = rule.raw ? backOriginal : own ? (at: number) => backPlain(own.back(at)) : backPlain;
    const hit = (name: string, start: number, end: number, label = false) =>
      onHit({ family, name, start: back(start), end: back(start) + (end - start), label }, !!rule.raw);
    for (const m of text.matchAll(rule.pattern)) {
      if (rule.shape) {
        if (hit("", m.index, m.index)) return;
        continue;
      }
      const g = m.groups ?? {};
      if (GROUPS.some((n) => g[`rank${n}`] && NOT_RANKS.has(g[`rank${n}`]!.toUpperCase()))) continue;
      for (const n of GROUPS) {
        const name = g[`name${n}`];
        if (!name || NOT_NAMES.has(name.toLowerCase()) || (rule.speaker && systemWord(name))) continue;
        const [start, end] = m.indices!.groups![`name${n}`]!;
        const label =
          rule.label === true && capitalAt(text, m.index + m[0].length) && wordOfLanguage(name.toLowerCase());
        if (hit(name, start, end, label)) return;
      }
      if (rule.entities) {
        // The rest of the match's line only: a heading without entities costs its own line.
        const from = m.index + m[0].length;
        let end = text.indexOf("\n", from);
        if (end === -1) end = text.length;
        for (const item of text.slice(from, end).matchAll(ENTITY)) {
          const name = item.groups!.name!;
          if (NOT_NAMES.has(name.toLowerCase())) continue;
          const [start, stop] = item.indices!.groups!.name!;
          if (hit(name, from + start, from + stop)) return;
        }
      }
      if (rule.list) {
        let at = m.index + m[0].length;
        for (;;) {
          LIST_ITEM.lastIndex = at;
          const item = LIST_ITEM.exec(text);
          if (!item || LIST_ITEM.lastIndex === at) break;
          at = LIST_ITEM.lastIndex;
          const rank = item.groups!.rank;
          const name = item.groups!.name!;
          if ((rank && NOT_RANKS.has(rank.toUpperCase())) || NOT_NAMES.has(name.toLowerCase())) continue;
          const [start, end] = item.indices!.groups!.name!;
          if (hit(name, start, end)) return;
        }
      }
    }
  }
}

/**
 * Every rule needs a space, a bracket, a quote, a brace or an angle bracket around a name: a
 * string with none of them (a counter key, an item id) holds no name and is not read further.
 */
const MAY_HOLD_NAME = /[ \t\n\r[{'<]/;
/** The same before normalising: look-alike spaces become spaces. */
const MAY_HOLD_NAME_RAW = /[ \t\n\r[{'<\u00A0\u2000-\u200A\u202F\u205F\u3000]/;

/**
 * Every name the text holds, with its span in the original text (codes around it left out): the
 * families' rules, then the bare speakers beside the chat lines they found (chat-block.ts).
 */
export function findNames(text: string, p: Plain = normalise(text)): NameHit[] {
  const hits: NameHit[] = [];
  const chatAt: number[] = [];
  const labels: NameHit[] = [];
  eachHit(p.plain, text, (h, raw) => {
    if (h.label) return void labels.push(h); // plain positions: the label rule is not raw
    if (!raw && CHAT_FAMILIES.has(h.family)) chatAt.push(h.start);
    if (!h.name) return; // a shape without a name: nothing to replace
    const [start, end] = raw ? [h.start, h.end] : originalSpan(p, h.start, h.end);
    hits.push({ ...h, start, end });
  });
  for (const b of chatBlockHits(p.plain, chatAt, labels)) {
    const [start, end] = originalSpan(p, b.start, b.end);
    hits.push({ family: "chat_block", name: b.name, start, end });
  }
  return hits;
}

/** The family of the first name the text holds, or undefined. */
export function firstNameFamily(text: string): string | undefined {
  if (!MAY_HOLD_NAME_RAW.test(text)) return undefined;
  let family: string | undefined;
  eachHit(normalise(text).plain, text, (h) => {
    if (h.label) return false; // a label with no chat around it
    family = h.family;
    return true;
  });
  return family;
}
