// Boundary: the maintainers' page's board exclusions (issue 35). Excluding a player takes them off
// every board, so the forms are held to every admin form's terms: without the admin session a post
// is refused 401 before its body is read; with it, a post without the page's CSRF field, or from
// another origin (an Origin header of another site, or Origin: null from a cross-site or same-site
// sibling page), is refused 403 csrf_failed; none of them changes anything. The page itself sends
// a signed-out visitor to the sign-in form, and without ADMIN_TOKEN it does not exist.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardJson, boardPlayer, upload } from "../boards/support.ts";

const ADMIN = "admin-boards-sec-token-9f8e7d6c5b4a39281706";

let t: TestApp;
let cookie: string;
let csrf: string;

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, adminToken: ADMIN }, now: "2026-11-18T12:00:00Z" });
  const p = await boardPlayer(t, "Kept_Kim", { findable: true });
  await upload(t, p, { "2026-11-18": { "kills.island.hub": 900 } });
  const login = await t.request("/admin/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: ADMIN }).toString(),
  });
  cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  const html = await (await t.request("/admin/boards", { headers: { cookie } })).text();
  csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
});
afterAll(() => t?.close());

const post = (path: string, headers: Record<string, string>, body: Record<string, string>) =>
  t.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(body).toString(),
  });
const stillRanked = async () =>
  expect((await boardJson(t, "/v1/boards/kills")).rows.map((r) => r.name)).toEqual(["Kept_Kim"]);

test("an unauthenticated post is refused 401 and excludes nobody", async () => {
  for (const path of ["/admin/boards/exclude", "/admin/boards/include"]) {
    // No cookie, a forged one, and the right CSRF field without its cookie.
    const asked: Record<string, string>[] = [{}, { cookie: "tally_admin=forged" }, { origin: t.config.baseUrl }];
    for (const headers of asked) {
      const res = await post(path, headers, { csrf, name: "Kept_Kim" });
      expect(res.status).toBe(401);
    }
  }
  await stillRanked();
});

test("a cross-origin post, or one without the page's CSRF field, is refused 403 csrf_failed and excludes nobody", async () => {
  const refused: { headers: Record<string, string>; body: Record<string, string> }[] = [
    { headers: { cookie, origin: "https://evil.example" }, body: { csrf, name: "Kept_Kim" } },
    { headers: { cookie, origin: "null", "sec-fetch-site": "cross-site" }, body: { csrf, name: "Kept_Kim" } },
    { headers: { cookie, origin: "null", "sec-fetch-site": "same-site" }, body: { csrf, name: "Kept_Kim" } },
    { headers: { cookie, origin: t.config.baseUrl }, body: { name: "Kept_Kim" } },
    { headers: { cookie, origin: t.config.baseUrl }, body: { csrf: "forged", name: "Kept_Kim" } },
  ];
  for (const r of refused) {
    const res = await post("/admin/boards/exclude", r.headers, r.body);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("this form did not come from the maintainers");
  }
  await stillRanked();
  // The same post from the page itself is taken.
  const ok = await post("/admin/boards/exclude", { cookie, origin: t.config.baseUrl }, { csrf, name: "Kept_Kim" });
  expect(ok.status).toBe(303);
  expect((await boardJson(t, "/v1/boards/kills")).total).toBe(0);
});

test("the page sends a signed-out visitor to sign in, is never kept, and is absent without ADMIN_TOKEN", async () => {
  const out = await t.request("/admin/boards");
  expect(out.status).toBe(303);
  expect(out.headers.get("location")).toBe("/admin/login");
  const page = await t.request("/admin/boards", { headers: { cookie } });
  expect(page.headers.get("cache-control")).toBe("no-store");
  expect(page.headers.get("x-robots-tag")).toBe("noindex");
  expect(page.headers.get("referrer-policy")).toBe("no-referrer");
  expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
  const bare = await testApp({ database: t.database, settings: { devSignin: true } });
  try {
    expect((await bare.request("/admin/boards")).status).toBe(404);
    const res = await bare.request("/admin/boards/exclude", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrf, name: "Kept_Kim" }).toString(),
    });
    expect(res.status).toBe(404);
  } finally {
    await bare.close();
  }
});
