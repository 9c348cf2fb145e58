// The preview cards and badges are a new boundary: text from the catalogue (a CATALOGUE_FILE may
// carry any label), key segments and names goes into SVG, and anyone may ask for any address.
// Hostile labels stay text (escaped, cut to a bound, in linear time); a hostile address is a 404
// before any database read or render; and the card routes have their own rate limit.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(60_000);
import { badgeSvg } from "../../src/cards/badge.ts";
import { cardSvg, xmlRefuses } from "../../src/cards/card-svg.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { hostile } from "./hostile-text.ts";
import { defaultHead } from "../../src/assets/head.ts";

const nasty = [
  '"><script>alert(1)</script>',
  "]]><svg onload=alert(1)>",
  "&lt;&#x3c;&amp;",
  "<image href='http://evil.example/x.png'/>",
  "\u202e\u0000\uffff",
];

test("hostile labels and values stay text in a badge and a card, cut to a bound", () => {
  for (const s of [...nasty, ...hostile.map(([, h]) => h)]) {
    const badge = badgeSvg(s, s);
    const card = cardSvg({ name: s, subtitle: s, head: null, figures: [{ label: s, value: s }], spark: null });
    for (const svg of [badge, card]) {
      expect(svg).not.toMatch(/<script|<image href='http|<!\[CDATA/);
      // Nothing XML refuses (a NUL would make the picture unreadable).
      expect([...svg].filter((c) => xmlRefuses(c.codePointAt(0)!))).toEqual([]);
      // Every "<" opens one of the elements we write.
      for (const m of svg.matchAll(/<\/?([a-zA-Z]+)/g))
        expect([
          "svg",
          "title",
          "style",
          "clipPath",
          "rect",
          "g",
          "text",
          "line",
          "polyline",
          "circle",
          "image",
        ]).toContain(m[1]!);
    }
    expect(badge.length).toBeLessThan(2_000);
    expect(card.length).toBeLessThan(6_000);
  }
});

test("a card's only picture is the head handed to it, inline: the renderer is given no address to fetch", () => {
  const head = defaultHead();
  const svg = cardSvg({ name: "Steve", subtitle: "x", head, figures: [], spark: null });
  const refs = [...svg.matchAll(/\b(?:href|src|xlink:href)="([^"]*)"/g)].map((m) => m[1]!);
  expect(refs).toEqual([`data:image/png;base64,${Buffer.from(head).toString("base64")}`]);
  expect(svg).not.toMatch(/url\((?!#)|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg")/);
});

// Linear, not fast: the quadratic cut this guards against took minutes on 32 KiB, so a bound of
// seconds tells them apart on a loaded machine too (it read 580 ms against 500 with two suites
// running side by side).
const LINEAR_BOUND_MS = 5_000;

test("32 KiB of hostile text is escaped and cut in linear time", () => {
  for (const [name, h] of hostile) {
    const t0 = performance.now();
    for (let i = 0; i < 10; i++) badgeSvg(h, h);
    expect(performance.now() - t0, name).toBeLessThan(LINEAR_BOUND_MS);
    // The card fits each text to its box (measured, shrunk, cut): one pass, not a measure per character.
    const t1 = performance.now();
    for (let i = 0; i < 10; i++)
      cardSvg({ name: h, subtitle: h, head: null, figures: [{ label: h, value: h }], spark: null });
    expect(performance.now() - t1, name).toBeLessThan(LINEAR_BOUND_MS);
  }
});

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ settings: { cardRateLimit: 3 } });
}, 60_000);
afterAll(() => t.close());

test("hostile addresses are a 404 page, and the card routes have their own rate limit", async () => {
  const paths = [
    `/u/${"a".repeat(64)}/card.png`,
    "/u/a%2F..%2F..%2Fetc/card.png",
    `/u/Steve/badge/${"x.".repeat(60)}svg`,
    "/u/Steve/badge/%3Cscript%3E.svg",
  ];
  for (const path of paths) {
    const res = await t.request(path, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect([404, 429]).toContain(res.status);
    expect(res.headers.get("content-type")).toStartWith("text/html");
  }
  // Three a minute for this address here: the fourth and later are refused 429 with Retry-After.
  const res = await t.request("/s/aaaaaaaaaaaaaaaaaaaa/card.png");
  expect(res.status).toBe(429);
  expect(res.headers.get("retry-after")).not.toBeNull();
  expect(res.headers.get("content-type")).toStartWith("text/html");
});
