// The image proxy: heads rendered from skins, skins by hash, item images; every image decoded,
// capped and re-encoded; cached with ETags; ids of the wrong shape and URLs in upstream answers
// never lead to an upstream call anywhere else.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { decode } from "fast-png";
import { testApp, loopbackFetch } from "../support/app.ts";
import { emptyTables, testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
import {
  fakeSessionServer,
  fakeImageServer,
  skinPng,
  legacySkinPng,
  hugePng,
  heavyPng,
  notPng,
  itemPng,
  hashOf,
  colour,
  FACE,
  HAT,
} from "../support/fakes/skins.ts";
import { fakeUpstream } from "../support/upstream.ts";
import { HASH_63 } from "../support/recorded.ts";
import { defaultHead } from "../../src/assets/head.ts";
import { createApp } from "../../src/app.ts";

const alice = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
const bob = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
const nobody = "00000000000000000000000000000abc";
const HOUR = 3_600_000;

// One database for the file, emptied after each test: every test starts from a service as new (its
// caches, rate limits and budgets are rows), without paying for a new database each time.
let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
  await emptyTables(database.db);
});

async function setup(settings: NonNullable<Parameters<typeof testApp>[0]>["settings"] = {}) {
  const images = fakeImageServer();
  const evil = fakeUpstream({}); // "another host": nothing may ever reach it
  const skin = skinPng();
  const hash = hashOf(skin);
  images.files.set(`/texture/${hash}`, skin);
  const session = fakeSessionServer([
    { uuid: alice, name: "Alice_01", skinUrl: `http://textures.minecraft.net/texture/${hash}` },
    { uuid: bob, name: "bob" }, // no skin
  ]);
  opened.push({ close: images.stop }, { close: evil.stop }, { close: session.stop });
  const t = await testApp({
    database,
    settings: {
      identityUrl: session.url,
      texturesUrl: images.url,
      itemImagesUrl: images.url,
      assetRateLimit: 0,
      upstreamTimeoutMs: 500,
      ...settings,
    },
    fetch: loopbackFetch,
  });
  opened.push(t);
  return { t, images, evil, session, skin, hash };
}

const pixels = async (res: Response) => {
  const png = decode(new Uint8Array(await res.arrayBuffer()));
  return {
    ...png,
    at: (x: number, y: number) => [
      ...png.data.subarray((y * png.width + x) * png.channels, (y * png.width + x + 1) * png.channels),
    ],
  };
};

