// A speaker decided by the report around it (issue 36): a bare line "Name » text" is a player's chat
// line or a plugin's prefix ("Essentials » Reloaded."), and its own words cannot tell which. Beside
// a line the rules already read as chat (a channel, a whisper, an all-chat speaker), or beside
// another such line taken so, it is chat: its first word is a speaker. So is a bare line's word
// that reads as a label ("Orbital: Hello", as "Alias: Nether"; find.ts) beside chat. One pass over the
// candidate lines, forward and back, so a block of chat is read whatever its order.
import { NOT_NAMES } from "./not-names.ts";
import { EMBLEM, NAME } from "./shapes.ts";
import { SYSTEM_WORDS } from "./system-words.ts";

/** Families whose hit makes its line a chat line. */
export const CHAT_FAMILIES: ReadonlySet<string> = new Set([
  "channel_line",
  "whisper",
  "all_chat",
  "angle_chat",
  "server_whisper",
]);

/** A bare speaker before a chat separator other than a colon, at a line's start (linear: anchored, bounded). */
const CANDIDATE = new RegExp(`^ ?${EMBLEM}?(?<name>${NAME}) {1,2}[»›➯⋙⇨►➤] `, "dgm");

/** The rule this step runs (for the hostile-input tests). */
export const chatBlockRules: readonly { name: string; pattern: RegExp }[] = [
  { name: "chat_block", pattern: CANDIDATE },
];

export type BlockHit = { name: string; start: number; end: number };

/** The line a position is on, by binary search over the newlines' positions. */
function lineOf(newlines: number[], at: number): number {
  let lo = 0;
  let hi = newlines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (newlines[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The bare speakers of `plain` (spans in plain positions) that stand beside a chat line: `chatAt` holds
 * a plain position on each line the rules read as chat; `labels` the bare labels found (find.ts), in
 * the order of the text.
 */
export function chatBlockHits(plain: string, chatAt: number[], labels: BlockHit[] = []): BlockHit[] {
  if (chatAt.length === 0 || (labels.length === 0 && !/[»›➯⋙⇨►➤]/.test(plain))) return [];
  const found: BlockHit[] = [];
  for (const m of plain.matchAll(CANDIDATE)) {
    const name = m.groups!.name!;
    const lower = name.toLowerCase();
    if (NOT_NAMES.has(lower) || SYSTEM_WORDS.has(lower) || /^[A-Z]+$/.test(name)) continue;
    const [start, end] = m.indices!.groups!.name!;
    found.push({ name, start, end });
  }
  if (found.length + labels.length === 0) return [];
  const newlines: number[] = [];
  for (let i = plain.indexOf("\n"); i !== -1; i = plain.indexOf("\n", i + 1)) newlines.push(i);
  const candidates = [...found, ...labels]
    .sort((a, b) => a.start - b.start)
    .map((c) => ({ ...c, line: lineOf(newlines, c.start) }));
  const chat = new Set(chatAt.map((at) => lineOf(newlines, at)));
  const taken = new Set<number>();
  const take = (i: number) => {
    const c = candidates[i]!;
    if (taken.has(i) || !(chat.has(c.line - 1) || chat.has(c.line + 1))) return;
    taken.add(i);
    chat.add(c.line);
  };
  for (let i = 0; i < candidates.length; i++) take(i);
  for (let i = candidates.length - 1; i >= 0; i--) take(i);
  return [...taken].map((i) => {
    const { name, start, end } = candidates[i]!;
    return { name, start, end };
  });
}
