// How wide a line of text is in the card's font (issue 34): the advance widths of Inter, read from
// the very font files the renderer is handed (render.ts; embedded in the binary, read once), so a
// name or a label is held to its box by measurement, not by a guess from its character count.
// Kerning is left out (Inter's pairs mostly pull letters together), so a measured line is at most
// a hair wider than resvg draws it; MARGIN covers the rest.
import { readFileSync } from "node:fs";
import { INTER_BOLD_FILE, INTER_REGULAR_FILE } from "./render.ts";

/** Advance widths of a TrueType font, in ems, by code point; `missing`: the advance of .notdef. */
export type Advances = { of: Map<number, number>; missing: number };

/** Parses a TrueType/OpenType font's cmap (format 4 or 12), hmtx, hhea and head into advance widths. */
export function parseAdvances(bytes: Uint8Array): Advances {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at);
  const i16 = (at: number) => view.getInt16(at);
  const u32 = (at: number) => view.getUint32(at);
  const tables = new Map<string, number>();
  for (let i = 0, n = u16(4); i < n; i++) {
    const rec = 12 + i * 16;
    tables.set(String.fromCharCode(...bytes.subarray(rec, rec + 4)), u32(rec + 8));
  }
  const table = (tag: string) => {
    const at = tables.get(tag);
    if (at === undefined) throw new Error(`font has no ${tag} table`);
    return at;
  };
  const unitsPerEm = u16(table("head") + 18);
  const metrics = u16(table("hhea") + 34);
  const hmtx = table("hmtx");
  const advance = (glyph: number) => u16(hmtx + 4 * Math.min(glyph, metrics - 1)) / unitsPerEm;

  const cmap = table("cmap");
  const subtables = new Map<string, number>();
  for (let i = 0, n = u16(cmap + 2); i < n; i++) {
    const rec = cmap + 4 + i * 8;
    subtables.set(`${u16(rec)}/${u16(rec + 2)}/${u16(cmap + u32(rec + 4))}`, cmap + u32(rec + 4));
  }
  const of = new Map<number, number>();
  const full = subtables.get("3/10/12") ?? subtables.get("0/4/12");
  const bmp = subtables.get("3/1/4") ?? subtables.get("0/3/4");
  if (full !== undefined) {
    for (let i = 0, n = u32(full + 12); i < n; i++) {
      const g = full + 16 + i * 12;
      for (let c = u32(g), glyph = u32(g + 8); c <= u32(g + 4); c++, glyph++) of.set(c, advance(glyph));
    }
  } else if (bmp !== undefined) {
    const segments = u16(bmp + 6) / 2;
    const ends = bmp + 14;
    const starts = ends + 2 * segments + 2;
    const deltas = starts + 2 * segments;
    const offsets = deltas + 2 * segments;
    for (let s = 0; s < segments; s++) {
      const start = u16(starts + 2 * s);
      const end = u16(ends + 2 * s);
      const delta = i16(deltas + 2 * s);
      const offset = u16(offsets + 2 * s);
      for (let c = start; c <= end && c !== 0xffff; c++) {
        let glyph = offset === 0 ? c + delta : u16(offsets + 2 * s + offset + 2 * (c - start));
        if (offset !== 0 && glyph !== 0) glyph += delta;
        glyph &= 0xffff;
        if (glyph !== 0) of.set(c, advance(glyph));
      }
    }
  } else throw new Error("font has no Unicode cmap");
  return { of, missing: advance(0) };
}

/** A measured line is taken as this much wider than its advances add up to (kerning, rounding). */
const MARGIN = 1.02;

let fonts: { regular: Advances; bold: Advances } | undefined;
const loaded = () =>
  (fonts ??= {
    regular: parseAdvances(readFileSync(INTER_REGULAR_FILE)),
    bold: parseAdvances(readFileSync(INTER_BOLD_FILE)),
  });

/** The width of `text` set in Inter at `size` px (bold: Inter Bold), as the card draws it. */
export function textWidth(text: string, size: number, bold = false): number {
  const font = bold ? loaded().bold : loaded().regular;
  let ems = 0;
  for (const c of text) ems += font.of.get(c.codePointAt(0)!) ?? font.missing;
  return ems * size * MARGIN;
}

/**
 * `text` fitted to `width`: at `size` when it fits, else smaller down to `minSize`, else at
 * `minSize` cut to the longest start that fits with an ellipsis after it.
 */
export function fitText(
  text: string,
  width: number,
  size: number,
  minSize: number,
  bold = false,
): { text: string; size: number } {
  const full = textWidth(text, size, bold);
  if (full <= width) return { text, size };
  const shrunk = Math.floor((size * width) / full);
  if (shrunk >= minSize) return { text, size: shrunk };
  // The longest start (never the whole) that fits with its trailing spaces dropped and an ellipsis
  // after it, found in one pass: its width only grows with its length (a 32 KiB label costs one pass,
  // not one measure per character).
  const font = bold ? loaded().bold : loaded().regular;
  const ems = (c: string) => font.of.get(c.codePointAt(0)!) ?? font.missing;
  const chars = [...text];
  const room = width / (minSize * MARGIN) - ems("…");
  let sum = 0;
  let trimmed = 0;
  let keep = 0;
  for (let i = 0; i < chars.length - 1; i++) {
    sum += ems(chars[i]!);
    if (chars[i]!.trim() !== "") trimmed = sum;
    if (trimmed > room) break;
    keep = i + 1;
  }
  return { text: `${chars.slice(0, keep).join("").trimEnd()}…`, size: minSize };
}
