// Fakes of where heads, skins and item images come from, answering like the real services:
//   session server  GET /session/minecraft/profile/<uuid> -> 200 { id, name, properties: [{ name:
//                   "textures", value: base64 JSON { timestamp, profileId, profileName, textures: {
//                   SKIN?: { url: "http://textures.minecraft.net/texture/<hash>" } } } }] }; 204 unknown
//                   (the shape of the recorded answer, which it replays for RECORDED_SESSION_PLAYER)
//   texture server  GET /texture/<hash> -> 200 image/png; 404 for an unknown hash
//   item images     GET /<item id>.png -> 200 image/png; 404
// Plus the PNGs they serve: a skin with a face worth looking at, a legacy 64x32 skin, a huge PNG
// (small file, enormous declared size), a PNG over the byte cap, a file that is not a PNG, and an
// image bomb (an honest header over data that inflates to hundreds of megabytes).
import { createDeflate } from "node:zlib";
import { encode } from "fast-png";
import { fakeUpstream, json } from "../upstream.ts";
import { gateway403Html, recordedSessionProfile, tooManyRequests } from "../recorded.ts";

type Colour = [number, number, number, number];
const C: Record<string, Colour> = {
  ".": [0, 0, 0, 0],
  h: [92, 58, 33, 255], // hair
  s: [235, 190, 150, 255], // skin
  W: [255, 255, 255, 255], // eye white
  B: [40, 80, 200, 255], // iris
  N: [205, 150, 115, 255], // nose
  M: [150, 50, 50, 255], // mouth
  R: [210, 30, 30, 255], // cap (hat layer)
  G: [128, 128, 128, 255], // the rest of the skin
};
export const FACE = ["hhhhhhhh", "hhhhhhhh", "hssssssh", "sWBssBWs", "ssssssss", "sssNNsss", "ssMMMMss", "ssssssss"];
export const HAT = ["RRRRRRRR", "RRRRRRRR", "R......R", "........", "........", "........", "........", "........"];
export const colour = (k: string) => C[k]!;

function paint(width: number, height: number, fill: Colour, face = FACE, hat = HAT): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set(fill, i * 4);
  const put = (x0: number, y0: number, rows: string[]) => {
    for (const [y, row] of rows.entries())
      for (const [x, k] of [...row].entries()) data.set(C[k]!, ((y0 + y) * width + x0 + x) * 4);
  };
  put(8, 8, face);
  put(40, 8, hat);
  return data;
}

/** A 64x64 skin: a face, a red cap on the hat layer, grey elsewhere; with a text chunk we must drop. */
export function skinPng(): Uint8Array {
  return encode({
    width: 64,
    height: 64,
    data: paint(64, 64, C.G!),
    channels: 4,
    depth: 8,
    text: { Comment: "upstream-only-text" },
  });
}

/** A legacy 64x32 skin whose hat area is solid red (the game draws no hat for it). */
export function legacySkinPng(): Uint8Array {
  return encode({
    width: 64,
    height: 32,
    data: paint(64, 32, C.G!, FACE, Array<string>(8).fill("RRRRRRRR")),
    channels: 4,
    depth: 8,
  });
}

/** A valid PNG that declares an enormous size (a decompression bomb is shaped like this). */
export function hugePng(): Uint8Array {
  const png = encode({ width: 64, height: 64, data: new Uint8Array(64 * 64 * 4), channels: 4, depth: 8 });
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  view.setUint32(16, 30000);
  view.setUint32(20, 30000);
  view.setUint32(29, crc32(png.subarray(12, 29)));
  return png;
}

/**
 * A decompression bomb shaped like a skin: a valid 64x64 RGBA header (16 448 bytes of scanlines)
 * and one IDAT whose zlib stream inflates to `inflatedBytes` zeros (250 MB is about 243 KB, under
 * IMAGE_MAX_BYTES). The stream is made 1 MiB at a time, so building it costs no such memory.
 */
