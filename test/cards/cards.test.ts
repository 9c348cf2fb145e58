// Link previews and badges in-process: the pages' OpenGraph and Twitter tags read the way a link
// unfurler reads them, the card PNG they point at (1200x630, cached, invalidated by new numbers,
// 404 wherever the page is), the badge SVG (light and dark, ETag), the owner's snippets, and that
// rendering a card reaches no host but the image proxy's fakes.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
// The first card of a process compiles resvg's wasm: seconds on a busy machine.
setDefaultTimeout(60_000);
import { decode } from "fast-png";
import { testApp, loopbackFetch, type TestApp } from "../support/app.ts";
import { fixtureCatalogue } from "../support/fixtures.ts";
import { fakeGameApi, hypixelProfile } from "../support/fakes/game-api.ts";
import { fakeNames } from "../support/fakes/names.ts";
import { fakeSessionServer, fakeImageServer, skinPng, hashOf } from "../support/fakes/skins.ts";
import { envelope, PROFILE } from "../support/uploads.ts";
import { seedPlayer, pageLink, SEED_NOW, TODAY, type Seeded } from "../web/seed.ts";

const GAME_KEY = "0b5e8c1a-7d3f-4e2a-9c6b-1f0e2d3c4b5a";
const alice = { uuid: "0f1e2d3c4b5a69788796a5b4c3d2e1f0", name: "Alice_01" };
const BASE = "https://tally.example";

let t: TestApp;
let stops: (() => Promise<void>)[] = [];
/** Every upstream call the app makes, by host and path. */
const calls: string[] = [];
let findable: Seeded;
let hidden: Seeded;

beforeAll(async () => {
  const game = fakeGameApi({ key: GAME_KEY });
  const names = fakeNames([alice]);
  const images = fakeImageServer();
  const skin = skinPng();
  const hash = hashOf(skin);
  images.files.set(`/texture/${hash}`, skin);
  const session = fakeSessionServer([
    { uuid: alice.uuid, name: alice.name, skinUrl: `http://textures.minecraft.net/texture/${hash}` },
  ]);
  game.players.set(alice.uuid, [hypixelProfile(alice.uuid, { cuteName: "Banana", selected: true })]);
  const counting: typeof fetch = Object.assign(
    async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      calls.push(url.host + url.pathname);
      return loopbackFetch(input, init);
    },
    { preconnect: () => {} },
  );
  t = await testApp({
    settings: {
      devSignin: true,
      baseUrl: BASE,
      catalogueFile: fixtureCatalogue,
      gameApiUrl: game.url,
      gameApiKey: GAME_KEY,
      namesUrl: names.url,
      identityUrl: session.url,
      texturesUrl: images.url,
      lookupRateLimit: 0,
      upstreamTimeoutMs: 1000,
    },
    fetch: counting,
    now: SEED_NOW,
  });
  stops = [game, names, images, session].map((s) => () => s.stop());
  findable = await seedPlayer(t, { name: alice.name, uuid: alice.uuid, findable: true, share: true });
  hidden = await seedPlayer(t, { name: "Hidden_One" });
}, 60_000);
afterAll(async () => {
  await t.close();
  for (const stop of stops) await stop();
});

/** Today's blocks mined on the seeded profile, as the mod would send them a moment later. */
const mine = (blocks: number) =>
  (t.clock.advance(1000), findable.player).send(
    envelope(t, {
      profile: { id: PROFILE, cuteName: "Pomegranate" },
      counters: [{ profileId: PROFILE, scope: "day", day: TODAY, rows: [{ k: "mining.blocks.total", v: blocks }] }],
    }),
  );

const get = (path: string, headers: Record<string, string> = {}) => t.request(path, { headers });

