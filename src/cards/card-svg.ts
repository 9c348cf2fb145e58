// The link preview card as SVG text, 1200x630 (the size OpenGraph and Twitter's large card ask
// for): a head (or tally's own mark where the card must not say who it is), a name, up to four
// headline figures already in words, and a sparkline of one figure's recent days. Pure: the same
// input gives the same bytes, so the text's hash is the card's cache key and its ETag.
// Text is measured with the font's own advance widths (text-width.ts; resvg lays it out, we keep it
// inside its box, issue 34): a long name or value is set smaller, and below a least size cut with
// an ellipsis.
import { CARD_FONT } from "./render.ts";
import { fitText } from "./text-width.ts";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

export type CardFigure = { label: string; value: string };
export type Sparkline = {
  /** what it draws, in words: "Playtime, last 30 days" */
  caption: string;
  /** every day of the range in order; null where nothing was recorded (drawn as a gap, never a zero) */
  values: (number | null)[];
  /** a count draws as bars from zero; other kinds as a line through their observed days */
  bars: boolean;
};
export type CardContent = {
  /** the player's name; null on a share page's card */
  name: string | null;
  subtitle: string;
  /** the head as PNG bytes (64x64, from the image proxy); null draws tally's mark instead */
  head: Uint8Array | null;
  figures: CardFigure[];
  spark: Sparkline | null;
};

const COLOURS = {
  bg: "#0d1117",
  panel: "#161b22",
  line: "#30363d",
  fg: "#e6edf3",
  muted: "#9da7b3",
  accent: "#6cb6ff",
  fill: "rgba(108,182,255,0.18)",
};

/** A character XML 1.0 refuses (C0 controls but tab, newline and return; U+FFFE and U+FFFF). */
export const xmlRefuses = (code: number) =>
  (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff;

/** Text for an SVG element or attribute: markup escaped, characters XML refuses dropped. */
export function xmlText(s: string): string {
  let out = "";
  for (const c of s) {
    const code = c.codePointAt(0)!;
    if (xmlRefuses(code)) continue;
    out +=
      c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : c === "'" ? "&apos;" : c;
  }
  return out;
}

/** At most `max` characters (code points), the last one an ellipsis when cut. */
export function cut(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join("")}…`;
}

/** A <text> element of `text` fitted to `width` (smaller down to `minSize`, then cut). */
function line(
  attrs: string,
  text: string,
  width: number,
  size: number,
  minSize: number,
  bold = false,
  fill = bold ? COLOURS.fg : COLOURS.muted,
): string {
  const fitted = fitText(text, width, size, minSize, bold);
  return `<text ${attrs} font-size="${fitted.size}"${bold ? ' font-weight="700"' : ""} fill="${fill}">${xmlText(fitted.text)}</text>`;
}

const round = (n: number) => Math.round(n * 10) / 10;

function sparkline(spark: Sparkline, x: number, y: number, w: number, h: number): string {
  const present = spark.values.filter((v): v is number => v !== null);
  if (present.length === 0) return "";
  const n = spark.values.length;
  let lo = Math.min(...present);
  let hi = Math.max(...present);
  if (spark.bars) lo = Math.min(0, lo);
  if (hi === lo) hi = lo + 1;
  const yOf = (v: number) => round(y + h - ((v - lo) / (hi - lo)) * h);
  const step = w / n;
  const out: string[] = [];
  if (spark.bars) {
    const bw = Math.max(2, step * 0.7);
    spark.values.forEach((v, i) => {
      if (v === null) return;
      const top = Math.min(yOf(v), y + h - 2);
      out.push(
        `<rect x="${round(x + i * step + (step - bw) / 2)}" y="${top}" width="${round(bw)}" height="${round(y + h - top)}" rx="2" fill="${COLOURS.accent}"/>`,
      );
    });
  } else {
    // One polyline per run of observed days: a gap stays a gap.
    let run: string[] = [];
    const flush = () => {
      if (run.length > 1)
        out.push(
          `<polyline points="${run.join(" ")}" fill="none" stroke="${COLOURS.accent}" stroke-width="4" stroke-linejoin="round" stroke-linecap="round"/>`,
        );
      else if (run.length === 1) {
        const [cx, cy] = run[0]!.split(",");
        out.push(`<circle cx="${cx}" cy="${cy}" r="4" fill="${COLOURS.accent}"/>`);
      }
      run = [];
    };
    spark.values.forEach((v, i) => {
      if (v === null) flush();
      else run.push(`${round(x + i * step + step / 2)},${yOf(v)}`);
    });
    flush();
  }
  return out.join("");
}

/** tally's mark: four strokes and a strike, drawn where a share card shows no head. */
function mark(x: number, y: number, size: number): string {
  const s = size / 10;
  const strokes = [2, 4, 6, 8]
    .map(
      (i) =>
        `<line x1="${x + i * s}" y1="${y + 2 * s}" x2="${x + i * s}" y2="${y + 8 * s}" stroke="${COLOURS.fg}" stroke-width="${s * 0.7}" stroke-linecap="round"/>`,
    )
    .join("");
  return (
    `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${s * 1.5}" fill="${COLOURS.panel}" stroke="${COLOURS.line}" stroke-width="2"/>` +
    strokes +
    `<line x1="${x + 1 * s}" y1="${y + 7 * s}" x2="${x + 9 * s}" y2="${y + 3 * s}" stroke="${COLOURS.accent}" stroke-width="${s * 0.7}" stroke-linecap="round"/>`
  );
}