export async function bombPng(inflatedBytes = 250_000_000): Promise<Uint8Array> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (b: Buffer) => out.push(b));
  const ended = new Promise((resolve) => deflate.on("end", resolve));
  const zeros = new Uint8Array(1024 * 1024);
  for (let left = inflatedBytes; left > 0; left -= zeros.length) {
    if (!deflate.write(zeros.subarray(0, Math.min(left, zeros.length))))
      await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await ended;
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, 64);
  view.setUint32(4, 64);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, deflate, adaptive filters, not interlaced
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return Buffer.concat([
    Uint8Array.from(signature),
    chunk("IHDR", ihdr),
    chunk("IDAT", Buffer.concat(out)),
    chunk("IEND", new Uint8Array(0)),
  ]);
}
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** Noise that does not compress: a PNG of more bytes than the cap allows. */
export function heavyPng(side = 512): Uint8Array {
  return encode({ width: side, height: side, data: noise(side * side * 4), channels: 4, depth: 8 });
}
function noise(n: number) {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}

export const notPng = () =>
  new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,");

export function itemPng(side = 16): Uint8Array {
  const data = new Uint8Array(side * side * 4);
  for (let i = 0; i < side * side; i++) data.set(i % 2 ? [60, 200, 220, 255] : [20, 40, 60, 255], i * 4);
  return encode({ width: side, height: side, data, channels: 4, depth: 8 });
}

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

export const hashOf = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/** The player of the recorded session-server answer (test/support/recorded/mojang/). */
export const RECORDED_SESSION_PLAYER = {
  uuid: "f1bfcbddc68b49bfaac9fb9d8ce5293d",
  name: "123lmfao4",
  hash: "e35f3a8df969b56b36f9aa60a736a2f9061de4ccf0fe9657d6c9bc02d77bfd7e",
};

export type SessionFailure = "none" | "error500" | "rateLimited" | "gateway403";

export function fakeSessionServer(players: { uuid: string; name: string; skinUrl?: string }[]) {
  const state = { failure: "none" as SessionFailure };
  const server = fakeUpstream({
    "GET /session/minecraft/profile/:uuid": (_req, call) => {
      if (state.failure === "error500") return new Response("Internal Server Error", { status: 500 });
      if (state.failure === "rateLimited")
        return new Response(tooManyRequests(), { status: 429, headers: { "content-type": "application/json" } });
      if (state.failure === "gateway403")
        return new Response(gateway403Html(), { status: 403, headers: { "content-type": "text/html" } });
      const uuid = call.path.split("/").pop();
      if (uuid === RECORDED_SESSION_PLAYER.uuid)
        return new Response(recordedSessionProfile(), { headers: { "content-type": "application/json" } });
      const p = players.find((x) => x.uuid === uuid);
      if (!p) return new Response(null, { status: 204 });
      const textures = {
        timestamp: 1700000000000,
        profileId: p.uuid,
        profileName: p.name,
        textures: p.skinUrl ? { SKIN: { url: p.skinUrl } } : {},
      };
      return json({
        id: p.uuid,
        name: p.name,
        properties: [{ name: "textures", value: Buffer.from(JSON.stringify(textures)).toString("base64") }],
        profileActions: [],
      });
    },
  });
  return { ...server, state, players };
}

/** Serves PNGs by path; `redirect` answers a 302 to another host for that path instead.
 *  `state.failure = "gateway403"`: the CDN's HTML 403 to a caller over its limit. */
export function fakeImageServer() {
  const files = new Map<string, Uint8Array | { redirect: string }>();
  const state = { failure: "none" as "none" | "gateway403" };
  const server = fakeUpstream({
    "GET /texture/:hash": (_req, call) => answer(call.path),
    "GET /:file": (_req, call) => answer(call.path),
  });
  function answer(path: string): Response {
    if (state.failure === "gateway403")
      return new Response(gateway403Html(), { status: 403, headers: { "content-type": "text/html" } });
    const f = files.get(path);
    if (!f) return new Response("Not found", { status: 404 });
    if ("redirect" in f) return new Response(null, { status: 302, headers: { location: f.redirect } });
    return new Response(f as Uint8Array<ArrayBuffer>, { headers: { "content-type": "image/png" } });
  }
  return { ...server, files, state };
}
