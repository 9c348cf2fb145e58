// The share page names nobody (issue 34): a share link's page, every page and file it links to
// (profile tabs, ranges, periods, group lists, its card, the site's pages), its link preview tags
// and the words its card draws hold no 32-hex id (uuid, profile id, install id) and not the owner's
// name; it offers no badge (a badge's address is the owner's page's), and its handles open no badge.
// A profile is named there by a handle that means something only with that share key, and changes
// with it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { pageEnv } from "../web/env.ts";
import { seedPlayer, SECOND_PROFILE, seedSecondProfile, type Seeded } from "../web/seed.ts";
import { PROFILE } from "../support/uploads.ts";
import { walk } from "../web/walk.ts";
import { cardRenderer } from "../../src/cards/cards.ts";
import { lifetimeMemo } from "../../src/stats/lifetime-memo.ts";
import { workGate } from "../../src/http/work-gate.ts";
import { accountByShareKey } from "../../src/accounts/accounts.ts";
import { itemNames } from "../../src/items/item-names.ts";

// The walk reaches every list, order, period and range of two profiles: more than the default 5 s.
setDefaultTimeout(60_000);

const OWNER = { name: "Owner_Walks", uuid: "5e6f708192a3b4c5d6e7f80112233445" };
const OTHER_PROFILE = SECOND_PROFILE.id;
const HEX32 = /[0-9a-f]{32}/i;

let env: Awaited<ReturnType<typeof pageEnv>>;
let owner: Seeded;
beforeAll(async () => {
  env = await pageEnv();
  owner = await seedPlayer(env.t, { ...OWNER, findable: true, share: true });
  env.t.clock.advance(60_000);
  await seedSecondProfile(env.t, owner.player, [
    { k: "mining.blocks.total", v: 77 },
    { k: "loot.item.PET;ENDER_DRAGON;4", v: 1 },
  ]);
});
afterAll(() => env.close());

describe("a share page", () => {
  test("names nobody: no 32-hex id and not the owner's name in any page, link, card or tag it reaches", async () => {
    const start = `/s/${owner.shareKey}`;
    // The walk asks for every list, order, period and range of one account.
    const reached = await walk(env.t, start, [`${start}/card.png`], 200);
    const own = [...reached.keys()].filter((p) => p.startsWith(start));
    expect(own.length).toBeGreaterThan(10);
    // The walk went through the profile tabs, the ranges, the periods and the card.
    expect(own.some((p) => /[?&]profile=[A-Za-z0-9_-]{12}\b/.test(p))).toBe(true);
    expect(own.some((p) => p.includes("range="))).toBe(true);
    expect(own).toContain(`${start}/card.png`);
    expect(reached.get(`${start}/card.png`)!.type).toBe("image/png");
    for (const [path, page] of reached) {
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      expect({ path, hex: HEX32.test(path.replace(owner.shareKey!, "")) }).toEqual({ path, hex: false });
      const text = page.body.replaceAll(owner.shareKey!, "");
      expect({ path, hex: text.match(HEX32)?.[0] ?? null }).toEqual({ path, hex: null });
      expect({ path, name: text.toLowerCase().includes(OWNER.name.toLowerCase()) }).toEqual({ path, name: false });
    }
    // The pet reads as a pet, by name and rarity.
    const kiwi = [...reached.entries()].find(([, p]) => p.body.includes("Profile Kiwi"))!;
    expect(kiwi[1].body).toContain("Ender Dragon (Legendary)");
    // Nothing it reaches is the owner's own address: no /u/ page, badge or card of theirs.
    expect([...reached.keys()].filter((p) => p.startsWith("/u/") || p.includes("/badge/"))).toEqual([]);
  });

  test("its card draws no id and not the owner's name; the owner's page's card does name them", async () => {
    // The words the card's PNG is drawn from, by the renderer the card route uses.
    const cards = cardRenderer({
      ...env.t,
      lifetimes: lifetimeMemo({ maxFigures: 10_000, ttlMs: 60_000, clock: env.t.clock }),
      renders: workGate({ atOnce: 1, queue: 10 }),
      items: itemNames(env.t),
    });
    const account = (await accountByShareKey(env.t.db, owner.shareKey!))!;
    const svg = await cards.statsSvg(account, { anonymous: true });
    const words = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!).join(" | ");
    expect(words).toContain("SkyBlock statistics shared from tally");
    expect(svg.match(HEX32)?.[0] ?? null).toBeNull();
    expect(svg.toLowerCase()).not.toContain(OWNER.name.toLowerCase());
    // No head: the image of a skin names its player as surely as the name does.
    expect(svg).not.toContain("<image");
    // The findable page's card, drawn by the same code, does name its owner (the check above can fail).
    expect(await cards.statsSvg(account, { anonymous: false })).toContain(OWNER.name);
  });

  test("a share page has no badge, and its handles open none of the owner's badges", async () => {
    const html = await (await env.t.request(`/s/${owner.shareKey}`)).text();
    const handle = html.match(/[?&]profile=([A-Za-z0-9_-]{12})/)![1]!;
    const kinds = await Promise.all(
      [
        `/s/${owner.shareKey}/badge/mining.blocks.total.svg`,
        // The owner's findable page's badge, asked with the share page's handle: a handle means
        // something only with its share key.
        `/u/${OWNER.name}/badge/mining.blocks.total.svg?profile=${handle}`,
      ].map(async (path) => {
        const res = await env.t.request(path, { headers: { accept: "text/html" } });
        return { path, status: res.status, svg: (res.headers.get("content-type") ?? "").includes("svg") };
      }),
    );
    for (const k of kinds) expect(k).toEqual({ path: k.path, status: 404, svg: false });
  });

  test("the handles change when the key is rotated; an old handle is no profile on the new page", async () => {
    const before = await (await env.t.request(`/s/${owner.shareKey}`)).text();
    const handles = [...before.matchAll(/[?&]profile=([A-Za-z0-9_-]{12})/g)].map((m) => m[1]!);
    expect(handles.length).toBeGreaterThan(0);
    const rotated = (await (
      await env.t.request("/v1/stats/share/rotate", { method: "POST", headers: owner.player.auth })
    ).json()) as { shareUrl: string };
    const key = rotated.shareUrl.split("/s/")[1]!;
    const after = await (await env.t.request(`/s/${key}`)).text();
    for (const h of handles) expect(after).not.toContain(h);
    // A raw profile id asks for nothing: the page's default profile.
    const raw = await (await env.t.request(`/s/${key}?profile=${PROFILE}`)).text();
    expect(raw).not.toContain(PROFILE);
    owner = { ...owner, shareKey: key };
  });
});

describe("one 404", () => {
  test("any unknown address asked for a page answers the site's styled 404 with its navigation; /v1/ keeps JSON", async () => {
    for (const path of ["/no/such/page", "/admin", "/admin/reports", "/u/", "/s/", "/docs/nothing", "/favicon.ico"]) {
      const res = await env.t.request(path, { headers: { accept: "text/html" } });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = await res.text();
      expect(html).toContain('<nav aria-label="Site">');
      expect(html).toContain("<h1>Not found</h1>");
      expect(html).toContain('<a href="/">Home</a>');
    }
    const api = await env.t.request("/v1/no/such/route", { headers: { accept: "text/html" } });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: { code: "not_found", message: "no such route" } });
  });
});
