// The card holds any legal name and any label inside its box (issue 34): text is measured with the
// shipped Inter's advance widths, set smaller, and cut with an ellipsis below a least size. Checked
// on the rendered PNG: the columns outside a text's box stay the background. PNGs under
// test/artifacts/cards/ (git-ignored).
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decode } from "fast-png";
import { cardSvg, CARD_WIDTH, type CardContent } from "../../src/cards/card-svg.ts";
import { svgToPng } from "../../src/cards/render.ts";
import { fitText, textWidth } from "../../src/cards/text-width.ts";

const artifacts = join(import.meta.dir, "../artifacts/cards");
mkdirSync(artifacts, { recursive: true });
const BG = [0x0d, 0x11, 0x17];

/** The columns [x0, x1) of rows [y0, y1) that are not the card's background. */
function inked(png: ReturnType<typeof decode>, x0: number, x1: number, y0: number, y1: number): number[] {
  const columns = new Set<number>();
  const channels = png.channels;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * png.width + x) * channels;
      if (BG.some((c, k) => Math.abs(png.data[i + k]! - c) > 24)) columns.add(x);
    }
  return [...columns].sort((a, b) => a - b);
}

test("a measured line is as wide as resvg draws it with the shipped Inter", async () => {
  for (const [text, bold] of [
    ["WWWWWWWWWWWWWWWW", true],
    ["MMMMMMMMMMMMMMMM", true],
    ["iiiiiiiiiiiiiiii", false],
    ["Fastest finish, F7: 5 min 4 s", false],
  ] as const) {
    const size = 40;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="100"><rect width="1200" height="100" fill="#0d1117"/><text x="10" y="60" font-family="Inter" font-size="${size}"${bold ? ' font-weight="700"' : ""} fill="#ffffff">${text}</text></svg>`;
    const png = decode(await svgToPng(svg));
    const ink = inked(png, 0, 1200, 0, 100);
    const drawn = ink.at(-1)! - 10;
    const measured = textWidth(text, size, bold);
    // The last glyph's right side bearing is inside the advance: drawn <= measured, and close.
    expect(drawn).toBeLessThanOrEqual(measured);
    expect(drawn).toBeGreaterThan(measured * 0.9);
  }
});

test("fitting shrinks, then cuts with an ellipsis", () => {
  expect(fitText("Steve", 800, 76, 40, true)).toEqual({ text: "Steve", size: 76 });
  const wide = fitText("WWWWWWWWWWWWWWWW", 856, 76, 40, true);
  expect(wide.text).toBe("WWWWWWWWWWWWWWWW");
  expect(wide.size).toBeLessThan(76);
  expect(textWidth(wide.text, wide.size, true)).toBeLessThanOrEqual(856);
  const cutShort = fitText("A label far too long for its column ".repeat(4), 508, 26, 20);
  expect(cutShort.size).toBe(20);
  expect(cutShort.text.endsWith("…")).toBe(true);
  expect(textWidth(cutShort.text, 20)).toBeLessThanOrEqual(508);
});

const LONG_LABEL = "ENCHANTED_GOLDEN_CARROT_OF_THE_MOUNTAIN_KING_SUPREME_EDITION";

test.each(["WWWWWWWWWWWWWWWW", "MMMMMMMMMMMMMMMM", "Steve"])(
  "the card of %s keeps every text inside its box",
  async (name) => {
    const card: CardContent = {
      name,
      subtitle: "Profile Pomegranate, statistics by tally with a subtitle that goes on and on and on",
      head: null,
      figures: [
        { label: LONG_LABEL, value: "1,234,567,890,123 coins and a bit more" },
        { label: "Blocks mined", value: "268,000" },
        { label: "Fastest finish, F7 and a label that will not fit", value: "5 min 4 s" },
        { label: "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", value: "WWWWWWWWWWWWWWWWWWWWWWWWWW" },
      ],
      spark: { caption: `${LONG_LABEL}, last 30 days`, values: [1, 2, null, 3], bars: true },
    };
    const bytes = await svgToPng(cardSvg(card));
    writeFileSync(join(artifacts, `card-fit-${name.slice(0, 4)}.png`), bytes);
    const png = decode(bytes);
    const right = CARD_WIDTH - 72;
    // The name and the subtitle (rows 80 to 215) end before the right margin.
    expect(inked(png, right + 2, CARD_WIDTH, 80, 215)).toEqual([]);
    // The figures' two columns (508 px each, 40 apart) never reach into the gap between them or the margin.
    expect(inked(png, 72 + 508 + 2, 72 + 508 + 38, 265, 480)).toEqual([]);
    expect(inked(png, right + 2, CARD_WIDTH, 265, 480)).toEqual([]);
    // The spark caption (right-aligned) starts after the left margin.
    expect(inked(png, 0, 70, 500, 535)).toEqual([]);
  },
);
