// The player chooses what heads their page (issue 34): settings' headlineKeys lead the page's headline,
// the card (its SVG text), the link description, the owner's badges and the public figures; a chosen
// key with nothing recorded is skipped; with none chosen, the figures recorded on the most days lead.
// The owner's page chooses them too, through a form only the owner's browser, from the page, can post.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(60_000);
import { pageEnv } from "./env.ts";
import { seedPlayer, pageLink, patchSettings, TODAY, type Seeded } from "./seed.ts";
import { PROFILE, envelope, uploader } from "../support/uploads.ts";
import { addDays } from "../../src/wire/day.ts";
import { accountByName } from "../../src/accounts/accounts.ts";
import { accountHeadline } from "../../src/cards/cards.ts";
import { cardSvg } from "../../src/cards/card-svg.ts";
import { lifetimeMemo } from "../../src/stats/lifetime-memo.ts";

let env: Awaited<ReturnType<typeof pageEnv>>;
let chooser: Seeded;
let cookie: string;

/** The chosen keys: a catalogue key never recorded (skipped), the account's playtime, a key the catalogue lacks. */
const CHOSEN = ["tally.uploads.sent", "tally.playtime.total", "fishing.trophy.GOLDEN_FISH"];
const LEAD = ["tally.playtime.total", "fishing.trophy.GOLDEN_FISH"];

beforeAll(async () => {
  env = await pageEnv();
  chooser = await seedPlayer(env.t, { name: "Chooser_1", findable: true });
  const link = await env.t.request(await pageLink(env.t, chooser.player), { redirect: "manual" });
  expect(link.status).toBe(303);
  cookie = link.headers.get("set-cookie")!.split(";")[0]!;
});
afterAll(() => env.close());

const settings = async () =>
  (await (await env.t.request("/v1/stats/settings", { headers: chooser.player.auth })).json()) as {
    settingsVersion: number;
    headlineKeys: string[];
  };
const choose = async (headlineKeys: string[]) =>
  env.t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...chooser.player.auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: (await settings()).settingsVersion, headlineKeys }),
  });
const html = async (path: string, headers: Record<string, string> = {}) =>
  (await env.t.request(path, { headers: { accept: "text/html", ...headers } })).text();
/** The keys of the page's headline figures, in order. */
const headlineKeysOf = (page: string) => {
  const section = page.match(/<section aria-label="Headline figures"[\s\S]*?<\/ul>/)?.[0] ?? "";
  return [...section.matchAll(/<li data-key="([^"]+)"/g)].map((m) => m[1]!);
};
const description = (page: string) => page.match(/<meta property="og:description" content="([^"]*)"/)?.[1] ?? "";
const publicHeadline = async () =>
  ((await (await env.t.request("/v1/pages/Chooser_1")).json()) as { headline: { key: string; label: string }[] })
    .headline;
async function cardText() {
  const account = (await accountByName(env.t.db, "Chooser_1"))!;
  const lifetimes = lifetimeMemo({ maxFigures: 0, ttlMs: 0, clock: env.t.clock });
  const { headline } = await accountHeadline({ ...env.t, lifetimes }, account);
  return cardSvg({ name: account.name, subtitle: "SkyBlock statistics", head: null, ...headline });
}

