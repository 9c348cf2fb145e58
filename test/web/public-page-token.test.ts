// GET /v1/pages/<name> with the owner's personal access token (issue 37, docs/decisions.md "The
// scope page:read"): a page:read token of the page's owner reads the page that is not findable
// (private, no-store, the token's rate-limit headers, still readable from any site); another
// account's token or one without page:read is answered the stranger's 404, byte for byte; a revoked
// token is told 401; the preflight allows Authorization.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(60_000);
import { pageEnv } from "./env.ts";
import { seedPlayer, type Seeded } from "./seed.ts";
import { makeToken, type Made } from "../tokens/support.ts";

const WIDGET = "https://overlay.example";
const PAGE = "/v1/pages/Hidden_Hal";

let env: Awaited<ReturnType<typeof pageEnv>>;
let hidden: Seeded;
let other: Seeded;
let pageRead: Made;
let statsRead: Made;
let othersPageRead: Made;
beforeAll(async () => {
  env = await pageEnv();
  hidden = await seedPlayer(env.t, { name: "Hidden_Hal" });
  other = await seedPlayer(env.t, { name: "Other_Olga", findable: true });
  pageRead = await makeToken(env.t, hidden.player.auth, { label: "Overlay", scopes: ["page:read"] });
  statsRead = await makeToken(env.t, hidden.player.auth, { label: "Bot", scopes: ["stats:read", "export"] });
  othersPageRead = await makeToken(env.t, other.player.auth, { label: "Overlay", scopes: ["page:read"] });
});
afterAll(() => env.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  env.t.request(path, { headers: { origin: WIDGET, ...headers } });

describe("the owner's page:read token", () => {
  test("reads the page that is not findable: the document, private, never kept, from any site", async () => {
    const res = await get(PAGE, pageRead.auth);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("vary")).toContain("authorization");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(res.headers.get("ratelimit-limit")).toMatch(/^\d+$/);
    expect(res.headers.get("access-control-expose-headers")).toContain("RateLimit-Remaining");
    const body = (await res.json()) as { name: string; headline: unknown[]; profiles: { cuteName: string }[] };
    expect(body.name).toBe("Hidden_Hal");
    expect(body.headline.length).toBeGreaterThan(0);
    expect(body.profiles.map((p) => p.cuteName)).toEqual(["Pomegranate"]);
  });

  test("counts its rate limit down, as on every route that takes a token", async () => {
    const first = await get(PAGE, pageRead.auth);
    const second = await get(PAGE, pageRead.auth);
    await first.body?.cancel();
    await second.body?.cancel();
    expect(Number(second.headers.get("ratelimit-remaining"))).toBe(
      Number(first.headers.get("ratelimit-remaining")) - 1,
    );
  });

  test("answers 304 to its ETag, still private", async () => {
    const etag = (await get(PAGE, pageRead.auth)).headers.get("etag")!;
    const again = await get(PAGE, { ...pageRead.auth, "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("any other token is answered as a stranger", () => {
  test("a token without page:read, or another account's page:read token, gets the stranger's 404 byte for byte", async () => {
    const stranger = await get(PAGE);
    const strangerBody = await stranger.text();
    expect(stranger.status).toBe(404);
    for (const auth of [statsRead.auth, othersPageRead.auth]) {
      const res = await get(PAGE, auth);
      expect({ status: res.status, body: await res.text() }).toEqual({ status: 404, body: strangerBody });
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  test("another account's token on a findable page reads what a stranger reads", async () => {
    const mine = await get("/v1/pages/Other_Olga", pageRead.auth);
    const stranger = await get("/v1/pages/Other_Olga");
    expect(mine.status).toBe(200);
    expect(await mine.text()).toBe(await stranger.text());
  });

  test("a revoked token is told 401: its holder learns it is dead, not whether the page exists", async () => {
    const made = await makeToken(env.t, hidden.player.auth, { label: "Old overlay", scopes: ["page:read"] });
    expect((await get(PAGE, made.auth)).status).toBe(200);
    await env.t.request(`/v1/stats/tokens/${made.id}`, { method: "DELETE", headers: hidden.player.auth });
    for (const path of [PAGE, "/v1/pages/Other_Olga", "/v1/pages/Nobody_Here"]) {
      const res = await get(path, made.auth);
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
  });
});

test("the preflight of a fetch with the token from another site allows Authorization, without credentials", async () => {
  const res = await env.t.request(PAGE, {
    method: "OPTIONS",
    headers: {
      origin: WIDGET,
      "access-control-request-method": "GET",
      "access-control-request-headers": "authorization",
    },
  });
  expect(res.status).toBe(204);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  expect(res.headers.get("access-control-allow-credentials")).toBeNull();
});

test("the OpenAPI document says a token is optional here, with the scope page:read", async () => {
  const doc = (await (await env.t.request("/v1/openapi.json")).json()) as {
    paths: Record<string, { get: { security: unknown[]; responses: Record<string, unknown> } }>;
  };
  const op = doc.paths["/v1/pages/{name}"]!.get;
  expect(op.security).toEqual([{}, { personalToken: ["page:read"] }]);
  expect(Object.keys(op.responses)).toContain("401");
});
