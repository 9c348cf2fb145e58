// Recap pages (issue 35): private by default (a stranger, or another player's page cookie, gets
// the page that does not exist), shared only by the owner's own form (the Origin must be this
// service's), a shared link and its card name nobody, and revoking the link ends it at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { uploader } from "../support/uploads.ts";
import { pageLink } from "../web/seed.ts";
import { seedRecapPlayer } from "./seed-recap.ts";

const HEX32 = /[0-9a-f]{32}/i;
const NAME = "Recap_Owner";
let t: TestApp;
let ownerCookie: string;
let otherCookie: string;
let ownerUuid: string;
let ownerAuth: { authorization: string };

async function cookieFor(path: string): Promise<string> {
  const res = await t.request(path);
  expect(res.status).toBe(303);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true } });
  const owner = await seedRecapPlayer(t, NAME);
  ownerUuid = owner.uuid;
  ownerAuth = owner.auth;
  ownerCookie = await cookieFor(await pageLink(t, owner));
  const other = await uploader(t, { name: "Someone_Else" });
  otherCookie = await cookieFor(await pageLink(t, other));
});
afterAll(() => t.close());

const get = (path: string, cookie?: string) => t.request(path, { headers: cookie ? { cookie } : {} });
const post = (path: string, cookie: string, origin: string | null) =>
  t.request(path, { method: "POST", headers: { cookie, ...(origin ? { origin } : {}) } });

describe("a recap not shared", () => {
  test("is the owner's: 200 with its figures in words, private and never cached", async () => {
    const res = await get(`/u/${NAME}/recap/2026-10`, ownerCookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const html = await res.text();
    expect(html).toContain("October 2026 in review");
    expect(html).toContain("Active days");
    expect(html).toContain("Enchanted Gold");
    expect(html).toContain("Share this recap");
    const own = await (await get(`/u/${NAME}`, ownerCookie)).text();
    expect(own).toContain(`href="/u/${NAME}/recap"`);
    const list = await (await get(`/u/${NAME}/recap`, ownerCookie)).text();
    expect(list).toContain(`/u/${NAME}/recap/2026-10`);
  });

  test("is 404 to a stranger and to another player's page cookie, like a page nobody holds", async () => {
    const nobody = await (await get("/u/Nobody_Here/recap/2026-10")).text();
    for (const cookie of [undefined, otherCookie]) {
      for (const path of [`/u/${NAME}/recap/2026-10`, `/u/${NAME}/recap`]) {
        const res = await get(path, cookie);
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(await res.text()).toBe(nobody);
      }
      const share = await post(`/u/${NAME}/recap/2026-10/share`, cookie ?? "", t.config.baseUrl);
      expect(share.status).toBe(404);
    }
  });

  test("the open month is not shown: its page says when its recap is made", async () => {
    const res = await get(`/u/${NAME}/recap/2026-11`, ownerCookie);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("2 December 2026");
    expect((await get(`/u/${NAME}/recap/2026-13`, ownerCookie)).status).toBe(404);
  });
});

describe("sharing", () => {
  let link: string;
  test("refuses a form from another origin, or one without an Origin", async () => {
    expect((await post(`/u/${NAME}/recap/2026-10/share`, ownerCookie, "https://evil.example")).status).toBe(403);
    expect((await post(`/u/${NAME}/recap/2026-10/share`, ownerCookie, null)).status).toBe(403);
    const html = await (await get(`/u/${NAME}/recap/2026-10`, ownerCookie)).text();
    expect(html).not.toContain("/r/");
  });

  test("the owner's form makes a link of its own; it and its card name nobody", async () => {
    const res = await post(`/u/${NAME}/recap/2026-10/share`, ownerCookie, t.config.baseUrl);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/u/${NAME}/recap/2026-10`);
    const html = await (await get(`/u/${NAME}/recap/2026-10`, ownerCookie)).text();
    link = html.match(/href="(\/r\/[A-Za-z0-9_-]{32})"/)![1]!;
    const page = await get(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("x-robots-tag")).toBe("noindex");
    const text = await page.text();
    const key = link.slice(3);
    expect(text).toContain("October 2026 in review");
    expect(text.replaceAll(key, "").match(HEX32)).toBeNull();
    expect(text.toLowerCase()).not.toContain(NAME.toLowerCase());
    expect(text).not.toContain(ownerUuid);
    expect(text).toContain(`${t.config.baseUrl}${link}/card.png`);
    expect(text).not.toContain("Share this recap");
    const card = await get(`${link}/card.png`);
    expect(card.status).toBe(200);
    expect(card.headers.get("content-type")).toBe("image/png");
    const png = new Uint8Array(await card.arrayBuffer());
    expect([...png.slice(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
    await Bun.write(`${import.meta.dir}/../artifacts/recap-card.png`, png);
  });

  test("stopping sharing ends the link and its card at once; a guessed key is 404", async () => {
    expect((await post(`/u/${NAME}/recap/2026-10/unshare`, ownerCookie, t.config.baseUrl)).status).toBe(303);
    expect((await get(link)).status).toBe(404);
    expect((await get(`${link}/card.png`)).status).toBe(404);
    expect((await get(`/r/${"A".repeat(32)}`)).status).toBe(404);
    expect((await get("/r/short")).status).toBe(404);
  });
});

describe("the recaps API (a device session)", () => {
  test("lists the stored recaps, shares one under its own link and stops sharing it", async () => {
    const list = (await (await t.request("/v1/stats/recaps", { headers: ownerAuth })).json()) as {
      recaps: { period: string; shareUrl: string | null }[];
    };
    expect(list.recaps).toEqual([{ period: "2026-10", shareUrl: null }]);
    const shared = await t.request("/v1/stats/recaps/2026-10/share", { method: "POST", headers: ownerAuth });
    expect(shared.status).toBe(200);
    const { shareUrl } = (await shared.json()) as { shareUrl: string };
    expect(shareUrl).toMatch(/\/r\/[A-Za-z0-9_-]{32}$/);
    const path = new URL(shareUrl).pathname;
    expect((await get(path)).status).toBe(200);
    const after = (await (await t.request("/v1/stats/recaps", { headers: ownerAuth })).json()) as {
      recaps: { shareUrl: string | null }[];
    };
    expect(after.recaps[0]!.shareUrl).toBe(shareUrl);
    const stopped = await t.request("/v1/stats/recaps/2026-10/share", { method: "DELETE", headers: ownerAuth });
    expect(await stopped.json()).toEqual({ period: "2026-10", shareUrl: null });
    expect((await get(path)).status).toBe(404);
  });

  test("a period without a recap answers 404 not_found; no token, 401", async () => {
    const none = await t.request("/v1/stats/recaps/2026-11/share", { method: "POST", headers: ownerAuth });
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await t.request("/v1/stats/recaps/2026-13/share", { method: "POST", headers: ownerAuth })).status).toBe(
      404,
    );
    expect((await t.request("/v1/stats/recaps/2026-10/share", { method: "POST" })).status).toBe(401);
  });
});
