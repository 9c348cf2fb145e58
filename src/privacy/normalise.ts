// Game text as a mod holds it carries Minecraft formatting codes ("§b[MVP§c+§b] Steve§f: hi") and
// sometimes invisible or look-alike characters. The name rules match on the plain text; a found
// name is replaced in the original through the position map, so the codes around it stay.

/** A formatting code: the section sign and the one character after it (colours, styles, reset). */
const SECTION = 0xa7;

/** Characters that print nothing: zero-width spaces and joiners, bidi marks, soft hyphen, BOM. */
const invisible = (c: number) =>
  c === 0xad ||
  (c >= 0x200b && c <= 0x200f) ||
  (c >= 0x202a && c <= 0x202e) ||
  (c >= 0x2060 && c <= 0x2064) ||
  (c >= 0x2066 && c <= 0x2069) ||
  c === 0xfeff;
/** Spaces that look like a space. */
const spaceLike = (c: number) =>
  c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;

/**
 * The "Â" a UTF-8 log read as Windows-1252 puts before each code (issue 36: "[CHAT] Â§7Steve Â§ehas
 * joined", as logs pasted from Windows show them): dropped with the code after it.
 */
const mojibake = (text: string, i: number, c: number) => c === 0xc2 && text.charCodeAt(i + 1) === SECTION;

export type Plain = {
  /** The text without codes or invisible characters, look-alike spaces as plain spaces. */
  plain: string;
  /** For each character of `plain`, its index in the original; one more entry for the end. */
  at: Int32Array;
};

/** One pass over the text (linear). Text with nothing to strip comes back as itself. */
export function normalise(text: string): Plain {
  let clean = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xa7 || (c >= 0xa0 && (invisible(c) || spaceLike(c)))) {
      clean = false;
      break;
    }
  }
  if (clean) {
    const at = new Int32Array(text.length + 1);
    for (let i = 0; i <= text.length; i++) at[i] = i;
    return { plain: text, at };
  }
  const at = new Int32Array(text.length + 1);
  let out = "";
  let n = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === SECTION || invisible(c) || spaceLike(c) || mojibake(text, i, c)) {
      // Copy the run of ordinary characters before this one in one piece.
      out += text.slice(from, i);
      if (spaceLike(c)) {
        out += " ";
        at[n++] = i;
      } else if (c === SECTION) i++; // "§" and its code character; a "§" at the very end goes alone
      from = i + 1;
      continue;
    }
    at[n++] = i;
  }
  out += text.slice(from);
  at[n] = text.length;
  return { plain: out, at: at.subarray(0, n + 1) };
}

/** The original span of plain[start, end): from the first character's index to just past the last one. */
export function originalSpan(p: Plain, start: number, end: number): [number, number] {
  return [p.at[start]!, end > start ? p.at[end - 1]! + 1 : p.at[start]!];
}
