// Boundary: what every answer tells a browser, and what a failure leaves in the log (issue 22,
// finding 9). Every answer carries `X-Content-Type-Options: nosniff` (a JSON error read as HTML is
// how reflected text turns into script); an unhandled error is logged with its route pattern,
// never the raw path (a player name or a share key).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { uploader } from "../support/uploads.ts";
import { hashedAssets } from "../../src/web/assets.ts";

setDefaultTimeout(30_000);
let t: TestApp;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, metricsEnabled: true } });
});
afterAll(() => t.close());

describe("nosniff on every answer", () => {
  test("pages, static files, JSON, metrics, 400s, 401s, 404s and 413s alike", async () => {
    const u = await uploader(t);
    const [css] = [...hashedAssets.keys()];
    const requests: [string, RequestInit?][] = [
      ["/"],
      ["/assets/privacy.html"],
      [css!],
      ["/v1/health"],
      ["/v1/stats/catalogue"],
      ["/v1/openapi.json"],
      ["/metrics"],
      ["/v1/stats/settings", { headers: u.auth }],
      ["/v1/stats/settings"], // 401
      ["/v1/no/such/route"], // 404 JSON
      ["/no/such/page"], // 404 HTML
      ["/u/Nobody_Here"], // a page that answers like an unknown name
      ["/v1/assets/head/not-a-uuid.png"], // 404 before any upstream
      ["/v1/stats/ingest", { method: "POST", headers: { ...u.auth, "content-type": "application/json" }, body: "{" }], // 400
      ["/v1/auth/dev", { method: "POST", headers: { "content-type": "application/json" }, body: " ".repeat(5000) }], // 413
    ];
    const missing: string[] = [];
    for (const [path, init] of requests) {
      const res = await t.request(path, init);
      if (res.headers.get("x-content-type-options") !== "nosniff")
        missing.push(`${init?.method ?? "GET"} ${path} (${res.status})`);
    }
    expect(missing).toEqual([]);
  });
});

describe("error logs", () => {
  test("an unhandled error on a page addressed by a name is logged with its route, not the name", async () => {
    const broken = await testApp();
    await broken.database.close(); // every query now fails: an internal error on any page that reads
    // The profile page's rate limit reads the database first: it fails, unhandled.
    const res = await broken.request("/p/Secret_Name_77");
    expect(res.status).toBeGreaterThanOrEqual(500);
    await new Promise((resolve) => setImmediate(resolve));
    const errors = broken.log.lines.filter((l) => l.level === "error");
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatchObject({ route: "/p/:name" });
    expect(JSON.stringify(broken.log.lines)).not.toContain("Secret_Name_77");
  });
});
