// A findable page's public figures (GET /v1/pages/<name>, issue 37) hold exactly what the page shows
// a stranger, nothing more: no 32-hex id (uuid, profile id, install id) in any answer of any profile
// or period, no other player's name, only keys the page itself shows, and profiles by the page's
// handles. Readable from any site, it never carries credentials (no cookie is set or honoured).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(60_000);
import { pageEnv } from "../web/env.ts";
import { seedPlayer, pageLink, SECOND_PROFILE, seedSecondProfile, type Seeded } from "../web/seed.ts";
import { PROFILE, INSTALL_A } from "../support/uploads.ts";
import { walk } from "../web/walk.ts";
import { cardRenderer } from "../../src/cards/cards.ts";
import { lifetimeMemo } from "../../src/stats/lifetime-memo.ts";
import { workGate } from "../../src/http/work-gate.ts";
import { accountByName } from "../../src/accounts/accounts.ts";
import { itemNames } from "../../src/items/item-names.ts";

const OWNER = { name: "Owner_Shows", uuid: "6e7f8091a2b3c4d5e6f708192a3b4c5d" };
const OTHER = { name: "Other_Olga", uuid: "7f8091a2b3c4d5e6f708192a3b4c5d6e" };
const OTHER_PROFILE = SECOND_PROFILE.id;
const HEX32 = /[0-9a-f]{32}/i;
const PERIODS = ["day", "week", "month", "year"];

let env: Awaited<ReturnType<typeof pageEnv>>;
let owner: Seeded;
beforeAll(async () => {
  env = await pageEnv();
  owner = await seedPlayer(env.t, { ...OWNER, findable: true, share: true });
  await seedPlayer(env.t, { ...OTHER, findable: true });
  env.t.clock.advance(60_000);
  await seedSecondProfile(env.t, owner.player, [
    { k: "mining.blocks.total", v: 77 },
    { k: "loot.item.PET;ENDER_DRAGON;4", v: 1 },
  ]);
});
afterAll(() => env.close());

type Answer = { profiles: { handle: string }[]; headline: { key: string }[]; period: Record<string, unknown> };
const keysIn = (answer: Answer) => [
  ...answer.headline.map((f) => f.key),
  ...[...JSON.stringify(answer.period).matchAll(/"key":"([^"]+)"/g)].map((m) => m[1]!),
];

