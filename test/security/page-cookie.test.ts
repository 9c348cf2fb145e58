// Boundary: the page cookie in a browser that opens more than one page link (issue 40). A link is
// spent only at the page it belongs to, and its cookie is scoped to that page (`Path=/u/<name>`),
// so opening a friend's link, or `/u/<my name>?t=<someone else's link>`, never signs a player out
// of their own page. Before, `/u/<anything>?t=<any link>` spent the link and set its cookie for the
// whole of /u/, replacing the visitor's own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, authRateLimit: 0, pageRateLimit: 0 } });
});
afterAll(() => t.close());

/**
 * A browser's cookie jar as RFC 6265 keeps it: one cookie per name and path; a request carries
 * those whose path matches its own, the longest path first.
 */
function browser() {
  const jar = new Map<string, { name: string; path: string; value: string }>();
  const matches = (path: string, cookiePath: string) =>
    path === cookiePath ||
    (path.startsWith(cookiePath) && (cookiePath.endsWith("/") || path[cookiePath.length] === "/"));
  return {
    jar,
    async get(pathAndQuery: string) {
      const path = pathAndQuery.split("?")[0]!;
      const sent = [...jar.values()]
        .filter((c) => matches(path, c.path))
        .sort((a, b) => b.path.length - a.path.length)
        .map((c) => `${c.name}=${c.value}`)
        .join("; ");
      const res = await t.request(pathAndQuery, { headers: sent ? { cookie: sent } : {} });
      const set = res.headers.get("set-cookie");
      if (set) {
        const [pair, ...attrs] = set.split(";").map((s) => s.trim());
        const [name, value] = [pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1)];
        const path = attrs.find((a) => a.toLowerCase().startsWith("path="))?.slice(5) ?? "/";
        jar.set(`${name};${path}`, { name, path, value });
      }
      return res;
    },
  };
}

/** A signed-in player whose page is not findable, and a fresh page link of theirs (a path with ?t=). */
async function player(name: string) {
  const uuid = crypto.randomUUID().replaceAll("-", "");
  const { token } = (await (await t.postJson("/v1/auth/dev", { uuid, name, zone: "Europe/Berlin" })).json()) as {
    token: string;
  };
  const link = async () => {
    const res = await t.request("/v1/stats/me/page-token", {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    const url = new URL(((await res.json()) as { url: string }).url);
    return { path: url.pathname + url.search, token: url.searchParams.get("t")! };
  };
  return { name, link };
}

describe("the page cookie", () => {
  test("opening a friend's link keeps my own page open: each page has its own cookie", async () => {
    const me = await player("Cookie_Me");
    const friend = await player("Cookie_Friend");
    const b = browser();
    expect((await b.get((await me.link()).path)).status).toBe(303);
    expect((await b.get("/u/Cookie_Me")).status).toBe(200);

    const opened = await b.get((await friend.link()).path);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("set-cookie")).toContain("; Path=/u/Cookie_Friend;");
    expect((await b.get("/u/Cookie_Friend")).status).toBe(200);
    // Found: the friend's cookie (Path=/u/) replaced mine, and my page answered 404.
    expect((await b.get("/u/Cookie_Me")).status).toBe(200);
    expect((await b.get("/u/Cookie_Me/export.csv")).status).toBe(200);
    expect([...b.jar.values()].map((c) => c.path).sort()).toEqual(["/u/Cookie_Friend", "/u/Cookie_Me"]);
  });

  test("someone else's link at my page's address does nothing: not spent, no cookie, mine kept", async () => {
    const me = await player("Cookie_Me2");
    const stranger = await player("Cookie_Other");
    const b = browser();
    await b.get((await me.link()).path);
    const theirs = await stranger.link();
    // A link slipped into /u/<my name>: answered like a made-up token (my page is not findable: 404).
    const res = await b.get(`/u/Cookie_Me2?t=${theirs.token}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect((await b.get("/u/Cookie_Me2")).status).toBe(200);
    // Nor at an address that belongs to nobody; its owner can still spend it at their own page.
    expect((await t.request(`/u/Nobody_Here?t=${theirs.token}`)).headers.get("set-cookie")).toBeNull();
    const own = await t.request(theirs.path);
    expect(own.status).toBe(303);
    expect(own.headers.get("set-cookie")).toContain("; Path=/u/Cookie_Other;");
  });

  test("a player's own link opened with their name in another case still opens their page", async () => {
    const me = await player("Cookie_Case");
    const { token } = await me.link();
    const res = await t.request(`/u/cookie_case?t=${token}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/u/Cookie_Case");
    expect(res.headers.get("set-cookie")).toContain("; Path=/u/Cookie_Case;");
  });
});
