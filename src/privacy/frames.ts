// A report's stack frames, left out before the name rules run (issue 36): a name is never replaced
// in a frame ("\tat dev.mod.Steve.tick(Steve.java:3)", scrub.ts), so no rule needs to read one, and
// a crash report is mostly frames. The rules run on the other lines joined as they stood (each rule
// reads one line at a time), and each position they find is mapped back to the whole text. One pass
// over the lines (linear).

/** A stack frame's line, as scrub.ts's FRAME_LINE reads it: "\tat dev.mod.Steve.tick(". */
const FRAME = /^[ \t]*at [\w$./<>]{1,400}\(/;

/** The text without its frame lines, and where each position of it stood in the whole text. */
export type Unframed = { text: string; back: (at: number) => number };

/** The text without its stack frames, or undefined when it has none (then the text is read as it is). */
export function withoutFrames(text: string): Unframed | undefined {
  if (!text.includes("at ")) return undefined;
  const starts: number[] = [];
  const from: number[] = [];
  const kept: string[] = [];
  let length = 0;
  let dropped = false;
  for (let at = 0; at <= text.length; ) {
    let end = text.indexOf("\n", at);
    if (end === -1) end = text.length;
    const line = text.slice(at, end);
    if (FRAME.test(line)) dropped = true;
    else {
      starts.push(length);
      from.push(at);
      const piece = end < text.length ? `${line}\n` : line;
      kept.push(piece);
      length += piece.length;
    }
    at = end + 1;
  }
  if (!dropped) return undefined;
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
  return { text: kept.join(""), back };
}
