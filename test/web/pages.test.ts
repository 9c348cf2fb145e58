// Every web route in-process: status, headers (CSP, caching, noindex) and content; the page link
// and its cookie; the share link and its rotation; escaping of hostile text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { testApp } from "../support/app.ts";
import { fixtureCatalogue } from "../support/fixtures.ts";
import { tempDirs } from "../support/temp.ts";
import { PROFILE, envelope, uploader } from "../support/uploads.ts";
import { pageEnv, alice, empty, stale } from "./env.ts";
import { seedPlayer, pageLink, MINING_DAYS, SEED_NOW, type Seeded } from "./seed.ts";
import { CONTENT_SECURITY_POLICY } from "../../src/web/respond.ts";
import { icon, stylesheet } from "../../src/web/assets.ts";
import { formatDay, formatDuration, formatLength, formatValue, formatNumber } from "../../src/web/format.ts";
import { sinceText } from "../../src/web/stats-view.tsx";

let env: Awaited<ReturnType<typeof pageEnv>>;
let findable: Seeded;
let hidden: Seeded;
beforeAll(async () => {
  env = await pageEnv();
  findable = await seedPlayer(env.t, { name: "Steve_Stats", findable: true, share: true });
  hidden = await seedPlayer(env.t, { name: "Hidden_One" });
});
afterAll(() => env.close());

const get = (path: string, headers: Record<string, string> = {}) => env.t.request(path, { headers });

function expectPageHeaders(res: Response) {
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
  expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
  expect(CONTENT_SECURITY_POLICY).toContain("img-src 'self' data:");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}

/** No page refers to another host: every src and href is a path of ours (links to docs aside). */
function expectOnlyOwnResources(html: string) {
  const resources = [...html.matchAll(/<(?:link|img|script|source|iframe)\b[^>]*\b(?:href|src)="([^"]*)"/g)].map(
    (m) => m[1]!,
  );
  for (const r of resources) expect(r.startsWith("/") && !r.startsWith("//")).toBe(true);
  expect(html).not.toContain("<script");
  expect(html).not.toMatch(/\sstyle="/);
}