describe("GET /v1/assets/head/<uuid>.png", () => {
  test("renders the face with the hat layer over it, 8x8 scaled to 64x64 with nearest-neighbour", async () => {
    const { t, session, images, hash } = await setup();
    const res = await t.request(`/v1/assets/head/${alice}.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await res.clone().arrayBuffer());
    mkdirSync(join(import.meta.dir, "../artifacts"), { recursive: true });
    await Bun.write(join(import.meta.dir, "../artifacts/head-from-fake-skin.png"), bytes);
    const img = await pixels(res);
    expect([img.width, img.height, img.channels]).toEqual([64, 64, 4]);
    for (let by = 0; by < 8; by++) {
      for (let bx = 0; bx < 8; bx++) {
        const hatPixel = HAT[by]![bx]!;
        const want = hatPixel === "." ? colour(FACE[by]![bx]!) : colour(hatPixel);
        // every pixel of the 8x8 block is the one skin pixel: corners and centre agree
        for (const [dx, dy] of [
          [0, 0],
          [7, 7],
          [3, 4],
        ] as const)
          expect(img.at(bx * 8 + dx, by * 8 + dy)).toEqual(want);
      }
    }
    expect(session.calls.map((c) => c.path)).toEqual([`/session/minecraft/profile/${alice}`]);
    expect(images.calls.map((c) => c.path)).toEqual([`/texture/${hash}`]);
  });

  test("is cached: a second request asks no upstream; its ETag answers 304", async () => {
    const { t, session, images } = await setup({ assetCacheHours: 6 });
    const first = await t.request(`/v1/assets/head/${alice}.png`);
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("cache-control")).toBe("public, max-age=3600");
    const again = await t.request(`/v1/assets/head/${alice}.png`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(session.calls.length + images.calls.length).toBe(2);
    t.clock.advance(6 * HOUR);
    expect((await t.request(`/v1/assets/head/${alice}.png`)).status).toBe(200);
    expect(session.calls.length).toBe(2); // asked again; the skin itself is still cached by hash
    expect(images.calls.length).toBe(1);
  });

  test("a player without a skin, or an unknown uuid, gets the default head", async () => {
    const { t } = await setup();
    const fallback = new Uint8Array(defaultHead());
    for (const uuid of [bob, nobody]) {
      const res = await t.request(`/v1/assets/head/${uuid}.png`);
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(fallback);
    }
  });

  test("the identity provider down: the default head, for a minute only; the real one once it is back", async () => {
    const { t, session } = await setup();
    session.state.failure = "error500";
    const res = await t.request(`/v1/assets/head/${alice}.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(defaultHead()));
    session.state.failure = "none";
    const back = await t.request(`/v1/assets/head/${alice}.png`);
    expect(new Uint8Array(await back.arrayBuffer())).not.toEqual(new Uint8Array(defaultHead()));
  });

  test("the identity provider throttling (429) pauses head look-ups for a minute: default heads, no calls", async () => {
    const { t, session } = await setup();
    session.state.failure = "rateLimited";
    expect(new Uint8Array(await (await t.request(`/v1/assets/head/${alice}.png`)).arrayBuffer())).toEqual(
      new Uint8Array(defaultHead()),
    );
    session.state.failure = "none";
    expect((await t.request(`/v1/assets/head/${bob}.png`)).headers.get("cache-control")).toBe("public, max-age=60");
    expect(session.calls.length).toBe(1);
    t.clock.advance(60_000);
    expect((await t.request(`/v1/assets/head/${alice}.png`)).headers.get("cache-control")).toBe("public, max-age=3600");
    expect(session.calls.length).toBe(2);
  });

  test("its gateway's HTML 403 is throttling too: heads pause on every instance, the default head meanwhile", async () => {
    const { t, session } = await setup();
    const other = createApp({ ...t }); // a second instance over the same database
    session.state.failure = "gateway403";
    expect(new Uint8Array(await (await t.request(`/v1/assets/head/${alice}.png`)).arrayBuffer())).toEqual(
      new Uint8Array(defaultHead()),
    );
    session.state.failure = "none";
    const elsewhere = await other.handle(new Request(`http://localhost/v1/assets/head/${bob}.png`));
    expect(new Uint8Array(await elsewhere.arrayBuffer())).toEqual(new Uint8Array(defaultHead()));
    expect(session.calls.length).toBe(1);
    t.clock.advance(60_000);
    expect(
      (await other.handle(new Request(`http://localhost/v1/assets/head/${alice}.png`))).headers.get("cache-control"),
    ).toBe("public, max-age=3600");
  });

  test("a skin whose hash lost a leading zero (63 hex, as the texture server names it) gives the real head", async () => {
    const { t, session, images, skin } = await setup();
    images.files.set(`/texture/${HASH_63}`, skin);
    session.players.push({
      uuid: nobody,
      name: "Short_Hash",
      skinUrl: `http://textures.minecraft.net/texture/${HASH_63}`,
    });
    const head = new Uint8Array(await (await t.request(`/v1/assets/head/${nobody}.png`)).arrayBuffer());
    const usual = new Uint8Array(await (await t.request(`/v1/assets/head/${alice}.png`)).arrayBuffer());
    expect(head).toEqual(usual);
    expect(head).not.toEqual(new Uint8Array(defaultHead()));
    expect(images.calls.map((c) => c.path)).toContain(`/texture/${HASH_63}`);
  });

  test("a skin that is not a usable PNG gives the default head, kept like any head (no refetch on every view)", async () => {
    const { t, session, images } = await setup();
    const broken = notPng();
    images.files.set(`/texture/${hashOf(broken)}`, broken);
    session.players.push({
      uuid: nobody,
      name: "Broken",
      skinUrl: `http://textures.minecraft.net/texture/${hashOf(broken)}`,
    });
    for (let i = 0; i < 2; i++) {
      const res = await t.request(`/v1/assets/head/${nobody}.png`);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(defaultHead()));
    }
    expect(session.calls.length + images.calls.length).toBe(2);
  });

  test("a legacy 64x32 skin with a solid hat area is drawn without the hat", async () => {
    const { t, images, session } = await setup();
    const legacy = legacySkinPng();
    images.files.set(`/texture/${hashOf(legacy)}`, legacy);
    session.players.push({
      uuid: nobody,
      name: "Old",
      skinUrl: `http://textures.minecraft.net/texture/${hashOf(legacy)}`,
    });
    const img = await pixels(await t.request(`/v1/assets/head/${nobody}.png`));
    expect(img.at(0, 0)).toEqual(colour("h")); // hair, not the solid red of the unused hat area
    expect(img.at(1 * 8, 3 * 8)).toEqual(colour("W")); // an eye
  });

  test("the skin URL in the identity answer is never fetched as given: only its hash, from TEXTURES_URL", async () => {
    const { t, images, evil, session, hash } = await setup();
    session.players.push({ uuid: nobody, name: "Sly", skinUrl: `${evil.url}/texture/${hash}` });
    session.players.push({ uuid: "1".repeat(32), name: "Slier", skinUrl: `${evil.url}/steal?next=/texture/${hash}x` });
    session.players.push({ uuid: "2".repeat(32), name: "Sliest", skinUrl: `file:///etc/passwd` });
    expect((await t.request(`/v1/assets/head/${nobody}.png`)).status).toBe(200);
    expect(images.calls.map((c) => c.path)).toEqual([`/texture/${hash}`]);
    for (const uuid of ["1".repeat(32), "2".repeat(32)]) {
      const res = await t.request(`/v1/assets/head/${uuid}.png`);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(defaultHead()));
    }
    expect(images.calls.length).toBe(1);
    expect(evil.calls.length).toBe(0);
  });
});

