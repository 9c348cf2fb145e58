// The lines of a report the name rules read (issue 36). A report's stack frames are left out first:
// a name is never replaced in a frame ("\tat dev.mod.Steve.tick(Steve.java:3)", scrub.ts), so no
// rule needs to read one, and a crash report is mostly frames. Then each family reads only the
// lines its gate admits ("was killed by" on a death line), as it reads a line alone, so a 32 KiB
// report costs each family its own lines, not the whole text. (Four rules also match a few lines
// without their gate's words, "X has left the party": widening their gates to them was measured,
// no held-out name gained and 3 display lines lost, so a line is read exactly as it is alone.) The
// rules run on the kept lines joined as they stood (each rule reads one line at a time), and each
// position they find is mapped back to the whole text. One pass over the lines (linear).

/**
 * A stack frame's line, as scrub.ts's FRAME_LINE reads it: "\tat dev.mod.Steve.tick(". No name is
 * read or replaced on one (the structure-free layer and the known names' look-up skip it too).
 */
export const FRAME = /^[ \t]*at [\w$./<>]{1,400}\(/;

/** Some lines of a text joined, and where each position of them stood in the whole text. */
export type Lines = { text: string; back: (at: number) => number };

/** Gathers kept lines, each with where it stood. */
class Kept {
  private readonly starts: number[] = [];
  private readonly from: number[] = [];
  private readonly pieces: string[] = [];
  private length = 0;

  /** Keeps text[at, end) and the line break after it, if any. */
  add(text: string, at: number, end: number) {
    this.starts.push(this.length);
    this.from.push(at);
    const piece = text.slice(at, end < text.length ? end + 1 : end);
    this.pieces.push(piece);
    this.length += piece.length;
  }

  get count() {
    return this.pieces.length;
  }

  lines(): Lines {
    const { starts, from } = this;
    const back = (at: number) => {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= at) lo = mid;
        else hi = mid - 1;
      }
      return from[lo]! + (at - starts[lo]!);
    };
    return { text: this.pieces.join(""), back };
  }
}

/** The text without its stack frames, or undefined when it has none (then the text is read as it is). */
export function withoutFrames(text: string): Lines | undefined {
  if (!text.includes("at ")) return undefined;
  const kept = new Kept();
  let dropped = false;
  for (let at = 0; at <= text.length; ) {
    let end = text.indexOf("\n", at);
    if (end === -1) end = text.length;
    if (FRAME.test(text.slice(at, end))) dropped = true;
    else kept.add(text, at, end);
    at = end + 1;
  }
  return dropped ? kept.lines() : undefined;
}

const globalOf = new WeakMap<RegExp, RegExp>();

/** How many lines the text has (a line break at its very end opens none). */
export function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < text.length - 1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

/**
 * The lines of the text (of `lines` lines) the gate matches on: undefined when it matches on none,
 * "all" when on every line. The gate is read once over the text, skipping to the next line at each hit.
 */
export function gatedLines(text: string, lines: number, gate: RegExp): Lines | "all" | undefined {
  let scan = globalOf.get(gate);
  if (!scan) globalOf.set(gate, (scan = new RegExp(gate.source, `${gate.flags.replace("g", "")}g`)));
  const kept = new Kept();
  scan.lastIndex = 0;
  for (let m = scan.exec(text); m !== null; m = scan.exec(text)) {
    const start = text.lastIndexOf("\n", m.index - 1) + 1;
    // A gate's match that runs over a line break keeps every line it touches.
    let end = text.indexOf("\n", m.index + Math.max(m[0].length - 1, 0));
    if (end === -1) end = text.length;
    kept.add(text, start, end);
    scan.lastIndex = end + 1;
    if (end >= text.length) break;
  }
  if (kept.count === 0) return undefined;
  return kept.count === lines ? "all" : kept.lines();
}
