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

const AMPERSAND = 0x26;
const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** A colour or style code's character: 0-9, a-f, k-o, r, in either case (Bukkit reads both). */
const isCodeChar = (c: number) => {
  const l = c | 0x20; // lower-case of a letter
  return (c >= 48 && c <= 57) || (l >= 97 && l <= 102) || (l >= 107 && l <= 111) || l === 114;
};

/**
 * Is the text written with "&" colour codes (issue 36), the character Bukkit's plugin files use for
 * "§" and some mods' logs and tests write chat in ("&3Steve_99&b withdrew &e1x Shard")? Two codes at
 * least, one of them opening a word it colours (after a line's start, a space or a mark, before a
 * letter, a digit or another code), so "R&B", "Q&A" and "AT&T" are not; then every "&x" of the text
 * is a code, as "§x" is. One pass over the text's ampersands.
 */
function ampersandCodes(text: string): boolean {
  let codes = 0;
  let opens = false;
  for (let i = text.indexOf("&"); i !== -1 && i + 1 < text.length; i = text.indexOf("&", i + 1)) {
    if (!isCodeChar(text.charCodeAt(i + 1))) continue;
    codes++;
    const after = text.charCodeAt(i + 2);
    if ((i === 0 || !isAlnum(text.charCodeAt(i - 1))) && (isAlnum(after) || after === AMPERSAND)) opens = true;
    if (codes >= 2 && opens) return true;
  }
  return false;
}

/** One pass over the text (linear). Text with nothing to strip comes back as itself. */
export function normalise(text: string): Plain {
  const ampersand = ampersandCodes(text);
  let clean = !ampersand;
  for (let i = 0; clean && i < text.length; i++) {
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
    const code = c === SECTION || (ampersand && c === AMPERSAND && isCodeChar(text.charCodeAt(i + 1)));
    if (code || invisible(c) || spaceLike(c) || mojibake(text, i, c)) {
      // Copy the run of ordinary characters before this one in one piece.
      out += text.slice(from, i);
      if (spaceLike(c)) {
        out += " ";
        at[n++] = i;
      } else if (code) i++; // "§" (or "&") and its code character; a "§" at the very end goes alone
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
