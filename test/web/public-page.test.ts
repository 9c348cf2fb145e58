// A findable page's figures as JSON (issue 37): GET /v1/pages/<name> answers what the page shows a
// stranger (its headline, its profiles by cute name and handle, its period table), readable from
// any site (CORS, no credentials, the preflight of a conditional fetch), cacheable (ETag, 304,
// Cache-Control), kept until the player uploads or changes a setting; an unknown name and a page
// that is not findable answer the same 404.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(60_000);
import { pageEnv } from "./env.ts";
import { seedPlayer, seedSecondProfile, type Seeded } from "./seed.ts";
import { PROFILE } from "../support/uploads.ts";

const WIDGET = "https://overlay.example";

let env: Awaited<ReturnType<typeof pageEnv>>;
let shown: Seeded;
beforeAll(async () => {
  env = await pageEnv();
  shown = await seedPlayer(env.t, { name: "Widget_Wendy", findable: true });
  await seedPlayer(env.t, { name: "Hidden_Hal" });
  env.t.clock.advance(60_000);
  await seedSecondProfile(env.t, shown.player, [{ k: "mining.blocks.total", v: 77 }]);
});
afterAll(() => env.close());

type Answer = {
  name: string;
  page: string;
  zone: string;
  headline: { key: string; label: string; value: number; text: string }[];
  profiles: { handle: string; cuteName: string }[];
  profile: { handle: string; cuteName: string } | null;
  period: {
    period: string;
    profile: { key: string; value: number | null }[] | null;
    account: { key: string; value: number | null }[];
  };
};
const get = (path: string, headers: Record<string, string> = {}) =>
  env.t.request(path, { headers: { origin: WIDGET, ...headers } });

describe("GET /v1/pages/<name>", () => {
  test("answers the page's headline, profiles and period table, readable from another site", async () => {
    const res = await get("/v1/pages/widget_wendy");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(res.headers.get("access-control-expose-headers")).toContain("ETag");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const body = (await res.json()) as Answer;
    expect(body.name).toBe("Widget_Wendy");
    expect(body.page).toBe(`${env.t.config.baseUrl}/u/Widget_Wendy`);
    expect(body.zone).toBe("Europe/Berlin");
    expect(body.profiles.map((p) => p.cuteName).sort()).toEqual(["Kiwi", "Pomegranate"]);
    for (const p of body.profiles) expect(p.handle).toMatch(/^[A-Za-z0-9_-]{12}$/);
    // The profile last uploaded for is shown, as on the page.
    expect(body.profile?.cuteName).toBe("Kiwi");
    expect(body.headline.length).toBeGreaterThan(0);
    expect(body.period.period).toBe("week");

    // The page shows the same: its headline's keys, its profile tabs' handles.
    const page = await (await env.t.request("/u/Widget_Wendy", { headers: { accept: "text/html" } })).text();
    const section = page.match(/<section aria-label="Headline figures"[\s\S]*?<\/ul>/)![0];
    expect([...section.matchAll(/data-key="([^"]+)"/g)].map((m) => m[1])).toEqual(body.headline.map((f) => f.key));
    for (const f of body.headline) expect(section).toContain(`>${f.text}<`);
    for (const p of body.profiles) expect(page).toContain(`profile=${p.handle}`);
  });

  test("a profile by its handle and a period, as the page's tabs ask for them", async () => {
    const first = (await (await get("/v1/pages/Widget_Wendy")).json()) as Answer;
    const pome = first.profiles.find((p) => p.cuteName === "Pomegranate")!;
    const res = await get(`/v1/pages/Widget_Wendy?profile=${pome.handle}&period=month`);
    const body = (await res.json()) as Answer;
    expect(body.profile).toEqual(pome);
    expect(body.period.period).toBe("month");
    expect(body.period.profile!.map((k) => k.key)).toContain("mining.blocks.total");
    // A profile id is not a handle: refused, never looked up.
    expect((await get(`/v1/pages/Widget_Wendy?profile=${PROFILE}`)).status).toBe(400);
  });

  test("If-None-Match answers 304 with the CORS headers; an upload makes a new ETag", async () => {
    const first = await get("/v1/pages/Widget_Wendy");
    const etag = first.headers.get("etag")!;
    const again = await get("/v1/pages/Widget_Wendy", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("access-control-allow-origin")).toBe("*");
    expect(again.headers.get("etag")).toBe(etag);
    env.t.clock.advance(60_000);
    await seedSecondProfile(env.t, shown.player, [{ k: "mining.blocks.total", v: 99 }]);
    const after = await get("/v1/pages/Widget_Wendy", { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
  });

  test("the preflight of a conditional fetch from another site is answered", async () => {
    const res = await env.t.request("/v1/pages/Widget_Wendy", {
      method: "OPTIONS",
      headers: {
        origin: WIDGET,
        "access-control-request-method": "GET",
        "access-control-request-headers": "if-none-match",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("GET");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("if-none-match");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  test("an unknown name and a page that is not findable answer the same 404", async () => {
    const answers = [];
    for (const name of ["Hidden_Hal", "Nobody_Here", "not a name!", "x".repeat(40)]) {
      const res = await get(`/v1/pages/${encodeURIComponent(name)}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("cache-control")).toBe("no-store");
      answers.push(await res.text());
    }
    expect(new Set(answers).size).toBe(1);
    expect(JSON.parse(answers[0]!)).toEqual({
      error: { code: "page_not_found", message: "no findable statistics page has this name" },
    });
  });

  test("the OpenAPI document describes it, with its query and its refusals", async () => {
    const doc = (await (await env.t.request("/v1/openapi.json")).json()) as {
      paths: Record<string, Record<string, { parameters: { name: string }[]; responses: Record<string, unknown> }>>;
    };
    const op = doc.paths["/v1/pages/{name}"]!.get!;
    expect(op.parameters.map((p) => p.name)).toEqual(["name", "profile", "period"]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "304", "404", "429"]));
    expect(doc.paths["/v1/pages/{name}"]!.options).toBeUndefined();
  });
});

test("a malformed query is refused, readable from another site too", async () => {
  const res = await get("/v1/pages/Widget_Wendy?period=decade");
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_query");
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
});