export function cardSvg(card: CardContent): string {
  const W = CARD_WIDTH;
  const H = CARD_HEIGHT;
  const left = 72;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${CARD_FONT}">`,
    `<rect width="${W}" height="${H}" fill="${COLOURS.bg}"/>`,
    `<rect width="${W}" height="10" fill="${COLOURS.accent}"/>`,
  ];
  const headSize = 160;
  const top = 64;
  if (card.head) {
    const data = Buffer.from(card.head).toString("base64");
    parts.push(
      `<rect x="${left - 6}" y="${top - 6}" width="${headSize + 12}" height="${headSize + 12}" rx="10" fill="${COLOURS.panel}"/>`,
      `<image x="${left}" y="${top}" width="${headSize}" height="${headSize}" image-rendering="optimizeSpeed" href="data:image/png;base64,${data}"/>`,
    );
  } else parts.push(mark(left, top, headSize));

  const textX = left + headSize + 40;
  const textW = W - textX - left;
  parts.push(
    line(`x="${textX}" y="${top + 82}"`, card.name ?? "Shared statistics", textW, 76, 40, true),
    line(`x="${textX}" y="${top + 136}"`, card.subtitle, textW, 30, 22),
  );

  const colW = (W - 2 * left - 40) / 2;
  const figures = card.figures.slice(0, 4);
  if (figures.length === 0)
    parts.push(`<text x="${left}" y="350" font-size="34" fill="${COLOURS.muted}">Nothing recorded yet.</text>`);
  figures.forEach((f, i) => {
    const x = left + (i % 2) * (colW + 40);
    const y = 300 + Math.floor(i / 2) * 118;
    parts.push(
      line(`x="${x}" y="${y}"`, f.label, colW, 26, 20),
      line(`x="${x}" y="${y + 54}"`, f.value, colW, 50, 28, true),
    );
  });

  if (card.spark) {
    const y = 540;
    parts.push(
      line(`x="${W - left}" y="${y - 12}" text-anchor="end"`, card.spark.caption, W - 2 * left, 22, 18),
      `<line x1="${left}" y1="${y + 62}" x2="${W - left}" y2="${y + 62}" stroke="${COLOURS.line}" stroke-width="2"/>`,
      sparkline(card.spark, left, y, W - 2 * left, 60),
    );
  }
  parts.push(
    `<text x="${W - left}" y="58" font-size="26" font-weight="700" text-anchor="end" fill="${COLOURS.accent}">tally</text>`,
    "</svg>",
  );
  return parts.join("");
}
