// Boundary: an image an upstream answers (issue 40, finding 1). A texture answer of about 243 KB
// whose header says 64x64 RGBA but whose data inflates to 250 MB froze the service for seconds and
// took it past a gigabyte. The image data is now inflated under the byte count its header implies
// (16 448 bytes for a 64x64 RGBA skin) and refused the moment it would pass it, for every image
// from every upstream: skins, the skins heads are drawn from, item images.
// Timings: bench/image-bomb.ts (this file asserts what the bomb costs in memory, not in time).
import { afterEach, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { testApp, loopbackFetch } from "../support/app.ts";
import { bombPng, fakeImageServer, fakeSessionServer, hashOf, itemPng, skinPng } from "../support/fakes/skins.ts";
import { defaultHead } from "../../src/assets/head.ts";

const MIB = 1024 * 1024;
const alice = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

let bomb: Uint8Array;
beforeAll(async () => {
  bomb = await bombPng(250_000_000);
});

async function setup() {
  const images = fakeImageServer();
  const bombHash = hashOf(bomb);
  images.files.set(`/texture/${bombHash}`, bomb);
  images.files.set("/TNT_BOMB.png", bomb);
  const skin = skinPng();
  images.files.set(`/texture/${hashOf(skin)}`, skin);
  const session = fakeSessionServer([
    { uuid: alice, name: "Alice_01", skinUrl: `http://textures.minecraft.net/texture/${bombHash}` },
  ]);
  opened.push({ close: images.stop }, { close: session.stop });
  const t = await testApp({
    settings: {
      identityUrl: session.url,
      texturesUrl: images.url,
      itemImagesUrl: images.url,
      assetRateLimit: 0,
      upstreamMissBudget: 0,
    },
    fetch: loopbackFetch,
  });
  opened.push(t);
  // One honest image first, so what is measured below is the bomb, not the first use of the code.
  expect((await t.request(`/v1/assets/skin/${hashOf(skin)}.png`)).status).toBe(200);
  return { t, images, bombHash, skin };
}

const status = (field: "VmRSS" | "VmHWM") =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync("/proc/self/status", "utf8"))![1]) * 1024;

/**
 * The process's peak resident memory while `work` runs, above what it held before (Linux; where
 * the peak cannot be reset, the resident memory after it, no garbage collected meanwhile).
 */
async function extraMemory<T>(work: () => Promise<T>): Promise<{ result: T; extra: number }> {
  Bun.gc(true);
  const before = status("VmRSS");
  let peak: "VmHWM" | "VmRSS" = "VmHWM";
  try {
    writeFileSync("/proc/self/clear_refs", "5"); // resets VmHWM to the current resident size
  } catch {
    peak = "VmRSS";
  }
  const result = await work();
  return { result, extra: status(peak) - before };
}

const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

test("a skin whose data inflates to 250 MB under a 64x64 header is refused (502 upstream_bad_image), costing a few MiB; honest skins are still served", async () => {
  const { t, bombHash, skin } = await setup();
  const { result: res, extra } = await extraMemory(() => t.request(`/v1/assets/skin/${bombHash}.png`));
  expect(res.status).toBe(502);
  expect(await codeOf(res)).toBe("upstream_bad_image");
  // Measured: under 2 MiB. Before: 700 to 960 MiB, the whole 250 MB inflated (fast-png keeps its
  // chunks and then their concatenation), and the image served from its first 16 448 bytes.
  expect(extra).toBeLessThan(8 * MIB);
  const reason = t.log.lines.find((l) => l.msg === "skin unavailable")?.reason;
  expect(String(reason)).toContain("16448-byte size");
  // Nothing was cached: asked again, it is refused again.
  expect((await t.request(`/v1/assets/skin/${bombHash}.png`)).status).toBe(502);
  const honest = await t.request(`/v1/assets/skin/${hashOf(skin)}.png`);
  expect(honest.status).toBe(200);
  expect(honest.headers.get("content-type")).toBe("image/png");
});

test("a head drawn from that skin is the default head, at the same small cost", async () => {
  const { t } = await setup();
  const { result: res, extra } = await extraMemory(() => t.request(`/v1/assets/head/${alice}.png`));
  expect(res.status).toBe(200);
  expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(defaultHead()));
  expect(extra).toBeLessThan(8 * MIB);
});

test("an item image bomb is refused the same way; honest item images are still served", async () => {
  const { t, images } = await setup();
  const { result: res, extra } = await extraMemory(() => t.request("/v1/assets/item/TNT_BOMB.png"));
  expect(res.status).toBe(502);
  expect(await codeOf(res)).toBe("upstream_bad_image");
  expect(extra).toBeLessThan(8 * MIB);
  images.files.set("/DIAMOND.png", itemPng());
  expect((await t.request("/v1/assets/item/DIAMOND.png")).status).toBe(200);
});