describe("the mod's pages", () => {
  const pages: [string, string][] = [
    ["/", "Your own numbers, kept by you"],
    ["/features", "Features"],
    ["/fork", "Run your own copy"],
    ["/changelog", "Changelog"],
    ["/docs/", "Docs"],
    ["/docs/statistics", "How statistics work"],
    ["/docs/uploads", "Uploads and answers"],
    ["/docs/moving", "Moving to another instance"],
    ["/docs/api", "API reference"],
    ["/assets/privacy.html", "Privacy"],
  ];
  test("the navigation of every page leads to the boards", async () => {
    for (const [path] of pages) expect(await (await get(path)).text()).toContain('<a href="/boards">Boards</a>');
  });
  for (const [path, heading] of pages) {
    test(`${path}: 200, CSP, cacheable, "${heading}"`, async () => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expectPageHeaders(res);
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      const html = await res.text();
      expect(html).toContain(`<h1>${heading}</h1>`);
      expect(html).toContain(`<link rel="stylesheet" href="${stylesheet.path}"/>`);
      // The site's own icon, so a browser never asks for /favicon.ico (a 404 in the page's console).
      expect(html).toContain(`<link rel="icon" type="image/svg+xml" href="${icon.path}"/>`);
      expect(html).toStartWith("<!doctype html>");
      expect(html).toContain('<main id="content">');
      expectOnlyOwnResources(html);
    });
  }

  test("/changelog renders the players' and self-hosters' changelog, not the engineering log", async () => {
    const changelog = readFileSync(join(import.meta.dir, "../../site/changelog.md"), "utf8");
    const firstEntry = /^## (.+)$/m.exec(changelog)![1]!;
    const html = await (await get("/changelog")).text();
    expect(html).toContain(`<h2>${firstEntry}</h2>`);
    expect(html).toContain("For players");
    expect(html).toContain("For people running their own tally");
    expect(html).not.toContain("Engineering log</h1>");
  });

  test("/docs/protocol and /docs/architecture are the repository's docs, their contents linking their sections", async () => {
    for (const [path, file] of [
      ["/docs/protocol", "protocol.md"],
      ["/docs/architecture", "architecture.md"],
    ] as const) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const html = await res.text();
      expectOnlyOwnResources(html);
      const text = readFileSync(join(import.meta.dir, "../../docs", file), "utf8");
      const links = [...text.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
      expect(links.length).toBeGreaterThan(5);
      for (const id of links) expect(html).toContain(`id="${id}"`);
    }
    expect(await (await get("/docs/architecture")).text()).toContain('href="/docs/protocol"');
  });

  test("/docs/api links the protocol and the architecture", async () => {
    const html = await (await get("/docs/api")).text();
    expect(html).toContain('href="/docs/protocol"');
    expect(html).toContain('href="/docs/architecture"');
  });

  test("/fork explains the address override, the binary, settings and Postgres", async () => {
    const html = await (await get("/fork")).text();
    for (const words of ["JVM", "http://", "trailing slash", "bun run build", "BASE_URL", "DATABASE_URL", "Postgres"])
      expect(html).toContain(words);
  });

  test("/docs/api is rendered from /v1/openapi.json and lists no web page", async () => {
    const doc = (await (await get("/v1/openapi.json")).json()) as { paths: Record<string, any> };
    const html = await (await get("/docs/api")).text();
    for (const path of Object.keys(doc.paths)) expect(html).toContain(`<code>${path}</code>`);
    // Outside /v1/ only the pages' pictures (link preview cards, badges) are described, never a page.
    for (const [, item] of Object.entries(doc.paths).filter(([p]) => !p.startsWith("/v1/")))
      expect(Object.keys(item.get.responses["200"].content)[0]).toMatch(/^image\/(png|svg\+xml)$/);
  });

  test("the privacy page covers storage, what is never stored, retention, export, deletion, images and pseudonyms", async () => {
    const html = await (await get("/assets/privacy.html")).text();
    for (const words of [
      "What is stored",
      "What is never stored",
      "Retention",
      "Export",
      "Deletion",
      "image proxy",
      "pseudonym",
      "/v1/stats/export",
      "SHA-256",
    ])
      expect(html).toContain(words);
  });

  /** A hashed asset answered 200 with its type, cached for a year as immutable: its text. */
  async function immutable(path: string, type: string): Promise<string> {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    return res.text();
  }

  test("the stylesheet: content-hashed name, immutable, gzip when accepted", async () => {
    expect(stylesheet.path).toMatch(/^\/assets\/style\.[0-9a-f]{12}\.css$/);
    expect(await immutable(stylesheet.path, "text/css; charset=utf-8")).toContain("prefers-color-scheme: dark");
    const zipped = await get(stylesheet.path, { "accept-encoding": "gzip, br" });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer())))).toContain(
      "prefers-color-scheme: dark",
    );
  });

  test("the icon: content-hashed name, immutable, an SVG of the theme's accent in both themes", async () => {
    expect(icon.path).toMatch(/^\/assets\/icon\.[0-9a-f]{12}\.svg$/);
    const svg = await immutable(icon.path, "image/svg+xml");
    expect(svg).toStartWith("<svg");
    expect(svg).toContain("prefers-color-scheme:dark");
  });

  test("an asset name that is not ours, or an old hash, answers 404", async () => {
    for (const path of ["/assets/style.000000000000.css", "/assets/nope.js", "/assets/..%2Fpackage.json"]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expectPageHeaders(res);
    }
  });

  test("an unknown web path answers the HTML error page with the CSP and our stylesheet", async () => {
    const res = await get("/no/such/page");
    expect(res.status).toBe(404);
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toContain(stylesheet.path);
    expect(html).not.toContain("<style");
  });

  test("a page is gzip-compressed for a browser that accepts it", async () => {
    const res = await get("/docs/api", { "accept-encoding": "gzip" });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toContain("accept-encoding");
  });
});

