// PNG in and out (fast-png, pure JS, so it compiles into the binary). Every image the proxy serves
// is decoded to 8-bit RGBA and encoded again by us: nothing an upstream sent reaches a browser as
// sent (no ancillary chunks, no text, no trailing bytes).
// An image bomb (an honest-looking header over data that inflates to hundreds of megabytes) costs
// no more than its header allows: the chunks are read here without inflating anything, the size is
// checked, and the image data is inflated under the exact byte count its header implies (width,
// height, bit depth, colour type, interlace), refused the moment it would pass it. Only then does
// fast-png see the image: a PNG rebuilt from the critical chunks and those counted bytes (no iCCP,
// whose profile fast-png would inflate without a bound, nor any other ancillary chunk).
import { deflateSync, inflateSync } from "node:zlib";
import { decode, encode, convertIndexedToRgb, type DecodedPng } from "fast-png";

export type Rgba = { width: number; height: number; data: Uint8Array };

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export class BadImage extends Error {
  override name = "BadImage";
}

/** Channels of each colour type, and the bit depths the PNG specification allows it. */
const COLOUR_TYPES: Record<number, { channels: number; depths: number[] }> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};
/** Adam7's seven passes: first column, first row, column step, row step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

type Header = { width: number; height: number; depth: number; colourType: number; interlaced: boolean };
type Chunks = { ihdr: Uint8Array; header: Header; kept: { type: string; data: Uint8Array }[]; idat: Uint8Array };

/** The chunks of a PNG, CRCs checked, nothing inflated; throws BadImage for anything malformed. */
function readChunks(bytes: Uint8Array): Chunks {
  if (bytes.byteLength < 33 || !SIGNATURE.every((b, i) => bytes[i] === b)) throw new BadImage("not a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept: Chunks["kept"] = [];
  const idat: Uint8Array[] = [];
  let ihdr: Uint8Array | undefined;
  for (let at = 8; ; ) {
    if (at + 12 > bytes.byteLength) throw new BadImage("PNG ends before IEND");
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (length > bytes.byteLength - at - 12) throw new BadImage(`PNG chunk ${JSON.stringify(type)} runs past the file`);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (Bun.hash.crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length))
      throw new BadImage(`PNG chunk ${JSON.stringify(type)} fails its CRC`);
    at += 12 + length;
    if (!ihdr) {
      if (type !== "IHDR" || length !== 13) throw new BadImage("PNG without IHDR first");
      ihdr = data;
    } else if (type === "IDAT") idat.push(data);
    else if (type === "PLTE" || type === "tRNS") kept.push({ type, data });
    else if (type === "IEND") break;
    else if (type === "IHDR" || !/^[a-z]/.test(type))
      throw new BadImage(`PNG with critical chunk ${JSON.stringify(type)}`);
  }
  const h = new DataView(ihdr.buffer, ihdr.byteOffset, 13);
  const header = {
    width: h.getUint32(0),
    height: h.getUint32(4),
    depth: ihdr[8]!,
    colourType: ihdr[9]!,
    interlaced: ihdr[12] === 1,
  };
  if (ihdr[10] !== 0 || ihdr[11] !== 0 || ihdr[12]! > 1) throw new BadImage("PNG of an unknown method");
  if (!COLOUR_TYPES[header.colourType]?.depths.includes(header.depth))
    throw new BadImage(`PNG of colour type ${header.colourType} at ${header.depth} bits`);
  if (!idat.length) throw new BadImage("PNG without image data");
  return { ihdr, header, kept, idat: Buffer.concat(idat) };
}

/** The exact byte count of the filtered scanlines (a filter byte per line) a header implies. */
function scanlineBytes(h: Header): number {
  const bits = h.depth * COLOUR_TYPES[h.colourType]!.channels;
  const lines = (width: number, height: number) =>
    width > 0 && height > 0 ? height * (1 + Math.ceil((width * bits) / 8)) : 0;
  if (!h.interlaced) return lines(h.width, h.height);
  let sum = 0;
  for (const [x0, y0, dx, dy] of ADAM7)
    sum += lines(Math.ceil(Math.max(0, h.width - x0) / dx), Math.ceil(Math.max(0, h.height - y0) / dy));
  return sum;
}

/**
 * The image data inflated under the byte count its header implies: inflation stops as soon as it
 * would pass it (a bomb costs that many bytes and no more), and data that ends short is refused.
 */
function inflateCounted(chunks: Chunks): Uint8Array {
  const expected = scanlineBytes(chunks.header);
  let raw: Uint8Array;
  try {
    raw = inflateSync(chunks.idat, { maxOutputLength: expected });
  } catch (e) {
    throw new BadImage(`PNG data does not inflate to its ${expected}-byte size: ${(e as Error).message}`);
  }
  if (raw.byteLength !== expected)
    throw new BadImage(`PNG data inflates to ${raw.byteLength} bytes, short of its ${expected}-byte size`);
  return raw;
}

/** A PNG of the critical chunks only, its data the counted bytes stored as is (fast-png skips the CRCs, left 0). */
function rebuilt(chunks: Chunks, raw: Uint8Array): Uint8Array {
  const parts = [
    { type: "IHDR", data: chunks.ihdr },
    ...chunks.kept,
    { type: "IDAT", data: deflateSync(raw, { level: 0 }) },
    { type: "IEND", data: new Uint8Array(0) },
  ];
  const out = new Uint8Array(8 + parts.reduce((n, p) => n + 12 + p.data.byteLength, 0));
  const view = new DataView(out.buffer);
  out.set(SIGNATURE);
  let at = 8;
  for (const p of parts) {
    view.setUint32(at, p.data.byteLength);
    for (let i = 0; i < 4; i++) out[at + 4 + i] = p.type.charCodeAt(i);
    out.set(p.data, at + 8);
    at += 12 + p.data.byteLength;
  }
  return out;
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
  const chunks = readChunks(bytes);
  const { width, height } = chunks.header;
  if (!allowed(width, height)) throw new BadImage(`PNG of ${width}x${height} is not accepted here`);
  const counted = rebuilt(chunks, inflateCounted(chunks));
  let png: DecodedPng;
  try {
    png = decode(counted);
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
