// Finding a figure on a statistics page (issue 34): a section per group with its count, a search
// and an order that work without script (a GET form whose answer is an address to keep), list pages
// that link back to the place they came from, and a page that weighs what its first screen shows.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, type Uploader } from "../support/uploads.ts";
import type { CounterBlock } from "../../src/wire/envelope.ts";
import { addDays } from "../../src/wire/day.ts";

setDefaultTimeout(60_000);

// A Wednesday: this week so far is Monday to Wednesday, against last week's Monday to Wednesday.
const NOW = "2026-06-10T12:00:00Z";
const THIS_WEEK = ["2026-06-08", "2026-06-10"];
const LAST_WEEK = ["2026-06-01", "2026-06-03"];
// Lifetime: beta 210, alpha 60, gamma 6. This week against last: alpha +40, beta +10, gamma -4.
const FIGURES = [
  { k: "mining.find.alpha", last: 10, now: 50 },
  { k: "mining.find.beta", last: 100, now: 110 },
  { k: "fishing.find.gamma", last: 5, now: 1 },
];

let t: TestApp;
let p: Uploader;
beforeAll(async () => {
  t = await testApp({ now: NOW, settings: { devSignin: true, pageRateLimit: 0 } });
  p = await uploader(t, { name: "Finder", zone: "UTC" });
  const res = await t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...p.auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: 2, findable: true }),
  });
  expect(res.status).toBe(200);
  // Each week's amount split over its two days.
  const blocks: CounterBlock[] = [LAST_WEEK, THIS_WEEK].flatMap((days, w) =>
    days.map((day, i) => ({
      profileId: PROFILE,
      scope: "day" as const,
      day,
      rows: FIGURES.map((f) => {
        const total = w === 0 ? f.last : f.now;
        return { k: f.k, v: i === 0 ? Math.floor(total / 2) : total - Math.floor(total / 2) };
      }),
    })),
  );
  expect((await p.send(envelope(t, { zone: { id: "UTC" }, counters: blocks }))).status).toBe(200);
});
afterAll(() => t.close());

const page = async (path: string) => {
  const res = await t.request(path);
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res.text();
};
/** The figures a list shows, in its order. */
const listed = (html: string) => [...html.matchAll(/<tr data-key="([^"]+)"/g)].map((m) => m[1]);

describe("finding a figure", () => {
  test("the statistics page: a section per group with its count, and a GET form to search and order", async () => {
    const html = await page("/u/Finder");
    expect(html).toMatch(/<h3 id="p-mining">[^<]*<span class="count">2 figures<\/span><\/h3>/);
    expect(html).toMatch(/<h3 id="p-fishing">[^<]*<span class="count">1 figure<\/span><\/h3>/);
    // The groups' index links to the sections by anchor.
    expect(html).toContain('<a href="#p-mining">');
    const form = /<form method="get" action="\/u\/Finder#list" class="find">([\s\S]*?)<\/form>/.exec(html);
    expect(form).not.toBeNull();
    for (const name of ["q", "scope", "sort"]) expect(form![1]).toContain(`name="${name}"`);
  });

  test("a search finds figures by name, key or group across groups; sorted by name, largest or change", async () => {
    expect(listed(await page("/u/Finder?q=alp&scope=p&sort=name"))).toEqual(["mining.find.alpha"]);
    // Every word must match; a group's name matches its figures.
    expect(listed(await page("/u/Finder?q=mining+find&scope=p&sort=name"))).toEqual([
      "mining.find.alpha",
      "mining.find.beta",
    ]);
    const all = "/u/Finder?q=find&scope=p";
    // By name: a label keeps its key's namespace ("Fishing ..." before "Mining ...").
    expect(listed(await page(`${all}&sort=name`))).toEqual([
      "fishing.find.gamma",
      "mining.find.alpha",
      "mining.find.beta",
    ]);
    expect(listed(await page(`${all}&sort=value`))).toEqual([
      "mining.find.beta",
      "mining.find.alpha",
      "fishing.find.gamma",
    ]);
    const byChange = await page(`${all}&sort=change`);
    expect(listed(byChange)).toEqual(["mining.find.alpha", "mining.find.beta", "fishing.find.gamma"]);
    // Like with like: this Monday to Wednesday against last week's.
    expect(byChange).toContain("+40");
    // The answer keeps the words asked for in its form.
    expect(byChange).toContain('name="q" value="find"');
    // Nothing found says so.
    expect(await page("/u/Finder?q=nothing+like+it&scope=p")).toContain("No figure matches.");
  });

  test("the search's words are normalised: the same list, the same kept copy", async () => {
    const a = await page("/u/Finder?q=ALP&scope=p&sort=name");
    expect(await page("/u/Finder?q=%20alp%20%20&scope=p&sort=name&junk=1")).toBe(a);
    expect(await page("/u/Finder?q=alp&scope=p&sort=sideways")).toBe(a);
  });

  test("a group's list links back to its section; the statistics page's sections link to their list", async () => {
    const html = await page("/u/Finder");
    const link = /href="(\/u\/Finder\?[^"#]*group=mining[^"#]*)#list"/.exec(html)![1]!.replaceAll("&amp;", "&");
    const list = await page(link);
    expect(listed(list)).toEqual(["mining.find.alpha", "mining.find.beta"]);
    expect(list).toContain('<a href="/u/Finder#p-mining">Back to the statistics page</a>');
    expect(list).toContain('id="list"');
    // A search's list goes back to the search form.
    expect(await page("/u/Finder?q=find&scope=p")).toContain('<a href="/u/Finder#find-h">');
    // The period's tabs keep the reader at the period, the range's at the rates.
    const periods = /<nav aria-label="Period">([\s\S]*?)<\/nav>/.exec(html)![1]!;
    const tabs = [...periods.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    expect(tabs.length).toBe(4);
    for (const tab of tabs) expect(tab).toMatch(/^\/u\/Finder(\?[^#]*)?#periods-h$/);
  });
});

describe("the statistics page's weight", () => {
  test("300 figures: under 120 KB of HTML (the first screen and each group's five largest)", async () => {
    const big = await testApp({ now: NOW, database: t.database, settings: { devSignin: true, pageRateLimit: 0 } });
    try {
      const q = await uploader(big, { name: "Weighty", zone: "UTC" });
      await big.request("/v1/stats/settings", {
        method: "PATCH",
        headers: { ...q.auth, "content-type": "application/json" },
        body: JSON.stringify({ settingsVersion: 2, findable: true }),
      });
      const groups = ["mining", "farming", "fishing", "foraging", "kills", "loot"];
      const keys = Array.from({ length: 300 }, (_, i) => `${groups[i % groups.length]}.weight.figure_${i}`);
      const days = Array.from({ length: 30 }, (_, d) => addDays("2026-06-10", -d));
      const counters: CounterBlock[] = days.map((day, d) => ({
        profileId: PROFILE,
        scope: "day",
        day,
        rows: keys.map((k, i) => ({ k, v: i * 7 + d })),
      }));
      const sent = await q.send(envelope(big, { zone: { id: "UTC" }, counters }));
      expect({ status: sent.status, body: sent.status === 200 ? "" : await sent.text() }).toEqual({
        status: 200,
        body: "",
      });
      const res = await big.request("/u/Weighty");
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(new TextEncoder().encode(html).length).toBeLessThan(120_000);
    } finally {
      await big.close();
    }
  });
});
