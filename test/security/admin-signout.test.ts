// Boundary: the maintainers' page's session (issue 40, finding 3). The cookie was stateless (an
// expiry signed with ADMIN_TOKEN), so signing out only asked the browser to forget it: a copy kept
// working for the rest of its 8 hours. Now each sign-in is a row, and signing out deletes it on the
// server: the old cookie is refused everywhere at once, on every instance.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { createApp } from "../../src/app.ts";
import { loadConfig, envFor } from "../../src/config.ts";

const ADMIN = "admin-signout-token-7a6b5c4d3e2f1a0b9c8d";

// One database for the file (a fresh one costs seconds); each test its own app (and clock) over it.
// Every test signs in sessions of its own, and ends only those.
let file: TestApp;
beforeAll(async () => {
  file = await testApp();
});
afterAll(() => file.close());
const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

type Handler = { handle(r: Request): Promise<Response> };

async function open() {
  const t = await testApp({ database: file.database, settings: { adminToken: ADMIN } });
  opened.push(t);
  return t;
}

const form = (path: string, body: Record<string, string>, cookie?: string) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(body).toString(),
  });

/** Signs in through the form: the cookie as a browser would send it back. */
async function signIn(app: Handler): Promise<string> {
  const res = await app.handle(form("/admin/login", { token: ADMIN }));
  expect(res.status).toBe(303);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

const list = (app: Handler, cookie: string) =>
  app.handle(new Request("http://localhost/admin/reports", { headers: { cookie } }));

/** The CSRF field of the signed-in page (the sign-out form carries it). */
async function csrfOf(app: Handler, cookie: string): Promise<string> {
  const html = await (await list(app, cookie)).text();
  return /name="csrf" value="([^"]+)"/.exec(html)![1]!;
}

test("after POST /admin/logout the old cookie is refused: pages send it to the sign-in form, forms answer 401", async () => {
  const t = await open();
  const cookie = await signIn(t.app);
  expect((await list(t.app, cookie)).status).toBe(200);
  const csrf = await csrfOf(t.app, cookie);
  const out = await t.app.handle(form("/admin/logout", { csrf }, cookie));
  expect(out.status).toBe(303);
  expect(out.headers.get("location")).toBe("/admin/login");
  expect(out.headers.get("set-cookie")).toContain("Max-Age=0");

  // Replaying the cookie (a copy, or a browser that ignored Max-Age=0):
  const again = await list(t.app, cookie);
  expect(again.status).toBe(303);
  expect(again.headers.get("location")).toBe("/admin/login");
  const detail = await t.app.handle(new Request("http://localhost/admin/reports/1", { headers: { cookie } }));
  expect(detail.status).toBe(303);
  expect((await t.app.handle(form("/admin/reports/1/mute", { csrf }, cookie))).status).toBe(401);
  expect((await t.app.handle(form("/admin/logout", { csrf }, cookie))).status).toBe(401);
  // The sign-in form is shown again rather than skipped.
  const login = await t.app.handle(new Request("http://localhost/admin/login", { headers: { cookie } }));
  expect(login.status).toBe(200);
});

test("signing out on one instance ends the session on every instance; another sign-in is not ended", async () => {
  const t = await open();
  const second = createApp({ ...t, fetch: t.fetch });
  const mine = await signIn(t.app);
  const colleague = await signIn(second);
  expect((await list(second, mine)).status).toBe(200);
  const csrf = await csrfOf(second, mine);
  expect((await second.handle(form("/admin/logout", { csrf }, mine))).status).toBe(303);
  expect((await list(t.app, mine)).status).toBe(303);
  expect((await list(t.app, colleague)).status).toBe(200);
  expect((await list(second, colleague)).status).toBe(200);
});

test("a session still ends after 8 hours, and a new ADMIN_TOKEN ends every session", async () => {
  const t = await open();
  const cookie = await signIn(t.app);
  t.clock.advance(8 * 3_600_000 - 1000);
  expect((await list(t.app, cookie)).status).toBe(200);
  t.clock.advance(1000);
  expect((await list(t.app, cookie)).status).toBe(303);

  const fresh = await signIn(t.app);
  const rotated = createApp({
    ...t,
    config: loadConfig(envFor({ databaseUrl: "", adminToken: "admin-signout-token-rotated-0000000000" })),
  });
  expect((await list(rotated, fresh)).status).toBe(303);
});

test("a forged cookie of the old stateless shape or of the token's shape is refused", async () => {
  const t = await open();
  await signIn(t.app);
  for (const value of [`${t.clock.now() + 3_600_000}.forged`, "A".repeat(43), "", "x".repeat(500)])
    expect((await list(t.app, `tally_admin=${value}`)).status).toBe(303);
});
