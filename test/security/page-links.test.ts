// The page-link boundary (issue 22, finding 4: "page links never really end"). Found: the `?t=`
// link worked any number of times for its 10 minutes; the page cookie's value was accepted as a
// `?t=` link and minted a fresh cookie, so one cookie renewed itself for ever; signing out
// (DELETE /v1/auth/sessions) left both working. Each request that showed it is sent here again,
// with what it gets now: a link opens the page once; the cookie is its own kind of credential with
// an absolute end; signing a session out ends what it minted, signing out everywhere and erasure end all.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import { rows } from "../../src/db/database.ts";

const LINK_TTL_MS = 600_000;
const COOKIE_TTL_MS = 3_600_000;

let t: TestApp;
beforeAll(async () => {
  t = await testApp({
    settings: { devSignin: true, authRateLimit: 0, pageTokenTtlMs: LINK_TTL_MS, pageCookieTtlMs: COOKIE_TTL_MS },
  });
});
afterAll(() => t.close());

type Session = { sessionId: string; auth: { authorization: string } };

/** Signs the player in once more: a new device session of the same account. */
async function signIn(p: { uuid: string; name: string }): Promise<Session> {
  const body = (await (await t.postJson("/v1/auth/dev", { ...p, zone: "Europe/Berlin" })).json()) as {
    token: string;
    sessionId: string;
  };
  return { sessionId: body.sessionId, auth: { authorization: `Bearer ${body.token}` } };
}

/** A page link as the mod gets it, as a path with its query. */
async function link(s: Session): Promise<string> {
  const res = await t.request("/v1/stats/me/page-token", { method: "POST", headers: s.auth });
  expect(res.status).toBe(200);
  const url = new URL(((await res.json()) as { url: string }).url);
  return url.pathname + url.search;
}

const get = (path: string, cookie?: string) => t.request(path, { headers: cookie ? { cookie } : {} });

/** Opens a link; answers the cookie it set (`tally_page=<value>`), or undefined. */
async function open(path: string): Promise<{ status: number; cookie: string | undefined }> {
  const res = await get(path);
  return { status: res.status, cookie: res.headers.get("set-cookie")?.split(";")[0] };
}

const pageStatus = async (name: string, cookie: string) => (await get(`/u/${name}`, cookie)).status;

let n = 0;
/** A player whose page is not findable: only their own link or cookie opens it. */
function player() {
  n++;
  return { uuid: `${n.toString(16).padStart(8, "0")}${"c".repeat(24)}`, name: `Hidden_${n}` };
}

describe("page links (issue 22, finding 4)", () => {
  test("a link opens the page once: the second use answers 404 and sets no cookie", async () => {
    const p = player();
    const s = await signIn(p);
    const path = await link(s);
    const first = await open(path);
    expect(first.status).toBe(303);
    expect(first.cookie).toMatch(/^tally_page=[A-Za-z0-9_-]{43}$/);
    expect(await pageStatus(p.name, first.cookie!)).toBe(200);
    // Found: the same link answered 303 with a fresh cookie any number of times for 10 minutes.
    for (let i = 0; i < 3; i++) expect(await open(path)).toEqual({ status: 404, cookie: undefined });
  });

  test("a link also opens nothing once its 10 minutes are over", async () => {
    const p = player();
    const path = await link(await signIn(p));
    t.clock.advance(LINK_TTL_MS);
    try {
      expect(await open(path)).toEqual({ status: 404, cookie: undefined });
    } finally {
      t.clock.advance(-LINK_TTL_MS);
    }
  });

  test("the cookie is never taken as a link: its value as ?t= answers 404, sets no cookie, and the cookie keeps its end", async () => {
    const p = player();
    const { cookie } = await open(await link(await signIn(p)));
    const value = cookie!.slice("tally_page=".length);
    // Found: /u/<name>?t=<cookie value> answered 303 with a new cookie, so a cookie renewed itself for ever.
    expect(await open(`/u/${p.name}?t=${value}`)).toEqual({ status: 404, cookie: undefined });
    expect(await pageStatus(p.name, cookie!)).toBe(200);
  });

  test("the cookie ends at a fixed time after the link was opened, however often it is used", async () => {
    const p = player();
    const { cookie } = await open(await link(await signIn(p)));
    let moved = 0;
    try {
      for (const step of [COOKIE_TTL_MS / 4, COOKIE_TTL_MS / 4, COOKIE_TTL_MS / 4, COOKIE_TTL_MS / 4 - 1]) {
        t.clock.advance(step);
        moved += step;
        expect(await pageStatus(p.name, cookie!)).toBe(200);
      }
      t.clock.advance(1);
      moved += 1;
      expect(await pageStatus(p.name, cookie!)).toBe(404);
    } finally {
      t.clock.advance(-moved);
    }
  });

  test("signing one session out ends the cookies and unspent links it asked for; the other session's stay", async () => {
    const p = player();
    const phone = await signIn(p);
    const laptop = await signIn(p);
    const phoneCookie = (await open(await link(phone))).cookie!;
    const phoneLink = await link(phone);
    const laptopCookie = (await open(await link(laptop))).cookie!;
    expect(await pageStatus(p.name, phoneCookie)).toBe(200);

    const res = await t.request(`/v1/auth/sessions/${phone.sessionId}`, { method: "DELETE", headers: laptop.auth });
    expect(await res.json()).toEqual({ signedOut: 1 });
    expect(await pageStatus(p.name, phoneCookie)).toBe(404);
    expect(await open(phoneLink)).toEqual({ status: 404, cookie: undefined });
    expect(await pageStatus(p.name, laptopCookie)).toBe(200);
  });

  test("signing out everywhere ends every page cookie and link of the account", async () => {
    const p = player();
    const phone = await signIn(p);
    const laptop = await signIn(p);
    const phoneCookie = (await open(await link(phone))).cookie!;
    const laptopCookie = (await open(await link(laptop))).cookie!;
    const unspent = await link(laptop);

    // Found: DELETE /v1/auth/sessions answered { signedOut: 2 } and the cookie and link still opened the page.
    const res = await t.request("/v1/auth/sessions", { method: "DELETE", headers: laptop.auth });
    expect(await res.json()).toEqual({ signedOut: 2 });
    expect(await pageStatus(p.name, phoneCookie)).toBe(404);
    expect(await pageStatus(p.name, laptopCookie)).toBe(404);
    expect(await open(unspent)).toEqual({ status: 404, cookie: undefined });
  });

  test("erasing the account ends its page cookies and links, counted in the answer", async () => {
    const p = player();
    const s = await signIn(p);
    const cookie = (await open(await link(s))).cookie!;
    await link(s);
    const res = await t.request("/v1/stats/account", { method: "DELETE", headers: s.auth });
    expect(((await res.json()) as { removed: { pageTokens: number } }).removed.pageTokens).toBe(2);
    expect(await pageStatus(p.name, cookie)).toBe(404);
    const [left] = await rows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from page_tokens where uuid = ${p.uuid}`,
    );
    expect(left!.n).toBe(0);
  });

  test("two requests racing with one link: exactly one gets a cookie", async () => {
    const p = player();
    const path = await link(await signIn(p));
    const answers = await Promise.all([open(path), open(path), open(path)]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 404, 404]);
    expect(answers.filter((a) => a.cookie).length).toBe(1);
  });
});