describe("GET /v1/assets/skin/<hash>.png", () => {
  test("answers the skin re-encoded (nothing of the upstream file but its pixels), immutable, with an ETag", async () => {
    const { t, images, hash, skin } = await setup();
    const res = await t.request(`/v1/assets/skin/${hash}.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder("latin1").decode(skin)).toContain("upstream-only-text");
    expect(new TextDecoder("latin1").decode(bytes)).not.toContain("upstream-only-text");
    expect(decode(bytes).data).toEqual(decode(skin).data);
    const again = await t.request(`/v1/assets/skin/${hash}.png`, {
      headers: { "if-none-match": res.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    expect(images.calls.length).toBe(1);
  });

  test("a 63-character hash (a leading zero dropped) is served like any other", async () => {
    const { t, images, skin } = await setup();
    images.files.set(`/texture/${HASH_63}`, skin);
    const res = await t.request(`/v1/assets/skin/${HASH_63}.png`);
    expect(res.status).toBe(200);
    expect(decode(new Uint8Array(await res.arrayBuffer())).data).toEqual(decode(skin).data);
  });

  test("the texture server's HTML 403 (its CDN throttling): 503 upstream_rate_limited, paused on every instance", async () => {
    const { t, images, hash } = await setup();
    const other = createApp({ ...t });
    images.state.failure = "gateway403";
    const res = await t.request(`/v1/assets/skin/${hash}.png`);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("upstream_rate_limited");
    images.state.failure = "none";
    const elsewhere = await other.handle(new Request(`http://localhost/v1/assets/skin/${hash}.png`));
    expect(elsewhere.status).toBe(503);
    // A head meanwhile: the identity provider is asked, the texture server is not; the default head.
    const head = await t.request(`/v1/assets/head/${alice}.png`);
    expect(new Uint8Array(await head.arrayBuffer())).toEqual(new Uint8Array(defaultHead()));
    expect(images.calls.length).toBe(1);
    t.clock.advance(60_000);
    expect((await other.handle(new Request(`http://localhost/v1/assets/skin/${hash}.png`))).status).toBe(200);
  });

  test("an unknown hash answers 404", async () => {
    const { t } = await setup();
    expect((await t.request(`/v1/assets/skin/${"ab".repeat(32)}.png`)).status).toBe(404);
  });

  for (const [name, make] of [
    ["a PNG declaring 30000x30000 (refused before decoding)", hugePng],
    ["a PNG over IMAGE_MAX_BYTES", () => heavyPng()],
    ["a file that is not a PNG", notPng],
    ["a PNG of the wrong size for a skin", () => itemPng(32)],
  ] as const) {
    test(`${name}: 502 upstream_bad_image, nothing cached`, async () => {
      const { t, images } = await setup();
      const bytes = make();
      const hash = hashOf(bytes);
      images.files.set(`/texture/${hash}`, bytes);
      const res = await t.request(`/v1/assets/skin/${hash}.png`);
      expect(res.status).toBe(502);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("upstream_bad_image");
      expect((await t.request(`/v1/assets/skin/${hash}.png`)).status).toBe(502);
      expect(images.calls.length).toBe(2);
    });
  }

  test("a redirect from the texture server to another host is not followed", async () => {
    const { t, images, evil } = await setup();
    const hash = "cd".repeat(32);
    images.files.set(`/texture/${hash}`, { redirect: `${evil.url}/texture/${hash}` });
    const res = await t.request(`/v1/assets/skin/${hash}.png`);
    expect(res.status).toBe(503);
    expect(evil.calls.length).toBe(0);
  });
});

describe("GET /v1/assets/item/<id>.png", () => {
  test("fetches ITEM_IMAGES_URL/<id>.png with the id as one encoded segment, re-encoded and cached", async () => {
    const { t, images } = await setup();
    images.files.set("/ENCHANTED_DIAMOND.png", itemPng());
    images.files.set("/PET%3BTIGER%3A4.png", itemPng(32));
    const res = await t.request("/v1/assets/item/ENCHANTED_DIAMOND.png");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(decode(new Uint8Array(await res.arrayBuffer())).width).toBe(16);
    expect((await t.request("/v1/assets/item/PET;TIGER:4.png")).status).toBe(200);
    expect((await t.request("/v1/assets/item/ENCHANTED_DIAMOND.png")).status).toBe(200);
    expect(images.calls.map((c) => c.path)).toEqual(["/ENCHANTED_DIAMOND.png", "/PET%3BTIGER%3A4.png"]);
  });

  test("an image wider than ITEM_IMAGE_MAX_SIDE is refused; a missing one is 404", async () => {
    const { t, images } = await setup({ itemImageMaxSide: 64 });
    images.files.set("/BIG.png", itemPng(128));
    expect((await t.request("/v1/assets/item/BIG.png")).status).toBe(502);
    expect((await t.request("/v1/assets/item/MISSING.png")).status).toBe(404);
  });

  test("without ITEM_IMAGES_URL item images answer 404 and nobody is asked", async () => {
    const { t, images } = await setup({ itemImagesUrl: "" });
    expect((await t.request("/v1/assets/item/ENCHANTED_DIAMOND.png")).status).toBe(404);
    expect(images.calls.length).toBe(0);
  });
});

describe("ids of the wrong shape", () => {
  test("answer 404 and reach no upstream: URLs, dot-dot, encoded slashes, wrong lengths, other extensions", async () => {
    const { t, images, session, evil } = await setup();
    const bad = [
      `/v1/assets/head/${alice.toUpperCase()}.png`,
      `/v1/assets/head/${alice.slice(1)}.png`,
      `/v1/assets/head/${alice}.jpg`,
      `/v1/assets/head/${alice}`,
      `/v1/assets/head/..%2F..%2Fsession%2Fminecraft%2Fprofile%2F${alice}.png`,
      `/v1/assets/skin/0${"a".repeat(62)}.png`, // a shortened hash never starts with 0
      `/v1/assets/skin/${"a".repeat(55)}.png`,
      `/v1/assets/skin/${"a".repeat(65)}.png`,
      `/v1/assets/skin/${"A".repeat(64)}.png`,
      `/v1/assets/skin/http%3A%2F%2F127.0.0.1%2Ftexture%2F${"a".repeat(64)}.png`,
      `/v1/assets/skin/${"a".repeat(64)}%2F..%2F${"b".repeat(64)}.png`,
      "/v1/assets/item/..%2F..%2Fetc%2Fpasswd.png",
      "/v1/assets/item/%2e%2e.png",
      "/v1/assets/item/.hidden.png",
      "/v1/assets/item/http:%2F%2Fexample.com%2Fa.png",
      `/v1/assets/item/${"A".repeat(65)}.png`,
      `/v1/assets/item/${encodeURIComponent(`${evil.url}/x`)}.png`,
      "/v1/assets/item/A%20B.png",
      "/v1/assets/item/A%00.png",
      "/v1/assets/cape/ANY.png",
    ];
    for (const path of bad) expect([path, (await t.request(path)).status]).toEqual([path, 404]);
    expect(images.calls.length + session.calls.length + evil.calls.length).toBe(0);
  });
});

describe("the asset rate limit", () => {
  test("ASSET_RATE_LIMIT_PER_MINUTE per client address, counted in the database", async () => {
    const { t } = await setup({ assetRateLimit: 2 });
    expect((await t.request(`/v1/assets/head/${bob}.png`)).status).toBe(200);
    expect((await t.request(`/v1/assets/head/${bob}.png`)).status).toBe(200);
    expect((await t.request(`/v1/assets/head/${bob}.png`)).status).toBe(429);
  });
});

describe("cache metrics", () => {
  test("head and skin look-ups are counted as hits, misses and stale answers", async () => {
    const { t, session, hash } = await setup({ metricsEnabled: true, assetCacheHours: 1 });
    await t.request(`/v1/assets/head/${alice}.png`); // miss (the skin inside it is fetched too, not counted)
    await t.request(`/v1/assets/head/${alice}.png`); // hit
    await t.request(`/v1/assets/skin/${hash}.png`); // hit: stored when the head was drawn
    t.clock.advance(2 * 3_600_000);
    session.state.failure = "error500";
    await t.request(`/v1/assets/head/${alice}.png`); // stale: the last head, the provider failing
    const text = await (await t.request("/metrics")).text();
    expect(text).toContain('tally_cache_lookups_total{cache="images",outcome="miss"} 1');
    expect(text).toContain('tally_cache_lookups_total{cache="images",outcome="hit"} 2');
    expect(text).toContain('tally_cache_lookups_total{cache="images",outcome="stale"} 1');
  });
});
