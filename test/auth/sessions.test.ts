// Device sessions: listed, signed out singly or everywhere; expired and signed-out tokens are
// refused at once; every signed-in route wants a valid token.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, loopbackFetch, type TestApp } from "../support/app.ts";
import { fakeIdentity } from "../support/fakes/identity.ts";
import { alice, bob, signIn } from "../support/players.ts";

const identity = fakeIdentity([alice, bob]);
let t: TestApp;
beforeAll(async () => {
  t = await testApp({
    fetch: loopbackFetch,
    settings: { identityUrl: identity.url, tokenTtlDays: 30, authRateLimit: 0 },
  });
});
afterAll(async () => {
  await t.close();
  identity.stop();
});

type Session = {
  id: string;
  device: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  current: boolean;
};
const get = (path: string, auth?: { authorization: string }) => t.request(path, { headers: auth });
const del = (path: string, auth?: { authorization: string }) => t.request(path, { method: "DELETE", headers: auth });
const sessionsOf = async (auth: { authorization: string }) =>
  ((await (await get("/v1/auth/sessions", auth)).json()) as { sessions: Session[] }).sessions;
const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe("the token check", () => {
  test.each([
    ["no Authorization header", undefined],
    ["another scheme", "Basic YWxpY2U6c2VjcmV0"],
    ["a token of the wrong shape", "Bearer not-a-token"],
    ["a well-formed token nobody was given", `Bearer ${"A".repeat(43)}`],
  ])("%s is refused 401 unauthorized with WWW-Authenticate", async (_what, header) => {
    const res = await t.request("/v1/auth/session", { headers: header ? { authorization: header } : {} });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="tally"');
    expect(await codeOf(res)).toBe("unauthorized");
  });

  test("comes before body validation: no token and a bad body is 401, not 400", async () => {
    const res = await t.request("/v1/stats/settings", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: '{"uuid":1}',
    });
    expect(res.status).toBe(401);
  });

  test.each([
    ["GET", "/v1/auth/session"],
    ["GET", "/v1/auth/sessions"],
    ["DELETE", "/v1/auth/sessions"],
    ["DELETE", "/v1/auth/sessions/0123456789abcdef01234567"],
    ["GET", "/v1/stats/settings"],
    ["PATCH", "/v1/stats/settings"],
    ["GET", "/v1/stats/me/status"],
    ["POST", "/v1/stats/me/page-token"],
    ["POST", "/v1/stats/share/rotate"],
    ["DELETE", "/v1/stats/share"],
  ])("%s %s wants a signed-in session", async (method, path) => {
    expect((await t.request(path, { method })).status).toBe(401);
  });

  test("the catalogue stays public: the mod needs it before sign-in", async () => {
    expect((await t.request("/v1/stats/catalogue")).status).toBe(200);
  });

  test("an expired token is refused at once", async () => {
    const s = await signIn(t, identity, alice);
    expect((await get("/v1/auth/session", s.auth)).status).toBe(200);
    t.clock.advance(30 * 24 * 3600 * 1000);
    expect((await get("/v1/auth/session", s.auth)).status).toBe(401);
  });
});

describe("device sessions", () => {
  test("the list shows every device with its label, and which one is asking", async () => {
    const phone = await signIn(t, identity, bob, {
      userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    });
    const mod = await signIn(t, identity, bob, { userAgent: "TallyMod/2.1.0 (Fabric; Minecraft 1.21.4)" });
    const list = await sessionsOf(mod.auth);
    const byId = new Map(list.map((s) => [s.id, s]));
    expect(byId.get(phone.sessionId)).toMatchObject({ device: "Firefox on Linux", current: false });
    expect(byId.get(mod.sessionId)).toMatchObject({
      device: "TallyMod/2.1.0 (Fabric; Minecraft 1.21.4)",
      current: true,
    });
    const current = (await (await get("/v1/auth/session", phone.auth)).json()) as { session: Session };
    expect(current.session).toMatchObject({ id: phone.sessionId, current: true });
  });

  test("last seen moves at most once per five minutes (no write on every request)", async () => {
    const s = await signIn(t, identity, alice);
    const signedInAt = t.clock.now();
    t.clock.advance(4 * 60 * 1000);
    await get("/v1/auth/session", s.auth);
    expect((await sessionsOf(s.auth)).find((x) => x.current)!.lastSeenAt).toBe(signedInAt);
    t.clock.advance(60 * 1000);
    await get("/v1/auth/session", s.auth);
    expect((await sessionsOf(s.auth)).find((x) => x.current)!.lastSeenAt).toBe(signedInAt + 5 * 60 * 1000);
  });

  test("signing one device out ends that token at once and leaves the others", async () => {
    const laptop = await signIn(t, identity, alice);
    const stolen = await signIn(t, identity, alice);
    const res = await del(`/v1/auth/sessions/${stolen.sessionId}`, laptop.auth);
    expect(await res.json()).toEqual({ signedOut: 1 });
    expect((await get("/v1/auth/session", stolen.auth)).status).toBe(401);
    expect((await get("/v1/auth/session", laptop.auth)).status).toBe(200);
    expect((await sessionsOf(laptop.auth)).map((s) => s.id)).not.toContain(stolen.sessionId);
  });

  test("another account's session id answers 404 and that session lives on", async () => {
    const a = await signIn(t, identity, alice);
    const b = await signIn(t, identity, bob);
    const res = await del(`/v1/auth/sessions/${b.sessionId}`, a.auth);
    expect(res.status).toBe(404);
    expect(await codeOf(res)).toBe("not_found");
    expect((await get("/v1/auth/session", b.auth)).status).toBe(200);
    expect((await del("/v1/auth/sessions/../settings", a.auth)).status).toBe(404);
  });

  test("signing out everywhere answers how many and ends every token of the account only", async () => {
    const b = await signIn(t, identity, bob);
    const others = await Promise.all([signIn(t, identity, alice), signIn(t, identity, alice)]);
    const count = (await sessionsOf(others[0].auth)).length;
    const res = await del("/v1/auth/sessions", others[0].auth);
    expect(await res.json()).toEqual({ signedOut: count });
    for (const o of others) expect((await get("/v1/auth/session", o.auth)).status).toBe(401);
    expect((await get("/v1/auth/session", b.auth)).status).toBe(200);
    const again = await signIn(t, identity, alice);
    expect(await (await del("/v1/auth/sessions", again.auth)).json()).toEqual({ signedOut: 1 });
  });
});
