// The owner's page lists their tokens and revokes one with a form post; the post is refused unless
// it carries the page cookie, comes from this service's pages, and carries the form's field.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { uploader, type Uploader } from "../support/uploads.ts";
import { makeToken, type Made } from "./support.ts";

let t: TestApp;
let p: Uploader;
let cookie: string;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-06-01T12:00:00Z" });
  p = await uploader(t, { name: "PageOwner", zone: "UTC" });
  const { url } = (await (await t.request("/v1/stats/me/page-token", { method: "POST", headers: p.auth })).json()) as {
    url: string;
  };
  const link = await t.request(new URL(url).pathname + new URL(url).search);
  cookie = link.headers.get("set-cookie")!.split(";")[0]!;
});
afterAll(() => t.close());

const ownPage = async () => (await t.request("/u/PageOwner", { headers: { cookie } })).text();
const fieldOf = (html: string) => /name="csrf" value="([0-9a-f]{64})"/.exec(html)![1]!;
const revoke = (id: string, headers: Record<string, string>, body: string) =>
  t.request(`/u/PageOwner/tokens/${id}/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
const works = async (made: Made) => (await t.request("/v1/stats/profiles", { headers: made.auth })).status === 200;

describe("the owner's page", () => {
  test("lists each token's label (escaped), what it reads, when it was made, last used and ends; never the secret", async () => {
    const made = await makeToken(t, p.auth, { label: "<b>Overlay</b>", scopes: ["page:read"], expiresInDays: 30 });
    await t.request("/v1/stats/profiles", { headers: made.auth });
    const html = await ownPage();
    // Looked for piece by piece (a failure names the piece, not the whole page).
    const has = (text: string) => ({ text, found: html.includes(text) });
    for (const text of [
      "Tokens for your own tools",
      "&lt;b&gt;Overlay&lt;/b&gt;",
      "Can read what the statistics page shows",
      "<dt>Made</dt><dd>1 June 2026 at 12:00</dd>",
      "<dt>Last used</dt><dd>1 June 2026 at 12:00</dd>",
      "<dt>Ends</dt><dd>1 July 2026 at 12:00</dd>",
      `title="token ${made.id}"`,
    ])
      expect(has(text)).toEqual({ text, found: true });
    for (const text of ["<b>Overlay</b>", made.token]) expect(has(text)).toEqual({ text, found: false });
    await t.request(`/v1/stats/tokens/${made.id}`, { method: "DELETE", headers: p.auth });
  });

  test("a stranger's view of a findable page shows no tokens", async () => {
    await t.request("/v1/stats/settings", {
      method: "PATCH",
      headers: { ...p.auth, "content-type": "application/json" },
      body: JSON.stringify({ settingsVersion: 2, findable: true }),
    });
    const made = await makeToken(t, p.auth, { label: "Secret bot", scopes: ["stats:read"] });
    const stranger = await (await t.request("/u/PageOwner")).text();
    expect(stranger.includes("Secret bot") || stranger.includes("Tokens for your own tools")).toBe(false);
    await t.request(`/v1/stats/tokens/${made.id}`, { method: "DELETE", headers: p.auth });
  });
});

describe("revoking from the page", () => {
  test("the form revokes the token at once and sends the owner back to the list", async () => {
    const made = await makeToken(t, p.auth, { label: "Bot", scopes: ["stats:read"] });
    const csrf = fieldOf(await ownPage());
    const res = await revoke(made.id, { cookie, origin: "http://localhost" }, `csrf=${csrf}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/u/PageOwner#tokens");
    expect(await works(made)).toBe(false);
    expect((await ownPage()).includes("Bot</strong>")).toBe(false);
  });

  test.each([
    ["from another site", (c: string, f: string) => [{ cookie: c, origin: "https://evil.example" }, `csrf=${f}`]],
    [
      "with Origin: null from a cross-site frame",
      (c: string, f: string) => [{ cookie: c, origin: "null", "sec-fetch-site": "cross-site" }, `csrf=${f}`],
    ],
    [
      "without the page cookie (a SameSite=Lax cookie is not sent cross-site)",
      (_c: string, f: string) => [{ origin: "http://localhost" }, `csrf=${f}`],
    ],
    ["without the form's field", (c: string) => [{ cookie: c, origin: "http://localhost" }, ""]],
    [
      "with another cookie's field",
      (c: string) => [{ cookie: c, origin: "http://localhost" }, `csrf=${"0".repeat(64)}`],
    ],
  ] as const)("a post %s is refused 403 and the token keeps working", async (_what, build) => {
    const made = await makeToken(t, p.auth, { label: "Kept", scopes: ["stats:read"] });
    const [headers, body] = build(cookie, fieldOf(await ownPage())) as [Record<string, string>, string];
    const res = await revoke(made.id, headers, body);
    expect(res.status).toBe(403);
    expect(await works(made)).toBe(true);
    await t.request(`/v1/stats/tokens/${made.id}`, { method: "DELETE", headers: p.auth });
  });

  test("another account's page cookie cannot revoke this account's token", async () => {
    const other = await uploader(t, { name: "Neighbour", zone: "UTC" });
    const { url } = (await (
      await t.request("/v1/stats/me/page-token", { method: "POST", headers: other.auth })
    ).json()) as {
      url: string;
    };
    const otherCookie = (await t.request(new URL(url).pathname + new URL(url).search)).headers
      .get("set-cookie")!
      .split(";")[0]!;
    await makeToken(t, other.auth, { label: "Theirs", scopes: ["export"] });
    const otherField = fieldOf(await (await t.request("/u/Neighbour", { headers: { cookie: otherCookie } })).text());
    const made = await makeToken(t, p.auth, { label: "Mine", scopes: ["stats:read"] });
    for (const path of [`/u/PageOwner/tokens/${made.id}/revoke`, `/u/Neighbour/tokens/${made.id}/revoke`]) {
      const res = await t.request(path, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: otherCookie,
          origin: "http://localhost",
        },
        body: `csrf=${otherField}`,
      });
      expect(res.status === 404 || res.status === 303).toBe(true);
    }
    expect(await works(made)).toBe(true);
  });
});

test("the players' page on tokens is served at /docs/tokens and linked from the docs index and the owner's list", async () => {
  const res = await t.request("/docs/tokens");
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html.includes("<h1>Tokens for your own tools</h1>")).toBe(true);
  expect(html.includes("RateLimit-Remaining")).toBe(true);
  expect((await (await t.request("/docs/")).text()).includes('href="/docs/tokens"')).toBe(true);
  expect((await ownPage()).includes('href="/docs/tokens"')).toBe(true);
});

test("the API reference marks each route that takes an access token with its scopes", async () => {
  const html = await (await t.request("/docs/api")).text();
  const op = (path: string) =>
    html.slice(html.indexOf(`<code>${path}</code>`), html.indexOf("</h3>", html.indexOf(`<code>${path}</code>`)));
  expect(op("/v1/stats/days")).toContain("access token: stats:read");
  expect(op("/v1/stats/export.csv")).toContain("access token: export");
  expect(op("/v1/stats/ingest")).not.toContain("access token");
});