/** The head's meta tags as an unfurler reads them: property or name -> content, entities decoded. */
function previewTags(html: string): Map<string, string> {
  const head = html.slice(0, html.indexOf("</head>"));
  const out = new Map<string, string>();
  const decodeEntities = (s: string) =>
    s.replace(/&(#\d+|quot|amp|lt|gt|apos|#x[0-9a-f]+);/gi, (_, e: string) =>
      e[0] === "#"
        ? String.fromCodePoint(e[1] === "x" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)))
        : ({ quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" } as Record<string, string>)[e.toLowerCase()]!,
    );
  for (const m of head.matchAll(/<meta\s+(property|name)="((?:og|twitter):[^"]+)"\s+content="([^"]*)"\s*\/?>/g))
    out.set(m[2]!, decodeEntities(m[3]!));
  return out;
}

/** Fetches an absolute og:image address from the app, as the unfurler would from BASE_URL. */
async function fetchImage(address: string, headers: Record<string, string> = {}) {
  const url = new URL(address);
  expect(url.origin).toBe(BASE);
  return get(url.pathname + url.search, headers);
}

function expectCard(bytes: Uint8Array) {
  expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const png = decode(bytes);
  expect([png.width, png.height]).toEqual([1200, 630]);
  return png;
}

describe("link previews", () => {
  test("a findable page carries OpenGraph and Twitter tags whose image is its card", async () => {
    const res = await get(`/u/${alice.name}`);
    expect(res.status).toBe(200);
    const tags = previewTags(await res.text());
    expect(tags.get("og:title")).toBe("Alice_01's SkyBlock statistics");
    expect(tags.get("twitter:card")).toBe("summary_large_image");
    expect(tags.get("og:url")).toBe(`${BASE}/u/Alice_01`);
    expect(tags.get("og:image:width")).toBe("1200");
    expect(tags.get("og:image:height")).toBe("630");
    expect(tags.get("og:image:type")).toBe("image/png");
    expect(tags.get("twitter:image")).toBe(tags.get("og:image")!);
    // The most recorded figures of the last 30 days, in their units, as the page writes them.
    const description = tags.get("og:description")!;
    expect(description).toContain("Blocks mined: 268,000");
    expect(description).toContain("Fishing trophy Golden Fish: 4");
    expect(tags.get("og:image")).toMatch(new RegExp(`^${BASE}/u/Alice_01/card\\.png\\?v=\\d+$`));

    const card = await fetchImage(tags.get("og:image")!);
    expect(card.status).toBe(200);
    expect(card.headers.get("content-type")).toBe("image/png");
    expect(card.headers.get("cache-control")).toBe("public, max-age=300");
    expectCard(new Uint8Array(await card.arrayBuffer()));
    await Bun.write(
      "test/artifacts/cards/card-u.png",
      new Uint8Array(await (await get("/u/Alice_01/card.png")).arrayBuffer()),
    );
  });

  test("the card answers 304 to its ETag, and changes when the numbers do", async () => {
    const first = await get("/u/Alice_01/card.png");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"card-[0-9a-f]{32}"$/);
    const again = await get("/u/Alice_01/card.png", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");

    // A new upload: the card that answers is a new one, and the old ETag no longer matches.
    expect((await mine(2000)).status).toBe(200);
    const after = await get("/u/Alice_01/card.png", { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    const tags = previewTags(await (await get("/u/Alice_01")).text());
    expect(tags.get("og:description")).toContain("Blocks mined: 270,000");
  });

  test("a page nobody can find has no card and no preview tags; an unknown name neither", async () => {
    expect((await get(`/u/${hidden.name}/card.png`)).status).toBe(404);
    expect((await get("/u/Nobody_Here/card.png")).status).toBe(404);
    expect((await get("/u/bad%20name/card.png")).status).toBe(404);
    // The owner's own page (through its page link) shows no tags: the card would not open for anyone else.
    const link = await pageLink(t, hidden.player);
    const cookie = (await get(link)).headers.get("set-cookie")!.split(";")[0]!;
    const own = await (await get(`/u/${hidden.name}`, { cookie })).text();
    expect(previewTags(own).size).toBe(0);
    expect(own).toContain("Make your page findable");
  });

  test("a share page's card says neither the name nor shows the head, and goes with its key", async () => {
    const res = await get(`/s/${findable.shareKey}`);
    const html = await res.text();
    const tags = previewTags(html);
    expect(tags.get("og:title")).toBe("Shared SkyBlock statistics");
    expect([...tags.values()].join(" ")).not.toContain(alice.name);
    const card = await fetchImage(tags.get("og:image")!);
    expect(card.status).toBe(200);
    expect(card.headers.get("cache-control")).toBe("no-store");
    expect(card.headers.get("x-robots-tag")).toBe("noindex");
    const bytes = new Uint8Array(await card.arrayBuffer());
    expectCard(bytes);
    await Bun.write("test/artifacts/cards/card-s.png", bytes);

    const old = findable.shareKey!;
    const rotated = (await (
      await t.request("/v1/stats/share/rotate", { method: "POST", headers: findable.player.auth })
    ).json()) as { shareUrl: string };
    findable.shareKey = rotated.shareUrl.split("/s/")[1]!;
    expect((await get(`/s/${old}/card.png`)).status).toBe(404);
    expect((await get(`/s/${findable.shareKey}/card.png`)).status).toBe(200);
  });

  test("a public profile page's card: head, name, the selected profile's figures", async () => {
    const html = await (await get(`/p/${alice.name}`)).text();
    const tags = previewTags(html);
    expect(tags.get("og:image")).toBe(`${BASE}/p/Alice_01/card.png`);
    const card = await fetchImage(tags.get("og:image")!);
    expect(card.status).toBe(200);
    const bytes = new Uint8Array(await card.arrayBuffer());
    expectCard(bytes);
    await Bun.write("test/artifacts/cards/card-p.png", bytes);
    expect((await get("/p/Unknown_Guy/card.png")).status).toBe(404);
  });

  test("rendering a card asks no host but the image proxy's upstreams (fakes), and those once", async () => {
    await get("/u/Alice_01/card.png");
    const before = calls.length;
    const etag = (await get("/u/Alice_01/card.png")).headers.get("etag");
    // New numbers: a new render, with the head from the proxy's cache: no upstream call at all.
    expect((await mine(3000)).status).toBe(200);
    const res = await get("/u/Alice_01/card.png");
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).not.toBe(etag);
    expect(calls.slice(before)).toEqual([]);
    for (const c of calls) expect(c.startsWith("127.0.0.1:")).toBe(true);
  });

  test("a warm card is the one in memory: the same ETag and bytes (timings: bench/cards.ts)", async () => {
    const first = await get("/u/Alice_01/card.png");
    const bytes = new Uint8Array(await first.arrayBuffer());
    for (let i = 0; i < 3; i++) {
      const again = await get("/u/Alice_01/card.png");
      expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
      expect(new Uint8Array(await again.arrayBuffer())).toEqual(bytes);
    }
  });
});

describe("badges", () => {
  test("a figure in its unit, light and dark, cacheable, 304 on its ETag", async () => {
    const res = await get("/u/Alice_01/badge/mining.blocks.total.svg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const svg = await res.text();
    expect(svg).toContain("<title>Blocks mined: 271,000</title>");
    expect(svg).toContain("@media (prefers-color-scheme: dark)");
    expect(svg).not.toMatch(/<script|href=|url\((?!#)/);
    await Bun.write("test/artifacts/cards/badge.svg", svg);
    const etag = res.headers.get("etag")!;
    expect((await get("/u/Alice_01/badge/mining.blocks.total.svg", { "if-none-match": etag })).status).toBe(304);
    const playtime = await (await get("/u/Alice_01/badge/tally.playtime.total.svg")).text();
    expect(playtime).toMatch(/<title>Playtime: \d+ h \d+ min<\/title>/);
  });

  test("404 for a page nobody can find, a key not recorded, a malformed key or an unknown profile handle", async () => {
    expect((await get(`/u/${hidden.name}/badge/mining.blocks.total.svg`)).status).toBe(404);
    expect((await get("/u/Alice_01/badge/mining.never.recorded.svg")).status).toBe(404);
    expect((await get("/u/Alice_01/badge/..%2F..%2Fetc.svg")).status).toBe(404);
    expect((await get("/u/Alice_01/badge/mining.blocks.total.png")).status).toBe(404);
    expect((await get("/u/Alice_01/badge/mining.blocks.total.svg?profile=AAAAAAAAAAAA")).status).toBe(404);
    // A game profile id is never taken (issue 34): profiles are asked for by the page's handles.
    expect(
      (await get("/u/Alice_01/badge/mining.blocks.total.svg?profile=ffffffffffffffffffffffffffffffff")).status,
    ).toBe(400);
  });

  test("the owner's findable page shows snippets to copy; visitors don't see them", async () => {
    const link = await pageLink(t, findable.player);
    const cookie = (await get(link)).headers.get("set-cookie")!.split(";")[0]!;
    const own = await (await get("/u/Alice_01", { cookie })).text();
    expect(own).toContain('<h2 id="badges-h">Badges</h2>');
    expect(own).toContain(
      `[![Blocks mined](${BASE}/u/Alice_01/badge/mining.blocks.total.svg)](${BASE}/u/Alice_01)`.replaceAll(
        "&",
        "&amp;",
      ),
    );
    expect(own).toContain('<img src="/u/Alice_01/badge/mining.blocks.total.svg"');
    expect(await (await get("/u/Alice_01")).text()).not.toContain("badges-h");
  });
});

describe("the OpenAPI document", () => {
  test("describes the cards and the badge as images", async () => {
    const doc = (await (await get("/v1/openapi.json")).json()) as { paths: Record<string, any> };
    for (const path of ["/u/{name}/card.png", "/s/{key}/card.png", "/p/{name}/card.png"])
      expect(Object.keys(doc.paths[path].get.responses["200"].content)).toEqual(["image/png"]);
    expect(Object.keys(doc.paths["/u/{name}/badge/{file}"].get.responses["200"].content)).toEqual(["image/svg+xml"]);
  });
});

describe("after erasure", () => {
  test("a card shows the erased figures gone within a minute; the page at once", async () => {
    const before = await get("/u/Alice_01/card.png");
    const etag = before.headers.get("etag")!;
    expect((await t.request("/v1/stats/data", { method: "DELETE", headers: findable.player.auth })).status).toBe(200);
    expect(previewTags(await (await get("/u/Alice_01")).text()).get("og:description")).not.toContain("Blocks mined");
    // Nothing the card keys on changed (no upload, no setting): the same card for up to a minute...
    expect((await get("/u/Alice_01/card.png", { "if-none-match": etag })).status).toBe(304);
    t.clock.advance(60_001);
    // ...then the figures are read again: a new card, with nothing recorded.
    const after = await get("/u/Alice_01/card.png", { "if-none-match": etag });
    expect(after.status).toBe(200);
    expectCard(new Uint8Array(await after.arrayBuffer()));
    expect((await get("/u/Alice_01/badge/mining.blocks.total.svg")).status).toBe(404);
  });
});