describe("a findable page's public figures", () => {
  test("name nobody else and hold no id, for every profile and period, and only keys the page shows", async () => {
    const first = (await (await env.t.request("/v1/pages/Owner_Shows")).json()) as Answer;
    expect(first.profiles.length).toBe(2);
    const asked = [
      "",
      ...first.profiles.flatMap((p) => PERIODS.map((period) => `?profile=${p.handle}&period=${period}`)),
    ];
    for (const q of asked) {
      const res = await env.t.request(`/v1/pages/Owner_Shows${q}`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect({ q, hex: text.match(HEX32)?.[0] ?? null }).toEqual({ q, hex: null });
      for (const secret of [OWNER.uuid, OTHER.uuid, PROFILE, OTHER_PROFILE, INSTALL_A, OTHER.name])
        expect({ q, secret, found: text.includes(secret) }).toEqual({ q, secret, found: false });
      // No cookie, no credentials: a widget's request carries nothing and is told nothing more.
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      // Every key answered is one the page itself shows (its headline, figures or period table).
      const page = await (await env.t.request(`/u/Owner_Shows${q}`, { headers: { accept: "text/html" } })).text();
      const shown = new Set([...page.matchAll(/data-key="([^"]+)"/g)].map((m) => m[1]!));
      for (const key of keysIn(JSON.parse(text) as Answer))
        expect({ q, key, shown: shown.has(key) }).toEqual({ q, key, shown: true });
    }
  });

  test("the owner's page cookie changes nothing: the same answer, not the owner's view", async () => {
    const link = await env.t.request(await pageLink(env.t, owner.player), { redirect: "manual" });
    const cookie = link.headers.get("set-cookie")!.split(";")[0]!;
    const stranger = await (await env.t.request("/v1/pages/Owner_Shows")).text();
    const withCookie = await (await env.t.request("/v1/pages/Owner_Shows", { headers: { cookie } })).text();
    expect(withCookie).toBe(stranger);
  });

  test("a profile id or a share key is refused; a handle of nothing selects the default profile", async () => {
    for (const q of [`?profile=${OTHER_PROFILE}`, `?profile=${owner.shareKey}`])
      expect((await env.t.request(`/v1/pages/Owner_Shows${q}`)).status).toBe(400);
    const plain = await (await env.t.request("/v1/pages/Owner_Shows")).text();
    expect(await (await env.t.request("/v1/pages/Owner_Shows?profile=AAAAAAAAAAAA")).text()).toBe(plain);
  });
});

describe("a findable page as a stranger reaches it", () => {
  test("no 32-hex id in any page, link, card, badge or public answer it reaches, nor another player's name", async () => {
    const start = "/u/Owner_Shows";
    const answer = (await (await env.t.request(`/v1/pages/Owner_Shows`)).json()) as Answer;
    // The badges of its headline figures, for the default profile and each profile by its handle.
    const badges = answer.headline.flatMap((f) => [
      `${start}/badge/${f.key}.svg`,
      ...answer.profiles.map((p) => `${start}/badge/${f.key}.svg?profile=${p.handle}`),
    ]);
    const seen = await walk(env.t, start, [`${start}/card.png`, "/v1/pages/Owner_Shows", ...badges], 250);
    const own = [...seen.keys()].filter((p) => p.startsWith(start));
    expect(own.some((p) => /[?&]profile=[A-Za-z0-9_-]{12}\b/.test(p))).toBe(true);
    expect(own.filter((p) => p.includes("/badge/")).length).toBe(badges.length);
    for (const [path, page] of seen) {
      // (a badge of a figure the profile asked for does not hold is the page that does not exist)
      const ok = path.includes("/badge/") && path.includes("?profile=") ? [200, 404] : [200];
      expect({ path, ok: ok.includes(page.status) }).toEqual({ path, ok: true });
      expect({ path, hex: HEX32.test(path) }).toEqual({ path, hex: false });
      expect({ path, hex: page.body.match(HEX32)?.[0] ?? null }).toEqual({ path, hex: null });
      expect({ path, other: page.body.includes(OTHER.name) }).toEqual({ path, other: false });
    }
    // A badge of the second profile, asked for by its handle, shows that profile's own figure.
    const kiwi = answer.profiles.find((p) => (p as { cuteName?: string }).cuteName === SECOND_PROFILE.cuteName)!;
    const svg = await (await env.t.request(`${start}/badge/mining.blocks.total.svg?profile=${kiwi.handle}`)).text();
    expect(svg).toContain("<title>Blocks mined: 77</title>");
    // Its game profile id is never taken.
    const raw = await env.t.request(`${start}/badge/mining.blocks.total.svg?profile=${OTHER_PROFILE}`);
    expect(raw.status).toBe(400);
    // The words its card is drawn from (the PNG the walk reached): the owner's name, no id, nobody else.
    const cards = cardRenderer({
      ...env.t,
      lifetimes: lifetimeMemo({ maxFigures: 10_000, ttlMs: 60_000, clock: env.t.clock }),
      renders: workGate({ atOnce: 1, queue: 10 }),
      items: itemNames(env.t),
    });
    const card = await cards.statsSvg((await accountByName(env.t.db, OWNER.name))!, { anonymous: false });
    const drawn = card.replace(/href="data:image\/png;base64,[^"]*"/g, "");
    expect(drawn).toContain(OWNER.name);
    expect(drawn.match(HEX32)?.[0] ?? null).toBeNull();
    expect(drawn).not.toContain(OTHER.name);
  });
});