describe("/p/<name>", () => {
  test("a player's profiles with allowlisted fields and the head through our proxy", async () => {
    const res = await get(`/p/${alice.name.toLowerCase()}`);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const html = await res.text();
    expect(html).toContain(`<img src="/v1/assets/head/${alice.uuid}.png"`);
    expect(html).toContain("<h1>Alice_01</h1>");
    expect(html).toContain("Banana <small>(selected)</small>");
    // The recorded bank balance and SkyBlock experience hypixelProfile is built from.
    expect(html).toContain("1,002,698,535 coins");
    expect(html).toContain('<th scope="row">SkyBlock experience</th><td class="num">48,330</td>');
    expect(html).not.toContain("13e823891b29408f8b8ea3272001a4e6"); // another member's uuid
    expectOnlyOwnResources(html);
  });

  test("the home page's look-up form goes to the profile's address", async () => {
    expect(await (await get("/")).text()).toContain('<form class="lookup" action="/p/" method="get" role="search">');
    const res = await get("/p/?name=Alice_01");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/p/Alice_01");
    for (const bad of ["/p/?name=%3Cscript%3E", "/p/", "/p/?name=ab"]) {
      const r = await get(bad);
      expect(r.status).toBe(404);
      expect(await r.text()).not.toContain("<script>");
    }
  });

  test("a player without profiles", async () => {
    const res = await get(`/p/${empty.name}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("has no profiles in this game mode yet");
  });

  test("an unknown player and a name of the wrong shape answer 404", async () => {
    for (const name of ["Nobody_Here", "no", "bad-name!", "x".repeat(17)]) {
      const res = await get(`/p/${name}`);
      expect(res.status).toBe(404);
      expectPageHeaders(res);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).toContain("No such player");
    }
  });

  test("the game API down: the last good answer with its age, not cached", async () => {
    await get(`/p/${stale.name}`);
    env.t.clock.advance(5 * 3_600_000);
    env.game.state.failure = "cloudflare502";
    try {
      const res = await get(`/p/${stale.name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const html = await res.text();
      expect(html).toContain(
        "The game&#39;s API is not answering right now. This is what it said 5 hours ago.".replace("&#39;", "'"),
      );
      expect(html).toContain("Kiwi");
    } finally {
      env.game.state.failure = "none";
      env.t.clock.advance(-5 * 3_600_000);
    }
  });

  test("the game API down and nothing cached: 503", async () => {
    env.game.state.failure = "cloudflare502";
    try {
      const res = await get(`/p/${alice.name}`);
      // Alice is cached and fresh from the first test: only an uncached player fails.
      expect(res.status).toBe(200);
      const fresh = await get(`/p/${empty.name}`);
      expect(fresh.status).toBe(200);
    } finally {
      env.game.state.failure = "none";
    }
  });
});

describe("/p/<name> without a game API key", () => {
  test("answers 503 and says the service has no key", async () => {
    const t = await testApp({ settings: { gameApiKey: "", lookupRateLimit: 0 }, database: env.t.database });
    try {
      const res = await t.request("/p/Alice_01");
      expect(res.status).toBe(503);
      expectPageHeaders(res);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).toContain("no game API key");
      expect(t.log.lines.some((l) => JSON.stringify(l).includes("name lookup failed"))).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe("/u/<name>", () => {
  test("a findable page: 200, indexable, briefly cacheable, the figures", async () => {
    const res = await get("/u/steve_stats");
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.headers.get("x-robots-tag")).toBeNull();
    const html = await res.text();
    expect(html).not.toContain('name="robots"');
    expect(html).toContain("<h1>Steve_Stats&#x27;s statistics</h1>");
    expect(html).toContain('<span class="value">268,000</span>');
    expect(html).toContain("Found a secret room");
    // Where a lifetime figure starts is said beside its chart, on its group's page.
    const mining = await (await get("/u/steve_stats?scope=p&group=mining")).text();
    expect(mining).toContain(`since ${formatDay(MINING_DAYS[0]!)}, including everything up to 30 April 2026`);
    expectOnlyOwnResources(html);
  });

  test("not findable: the same 404 as a name nobody holds", async () => {
    const hiddenRes = await get(`/u/${hidden.name}`);
    const nobodyRes = await get("/u/Nobody_Here");
    expect(hiddenRes.status).toBe(404);
    expect(nobodyRes.status).toBe(404);
    const strip = (h: Headers) => {
      const out: [string, string][] = [];
      h.forEach((v, k) => {
        if (k !== "x-request-id") out.push([k, v]);
      });
      return out;
    };
    expect(strip(hiddenRes.headers)).toEqual(strip(nobodyRes.headers));
    expect(await hiddenRes.text()).toBe(await nobodyRes.text());
  });

  test("the page link: a cookie for /u/<name> (HttpOnly, SameSite=Lax), a redirect to the clean address, then the owner's page", async () => {
    const link = await pageLink(env.t, hidden.player);
    expect(link).toStartWith(`/u/${hidden.name}?t=`);
    const res = await get(link);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/u/${hidden.name}`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(
      new RegExp(`^tally_page=[A-Za-z0-9_-]{43}; Path=/u/${hidden.name}; Max-Age=3600; HttpOnly; SameSite=Lax$`),
    );
    const value = cookie.split(";")[0]!;
    expect(value).not.toContain(new URL(link, "http://x").searchParams.get("t")!);

    const page = await get(`/u/${hidden.name}`, { cookie: value });
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(page.headers.get("x-robots-tag")).toBe("noindex");
    const html = await page.text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain("This is your own page");

    // The cookie opens only its owner's page, and only while it lives.
    expect((await get("/u/Steve_Stats", { cookie: value })).headers.get("cache-control")).toBe("public, max-age=60");
    env.t.clock.advance(3_600_001);
    try {
      expect((await get(`/u/${hidden.name}`, { cookie: value })).status).toBe(404);
    } finally {
      env.t.clock.advance(-3_600_001);
    }
  });

  test("an expired or made-up page token opens nothing", async () => {
    const link = await pageLink(env.t, hidden.player);
    env.t.clock.advance(600_001);
    try {
      expect((await get(link)).status).toBe(404);
    } finally {
      env.t.clock.advance(-600_001);
    }
    expect((await get(`/u/${hidden.name}?t=made-up`)).status).toBe(404);
    expect((await get(`/u/${hidden.name}`, { cookie: "tally_page=made-up" })).status).toBe(404);
    // A findable page with a stale token still opens, at its clean address.
    const res = await get("/u/Steve_Stats?t=made-up");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/u/Steve_Stats");
  });

  test("the chart range switch and the default range (a group's page)", async () => {
    const html90 = await (await get("/u/Steve_Stats?scope=p&group=mining")).text();
    expect(html90).toContain(
      '<a href="/u/Steve_Stats?scope=p&amp;group=mining#p-mining-charts" aria-current="page">Last 90 days</a>',
    );
    expect(html90).toContain('data-days="90"');
    const html30 = await (await get("/u/Steve_Stats?scope=p&group=mining&range=30")).text();
    expect(html30).toContain('data-days="30"');
    // Blocks mined 20..6 days back: in the last 30 days, all nine days; two gaps.
    expect(html30).toContain('data-points="9" data-gaps="2"');
    expect(await (await get("/u/Steve_Stats?scope=p&group=mining&range=7")).text()).toContain('data-days="90"');
    // The statistics page itself charts nothing: its first screen is the headline, the period, the calendar.
    expect(await (await get("/u/Steve_Stats")).text()).not.toContain('<figure class="chart"');
  });
});

describe("/u/<name> edge cases", () => {
  test("a findable account with nothing recorded says so", async () => {
    const p = await uploader(env.t, { name: "Fresh_Player" });
    const current = (await (await env.t.request("/v1/stats/settings", { headers: p.auth })).json()) as {
      settingsVersion: number;
    };
    await env.t.request("/v1/stats/settings", {
      method: "PATCH",
      headers: { ...p.auth, "content-type": "application/json" },
      body: JSON.stringify({ settingsVersion: current.settingsVersion, findable: true }),
    });
    const res = await get("/u/Fresh_Player");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("No profile recorded yet.");
    expect(html).toContain("Nothing recorded here yet.");
    // No chart; the calendar is there, with no active day.
    expect(html).not.toContain('<figure class="chart">');
    expect(html).toContain('data-active="0"');
  });

  test("several profiles: tabs, the latest by default, another by ?profile=", async () => {
    const other = "9f1c2a3b4d5e6f708192a3b4c5d6e7f9";
    const multi = await seedPlayer(env.t, { name: "Multi_Player", findable: true });
    env.t.clock.advance(60_000);
    const res = await multi.player.send(
      envelope(env.t, {
        profile: { id: other, cuteName: "Kiwi" },
        counters: [
          { profileId: other, scope: "day", day: MINING_DAYS[8]!, rows: [{ k: "mining.blocks.total", v: 77 }] },
        ],
      }),
    );
    expect(res.status).toBe(200);
    const html = await (await get("/u/Multi_Player")).text();
    expect(html).toContain('<nav aria-label="Profiles">');
    expect(html).toContain("Profile Kiwi");
    expect(html).toContain('<span class="value">77</span>');
    // Profiles are named by a handle, never by the game's profile id (issue 34).
    const tab = /<a href="\/u\/Multi_Player\?profile=([A-Za-z0-9_-]{12})">Pomegranate<\/a>/.exec(html);
    expect(tab).not.toBeNull();
    expect(html).not.toContain(PROFILE);
    expect(html).not.toContain(other);
    const handle = tab![1]!;
    const first = await (await get(`/u/Multi_Player?profile=${handle}`)).text();
    expect(first).toContain("Profile Pomegranate");
    expect(first).toContain('<span class="value">268,000</span>');
    expect(first).toContain(`<a href="/u/Multi_Player?profile=${handle}&amp;range=30#rates-h">Last 30 days</a>`);
    // A raw profile id is not a handle: the page's default profile.
    expect(await (await get(`/u/Multi_Player?profile=${PROFILE}`)).text()).toContain("Profile Kiwi");
  });
});

describe("/s/<key>", () => {
  test("the share page: never cached, never indexed, without the player's name", async () => {
    const res = await get(`/s/${findable.shareKey}`);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-robots-tag")).toBe("noindex");
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain('<span class="value">268,000</span>');
    expect(html).not.toContain(findable.name);
  });

  test("a rotated key answers 404 (noindex, no-store); the new one works", async () => {
    const old = findable.shareKey!;
    const rotated = (await (
      await env.t.request("/v1/stats/share/rotate", { method: "POST", headers: findable.player.auth })
    ).json()) as { shareUrl: string };
    const fresh = rotated.shareUrl.split("/s/")[1]!;
    const res = await get(`/s/${old}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-robots-tag")).toBe("noindex");
    expect((await get(`/s/${fresh}`)).status).toBe(200);
    expect((await get("/s/short")).status).toBe(404);
    findable.shareKey = fresh;
  });
});

describe("hostile text is escaped", () => {
  const dirs = tempDirs("web-escape");
  test("a hostile catalogue label and group, and a hostile cuteName, stay text", async () => {
    const doc = JSON.parse(readFileSync(fixtureCatalogue, "utf8"));
    doc.keys.push({
      key: "mining.evil.total",
      kind: "count",
      unit: "count",
      category: "gathering",
      label: '<script>alert("label")</script>',
      group: '<img src=x onerror="alert(1)">',
      scope: "profile",
    });
    doc.lists = {}; // no cuteNames list: any cuteName is accepted
    const file = join(dirs(), "catalogue.json");
    writeFileSync(file, JSON.stringify(doc));
    const t = await testApp({ settings: { devSignin: true, catalogueFile: file }, now: SEED_NOW });
    try {
      const s = await seedPlayer(t, {
        name: "Evil_Player",
        findable: true,
        share: true,
        cuteName: '<b onmouseover="x">Apple',
      });
      const { envelope } = await import("../support/uploads.ts");
      const res = await s.player.send(
        envelope(t, {
          profile: { id: PROFILE, cuteName: '<b onmouseover="x">Apple' },
          counters: [
            { profileId: PROFILE, scope: "day", day: MINING_DAYS[0]!, rows: [{ k: "mining.evil.total", v: 1 }] },
          ],
        }),
      );
      expect(res.status).toBe(200);
      const stored = await t.database.db.execute(sql`select cute_name from stat_profiles`);
      expect(JSON.stringify(stored)).toContain("<b onmouseover");
      for (const path of ["/u/Evil_Player", `/s/${s.shareKey}`]) {
        const html = await (await t.request(path)).text();
        expect(html).not.toContain("<script>alert");
        expect(html).not.toContain("<img src=x");
        expect(html).not.toContain("<b onmouseover");
        expect(html).toContain("&lt;script&gt;alert(&quot;label&quot;)&lt;/script&gt;");
        expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
        expect(html).toContain("Profile &lt;b onmouseover=&quot;x&quot;&gt;Apple");
      }
    } finally {
      await t.close();
    }
  });
});

describe("formatting", () => {
  test("units: ms as durations, coins and counts with separators, fixed point by scale", () => {
    expect(formatDuration(312_000)).toBe("5 min 12 s");
    expect(formatDuration(298_250)).toBe("4 min 58.250 s");
    expect(formatDuration(25 * 60_000)).toBe("25 min");
    expect(formatDuration(7_500_000)).toBe("2 h 5 min");
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000)).toBe("3 d 4 h");
    expect(formatDuration(250)).toBe("0.250 s");
    // How long a session lasted, to the second (issue 34).
    expect(formatLength(25 * 60_000 + 42_444)).toBe("25 min 42 s");
    expect(formatLength(25 * 60_000 + 59_600)).toBe("26 min");
    expect(formatLength(7_500_000 + 499)).toBe("2 h 5 min");
    expect(formatNumber(1234567)).toBe("1,234,567");
    expect(formatNumber(-1234567)).toBe("-1,234,567");
    expect(formatNumber(12345, 100)).toBe("123.45");
    expect(formatValue(env.t.catalogue, "coins", 900000)).toBe("900,000 coins");
    expect(formatValue(env.t.catalogue, "count", 9040)).toBe("9,040");
    expect(formatValue(env.t.catalogue, "ms", 312000)).toBe("5 min 12 s");
    expect(formatDay("2026-05-09")).toBe("9 May 2026");
  });

  test("a lifetime figure always says where its number starts", () => {
    const baseline = { day: "2026-04-30" };
    const days = { first: "2026-05-12", last: "2026-05-26" };
    expect(sinceText("count", { value: 1, baseline, days })).toBe(
      "since 12 May 2026, including everything up to 30 April 2026",
    );
    expect(sinceText("count", { value: 1, baseline, days: null })).toBe("everything up to 30 April 2026");
    expect(sinceText("max", { value: 1, baseline: null, days })).toBe("since 12 May 2026");
    expect(sinceText("gauge", { value: 1, baseline, days })).toBe("as of 26 May 2026");
  });
});
