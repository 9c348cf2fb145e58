// A player's head from their skin: the 8x8 face (at 8,8) with the hat layer (at 40,8) drawn over
// it, scaled up with nearest-neighbour so the pixels stay crisp. The face is opaque as in the game.
// A legacy 64x32 skin whose hat area has no transparent pixel at all gets no hat, as the game does
// (such skins filled the unused area with a solid colour).
import { encodePng, type Rgba } from "./png.ts";

export const HEAD_SCALE = 8;
const FACE = { x: 8, y: 8 };
const HAT = { x: 40, y: 8 };

const at = (img: Rgba, x: number, y: number) => (y * img.width + x) * 4;

function hatIsOpaque(skin: Rgba): boolean {
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) if (skin.data[at(skin, HAT.x + x, HAT.y + y) + 3]! < 128) return false;
  return true;
}

/** The 8x8 face, hat composited, as RGBA. */
export function faceOf(skin: Rgba): Rgba {
  const face = new Uint8Array(8 * 8 * 4);
  const withHat = !(skin.height === 32 && hatIsOpaque(skin));
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const f = at(skin, FACE.x + x, FACE.y + y);
      const h = at(skin, HAT.x + x, HAT.y + y);
      const a = withHat ? skin.data[h + 3]! / 255 : 0;
      for (let c = 0; c < 3; c++)
        face[(y * 8 + x) * 4 + c] = Math.round(skin.data[h + c]! * a + skin.data[f + c]! * (1 - a));
      face[(y * 8 + x) * 4 + 3] = 255;
    }
  }
  return { width: 8, height: 8, data: face };
}

export function scaleNearest(img: Rgba, scale: number): Rgba {
  const w = img.width * scale;
  const h = img.height * scale;
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const s = at(img, Math.floor(x / scale), Math.floor(y / scale));
      out.set(img.data.subarray(s, s + 4), (y * w + x) * 4);
    }
  }
  return { width: w, height: h, data: out };
}

export function renderHead(skin: Rgba): Uint8Array {
  return encodePng(scaleNearest(faceOf(skin), HEAD_SCALE));
}

// The default head: a plain face drawn here (no third-party artwork is shipped), shown when a
// player has no skin, is unknown, or the skin can't be had right now.
const PALETTE: Record<string, [number, number, number]> = {
  h: [74, 63, 52], // hair
  s: [196, 160, 128], // skin
  d: [170, 134, 104], // shade
  w: [240, 240, 240], // eye white
  e: [60, 90, 150], // iris
  m: [120, 72, 60], // mouth
};
const DEFAULT_FACE = ["hhhhhhhh", "hhhhhhhh", "hsssssdh", "swesswes", "ssssssss", "sssddsss", "ssmmmmss", "dssssssd"];

export function defaultHead(): Uint8Array {
  const data = new Uint8Array(8 * 8 * 4);
  for (const [y, row] of DEFAULT_FACE.entries())
    for (const [x, k] of [...row].entries()) data.set([...PALETTE[k]!, 255], (y * 8 + x) * 4);
  return encodePng(scaleNearest({ width: 8, height: 8, data }, HEAD_SCALE));
}
