// Report text as plain text: no terminal control sequence (ESC, CSI, OSC, C1 controls), no other
// control character but tab and newline, and no bidirectional override or isolate, so a title can
// neither drive the maintainer's terminal (set its title, clear it, move the cursor) nor make
// `tally reports`, the page or the chat show text in another order than it was sent. Applied at
// intake before anything is stored, and again where stored text is printed. Every rule is linear.
const ESCAPE_SEQUENCE =
  /\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b\[[0-?]*[ -/]*[@-~]?|\x9b[0-?]*[ -/]*[@-~]?|\x1b[ -~]?/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text without control sequences, control characters (but \t and \n) or bidi controls; "\r\n" becomes "\n". */
export function plainText(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(ESCAPE_SEQUENCE, "").replace(CONTROL, "");
}

/** A one-line version for a table cell: also tabs and newlines become spaces. */
export function plainLine(text: string): string {
  return plainText(text).replace(/\s+/g, " ").trim();
}

/** Rows as aligned columns for the terminal (`tally reports`), two spaces apart, the last column unpadded. */
export function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => [...r[i]!].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)];
}