describe("headline figures chosen by the player", () => {
  test("until chosen, the figures recorded on the most days lead everywhere", async () => {
    const page = await html("/u/Chooser_1");
    const keys = headlineKeysOf(page);
    expect(keys.length).toBe(4);
    // The account's playtime is recorded on 3 days, the profile's figures on 9: it does not lead.
    expect(keys).not.toContain("tally.playtime.total");
    expect((await publicHeadline()).map((f) => f.key)).toEqual(keys);
  });

  test("until chosen, figures recorded every day lead by their size, never by the alphabet", async () => {
    // Five counts recorded on each of the last 30 days: a tie of days and kind.
    const perDay = {
      "mining.blocks.total": 50,
      "mining.skill.xp": 100,
      "foraging.skill.xp": 200,
      "fishing.skill.xp": 300,
      "farming.skill.xp": 400,
    };
    const daily = await uploader(env.t, { name: "Daily_Doer", zone: "Europe/Berlin" });
    const counters = Array.from({ length: 30 }, (_, i) => ({
      profileId: PROFILE,
      scope: "day" as const,
      day: addDays(TODAY, -i),
      rows: Object.entries(perDay).map(([k, v]) => ({ k, v })),
    }));
    expect((await daily.send(envelope(env.t, { counters }))).status).toBe(200);
    await patchSettings(env.t, daily, { findable: true });
    // The alphabet would put "Blocks mined" first and "Mining skill xp" out.
    expect(headlineKeysOf(await html("/u/Daily_Doer"))).toEqual([
      "farming.skill.xp",
      "fishing.skill.xp",
      "foraging.skill.xp",
      "mining.skill.xp",
    ]);
  });

  test("a key neither the catalogue nor the account knows is refused; a recorded one the catalogue lacks is not", async () => {
    const res = await choose(["fishing.trophy.NOBODY_CAUGHT"]);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unknown_headline_key");
    const ok = await choose(CHOSEN);
    expect(ok.status).toBe(200);
    expect((await settings()).headlineKeys).toEqual(CHOSEN);
  });

  test("the chosen figures lead the page, the description, the card, the badges and the public figures", async () => {
    const page = await html("/u/Chooser_1");
    expect(headlineKeysOf(page).slice(0, 2)).toEqual(LEAD);
    expect(headlineKeysOf(page).length).toBe(4);
    // Chosen but never recorded: skipped, not shown empty.
    expect(headlineKeysOf(page)).not.toContain("tally.uploads.sent");
    expect(description(page)).toStartWith("Playtime: 6 h 15 min · ");
    const second = (await publicHeadline())[1]!.label;
    expect(description(page).split(" · ")[1]).toStartWith(`${second}: `);
    const svg = await cardText();
    expect(svg).toContain("Playtime");
    expect(svg.indexOf("Playtime")).toBeLessThan(svg.indexOf("Blocks mined"));
    expect((await publicHeadline()).map((f) => f.key).slice(0, 2)).toEqual(LEAD);
    // The owner's badge snippets follow the headline: the first is playtime's, and it draws.
    const own = await html("/u/Chooser_1", { cookie });
    const badges = [...own.matchAll(/src="\/u\/Chooser_1\/badge\/([^"]+)\.svg"/g)].map((m) => m[1]);
    expect(badges.slice(0, 2)).toEqual(LEAD);
    const badge = await env.t.request("/u/Chooser_1/badge/tally.playtime.total.svg");
    expect(badge.status).toBe(200);
    expect(await badge.text()).toContain("Playtime");
    // The card PNG is drawn again for the new choice.
    expect((await env.t.request("/u/Chooser_1/card.png")).status).toBe(200);
  });

  test("the owner's page chooses them through its form, from the page only", async () => {
    const own = await html("/u/Chooser_1", { cookie });
    expect(own).toContain('action="/u/Chooser_1/headline"');
    expect(own).toContain('<option value="tally.playtime.total" selected>');
    const post = (headers: Record<string, string>, form: string) =>
      env.t.request("/u/Chooser_1/headline", {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...headers },
        body: form,
      });
    const form = "key1=kills.best.hit&key2=&key3=kills.best.hit&key4=mining.blocks.total";
    // Another site's form: refused, nothing changes (a browser would not even send the Lax cookie).
    const cross = await post({ cookie, origin: "https://evil.example" }, form);
    expect(cross.status).toBe(403);
    const nullOrigin = await post({ cookie, origin: "null", "sec-fetch-site": "cross-site" }, form);
    expect(nullOrigin.status).toBe(403);
    // Without the owner's cookie: the page that does not exist.
    expect((await post({ origin: "http://localhost" }, form)).status).toBe(404);
    expect((await settings()).headlineKeys).toEqual(CHOSEN);
    // From the page: saved in order, empty places and repeats left out, back to the headline.
    const ok = await post({ cookie, origin: "http://localhost" }, form);
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/u/Chooser_1#headline");
    expect((await settings()).headlineKeys).toEqual(["kills.best.hit", "mining.blocks.total"]);
    expect(headlineKeysOf(await html("/u/Chooser_1")).slice(0, 2)).toEqual(["kills.best.hit", "mining.blocks.total"]);
    // An unknown key from a hand-made form is refused with the settings' rule.
    const bad = await post({ cookie, origin: "http://localhost" }, "key1=mining.nothing.here");
    expect(bad.status).toBe(422);
  });

  test("clearing the choice falls back to the figures recorded on the most days", async () => {
    const before = await choose([]);
    expect(before.status).toBe(200);
    const keys = headlineKeysOf(await html("/u/Chooser_1"));
    expect(keys).not.toContain("tally.playtime.total");
    expect((await publicHeadline()).map((f) => f.key)).toEqual(keys);
  });
});
