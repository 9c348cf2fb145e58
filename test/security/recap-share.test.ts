// A shared recap names nobody (issue 35, like share-names-nobody.test.ts for /s/ pages): its page,
// every address it refers to and its card hold no 32-hex id and not the owner's name; the link is
// the only way in, and it answers 404 once revoked.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { pageLink } from "../web/seed.ts";
import { seedRecapPlayer } from "../recaps/seed-recap.ts";

const HEX32 = /[0-9a-f]{32}/i;
const NAME = "Owner_Recaps";
let t: TestApp;
const links: string[] = [];

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true } });
  const owner = await seedRecapPlayer(t, NAME, { year: true });
  const cookie = (await t.request(await pageLink(t, owner))).headers.get("set-cookie")!.split(";")[0]!;
  for (const period of ["2026-10", "2026"]) {
    await t.request(`/u/${NAME}/recap/${period}/share`, {
      method: "POST",
      headers: { cookie, origin: t.config.baseUrl },
    });
    const html = await (await t.request(`/u/${NAME}/recap/${period}`, { headers: { cookie } })).text();
    links.push(html.match(/href="(\/r\/[A-Za-z0-9_-]{32})"/)![1]!);
  }
});
afterAll(() => t.close());

describe("a shared recap", () => {
  test("names nobody: no 32-hex id and not the owner's name in its page, its addresses or its tags", async () => {
    expect(links).toHaveLength(2);
    for (const link of links) {
      const key = link.slice(3);
      const html = await (await t.request(link)).text();
      const text = html.replaceAll(key, "");
      expect({ link, hex: text.match(HEX32)?.[0] ?? null }).toEqual({ link, hex: null });
      expect(text.toLowerCase().includes(NAME.toLowerCase())).toBe(false);
      expect(text).not.toContain("/u/");
      const addresses = [...html.matchAll(/\b(?:href|src|content|action)="([^"]*)"/g)].map((m) => m[1]!);
      for (const a of addresses) expect(HEX32.test(a.replace(key, ""))).toBe(false);
      expect((await t.request(`${link}/card.png`)).headers.get("content-type")).toBe("image/png");
    }
  });

  test("keys are unguessable and distinct per recap; an unknown key answers like any missing page", async () => {
    const [a, b] = links.map((l) => l.slice(3));
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const missing = await t.request(`/r/${"x".repeat(32)}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).toBe("no-store");
  });
});
