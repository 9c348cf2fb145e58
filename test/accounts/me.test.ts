// What the mod's status screen shows, the link to the player's own page, and the share link.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, loopbackFetch, type TestApp } from "../support/app.ts";
import { fakeIdentity } from "../support/fakes/identity.ts";
import { alice, bob, signIn, type SignedIn } from "../support/players.ts";
import { accountByShareKey, takePageLink } from "../../src/accounts/accounts.query.ts";

const identity = fakeIdentity([alice, bob]);
let t: TestApp;
let a: SignedIn;
beforeAll(async () => {
  t = await testApp({
    fetch: loopbackFetch,
    settings: {
      identityUrl: identity.url,
      baseUrl: "https://stats.example.org/",
      pageTokenTtlMs: 600_000,
      authRateLimit: 0,
    },
  });
  a = await signIn(t, identity, alice);
});
afterAll(async () => {
  await t.close();
  identity.stop();
});

type Status = {
  consented: string[];
  pageUrl: string | null;
  shareUrl: string | null;
  warnings: { code: string }[];
  lastUploadAt: number | null;
  catalogueVersion: number;
  settingsVersion: number;
};
const status = async (s: SignedIn) =>
  (await (await t.request("/v1/stats/me/status", { headers: s.auth })).json()) as Status;
const post = (path: string, s: SignedIn) => t.postJson(path, {}, { headers: s.auth });
const patch = (s: SignedIn, body: Record<string, unknown>) =>
  t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...s.auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("GET /v1/stats/me/status", () => {
  test("a new account: nothing consented (said as a warning), no page, no share link, no upload yet", async () => {
    expect(await status(a)).toMatchObject({
      uuid: alice.uuid,
      name: alice.name,
      consented: [],
      pageUrl: null,
      shareUrl: null,
      lastUploadAt: null,
      catalogueVersion: t.catalogue.version,
      warnings: [{ code: "nothing_consented", message: expect.any(String) }],
    });
  });

  test("follows the settings: consented categories, and the findable page under BASE_URL", async () => {
    const s = await signIn(t, identity, bob);
    await patch(s, { settingsVersion: 1, categories: { gathering: true }, findable: true });
    expect(await status(s)).toMatchObject({
      consented: ["gathering"],
      warnings: [],
      pageUrl: "https://stats.example.org/u/bob",
      settingsVersion: 2,
    });
  });
});

describe("POST /v1/stats/share/rotate and DELETE /v1/stats/share", () => {
  test("creates a share link under BASE_URL; rotating replaces it and the old key stops working at once", async () => {
    const first = (await (await post("/v1/stats/share/rotate", a)).json()) as { shareUrl: string; createdAt: number };
    expect(first.shareUrl).toMatch(/^https:\/\/stats\.example\.org\/s\/[A-Za-z0-9_-]{32}$/);
    expect(first.createdAt).toBe(t.clock.now());
    const firstKey = first.shareUrl.split("/s/")[1]!;
    expect((await accountByShareKey(t.db, firstKey))?.uuid).toBe(alice.uuid);
    const second = (await (await post("/v1/stats/share/rotate", a)).json()) as { shareUrl: string };
    expect(second.shareUrl).not.toBe(first.shareUrl);
    expect(await accountByShareKey(t.db, firstKey)).toBeUndefined();
    expect((await status(a)).shareUrl).toBe(second.shareUrl);
  });

  test("stopping sharing ends the link", async () => {
    const link = ((await (await post("/v1/stats/share/rotate", a)).json()) as { shareUrl: string }).shareUrl;
    const res = await t.request("/v1/stats/share", { method: "DELETE", headers: a.auth });
    expect(await res.json()).toEqual({ shareUrl: null, createdAt: null });
    expect(await accountByShareKey(t.db, link.split("/s/")[1]!)).toBeUndefined();
    expect((await status(a)).shareUrl).toBeNull();
  });
});

describe("POST /v1/stats/me/page-token", () => {
  test("answers the full page URL with a short-lived token that opens this account's page once, until it expires", async () => {
    const link = async () => {
      const body = (await (await post("/v1/stats/me/page-token", a)).json()) as { url: string; expiresAt: number };
      expect(body.expiresAt).toBe(t.clock.now() + 600_000);
      const url = new URL(body.url);
      expect(`${url.origin}${url.pathname}`).toBe(`https://stats.example.org/u/${alice.name}`);
      return url.searchParams.get("t")!;
    };
    const token = await link();
    expect(await takePageLink(t.db, token + "x", t.clock.now(), alice.name)).toBeUndefined();
    expect((await takePageLink(t.db, token, t.clock.now(), alice.name))?.account.uuid).toBe(alice.uuid);
    expect(await takePageLink(t.db, token, t.clock.now(), alice.name)).toBeUndefined();
    const later = await link();
    t.clock.advance(600_000);
    expect(await takePageLink(t.db, later, t.clock.now(), alice.name)).toBeUndefined();
  });
});
