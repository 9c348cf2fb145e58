// PNG in and out (fast-png, pure JS, so it compiles into the binary). Every image the proxy serves
// is decoded to 8-bit RGBA and encoded again by us: nothing an upstream sent reaches a browser as
// sent (no ancillary chunks, no text, no trailing bytes). The size is read from the header before
// decoding, so a small file that would inflate to a huge bitmap is refused unopened.
import { decode, encode, convertIndexedToRgb, type DecodedPng } from "fast-png";

export type Rgba = { width: number; height: number; data: Uint8Array };

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export class BadImage extends Error {
  override name = "BadImage";
}

/** Width and height from the IHDR chunk; throws BadImage for anything that is not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes.byteLength < 33 || !SIGNATURE.every((b, i) => bytes[i] === b)) throw new BadImage("not a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR")
    throw new BadImage("PNG without IHDR first");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function toRgba(png: DecodedPng): Uint8Array {
  const pixels = png.width * png.height;
  let channels = png.channels;
  let data: ArrayLike<number> = png.data;
  if (png.palette) {
    data = convertIndexedToRgb(png);
    channels = png.palette[0]?.length ?? 3;
  } else if (png.depth === 16) {
    data = Uint8Array.from(png.data as Uint16Array, (v) => v >> 8);
  } else if (png.depth !== 8) {
    throw new BadImage(`unsupported PNG: ${png.depth}-bit grey`);
  }
  if (data.length < pixels * channels) throw new BadImage("PNG data shorter than its size");
  const out = new Uint8Array(pixels * 4);
  for (let i = 0; i < pixels; i++) {
    const s = i * channels;
    const [r, g, b, a] =
      channels === 1
        ? [data[s]!, data[s]!, data[s]!, 255]
        : channels === 2
          ? [data[s]!, data[s]!, data[s]!, data[s + 1]!]
          : [data[s]!, data[s + 1]!, data[s + 2]!, channels === 4 ? data[s + 3]! : 255];
    out.set([r, g, b, a], i * 4);
  }
  return out;
}

/** Decodes a PNG whose size `allowed` accepts; throws BadImage otherwise. */
export function decodePng(bytes: Uint8Array, allowed: (width: number, height: number) => boolean): Rgba {
  const { width, height } = pngSize(bytes);
  if (!allowed(width, height)) throw new BadImage(`PNG of ${width}x${height} is not accepted here`);
  let png: DecodedPng;
  try {
    png = decode(bytes, { checkCrc: true });
  } catch (e) {
    throw new BadImage(`PNG does not decode: ${(e as Error).message}`);
  }
  if (png.width !== width || png.height !== height) throw new BadImage("PNG size changed while decoding");
  return { width, height, data: toRgba(png) };
}

export function encodePng(image: Rgba): Uint8Array {
  return encode({ width: image.width, height: image.height, data: image.data, channels: 4, depth: 8 });
}

/** A strong ETag for bytes we serve: their SHA-256, shortened. */
export function etagOf(bytes: Uint8Array): string {
  return `"${new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 32)}"`;
}
