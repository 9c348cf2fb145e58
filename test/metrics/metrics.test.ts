// GET /metrics: off unless enabled, behind a token when one is set, and holding what an operator
// needs (requests by route pattern, ingest rows by outcome, jobs, upstream calls), with no path,
// name or secret in a label.
import { afterEach, describe, expect, test, afterAll, beforeAll } from "bun:test";
import { emptyTables, testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
import { testApp, type TestApp, type TestAppOptions } from "../support/app.ts";
import { envelope, uploader, PROFILE } from "../support/uploads.ts";
import { countedFetch, createMetrics } from "../../src/metrics/metrics.ts";
import { createScheduler } from "../../src/jobs/scheduler.ts";
import { singleProcessJobLock } from "../../src/jobs/job-lock.ts";
import { fakeUpstream, json } from "../support/upstream.ts";

// One database for the file, emptied after each test: every test starts from a service as new,
// without paying for a new database each time (test/support/db.ts, emptyTables).
let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
  await emptyTables(database.db);
});
const open = async (settings: TestAppOptions["settings"] = {}, now?: string) => {
  const t = await testApp({ database, settings: { metricsEnabled: true, devSignin: true, ...settings }, now });
  opened.push(t);
  return t;
};
const scrape = async (t: TestApp, headers: Record<string, string> = {}) =>
  (await t.request("/metrics", { headers })).text();
/** Waits for the request log's after-response hooks, which run once the answer is sent. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("GET /metrics", () => {
  test("does not exist unless METRICS_ENABLED=true", async () => {
    const t = await open({ metricsEnabled: false });
    expect((await t.request("/metrics")).status).toBe(404);
  });

  test("with METRICS_TOKEN answers only that bearer token", async () => {
    const t = await open({ metricsToken: "s3cret-metrics-token-7d41c09e2ab35f68" });
    expect((await t.request("/metrics")).status).toBe(401);
    expect((await t.request("/metrics", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const ok = await t.request("/metrics", {
      headers: { authorization: "Bearer s3cret-metrics-token-7d41c09e2ab35f68" },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toContain("text/plain");
  });

  test("counts requests by route pattern, method and status, never by the path itself", async () => {
    const t = await open();
    const u = await uploader(t);
    await t.request("/v1/health");
    await t.request(`/v1/auth/sessions/0123456789abcdef01234567`, { method: "DELETE", headers: u.auth });
    await t.request("/v1/no/such/thing/Steve");
    await settle();
    const text = await scrape(t);
    expect(text).toContain('tally_http_requests_total{route="/v1/health",method="GET",status="200"} 1');
    expect(text).toContain('tally_http_requests_total{route="/v1/auth/sessions/:id",method="DELETE",status="404"} 1');
    expect(text).toContain('route="(unmatched)",method="GET",status="404"');
    expect(text).not.toContain("0123456789abcdef01234567");
    expect(text).not.toContain("Steve");
    expect(text).toMatch(/tally_http_request_duration_seconds_bucket\{le="[0-9.]+",route="\/v1\/health"\} 1/);
  });

  test("counts ingest rows applied, refused as sealed, dropped as consent is off; and duplicate uploads", async () => {
    const t = await open({}, "2026-06-01T12:00:00Z");
    const u = await uploader(t, { consent: ["gathering"] });
    const env = envelope(t, {
      counters: [
        {
          profileId: PROFILE,
          scope: "day",
          day: "2026-06-01",
          rows: [
            { k: "mining.blocks.stone", v: 1 },
            { k: "mining.blocks.dirt", v: 2 },
            { k: "kills.island.hub", v: 3 },
          ],
        },
        { profileId: PROFILE, scope: "day", day: "2025-01-01", rows: [{ k: "mining.blocks.stone", v: 4 }] },
      ],
    });
    expect((await u.send(env)).status).toBe(200);
    expect((await u.send(env)).status).toBe(200);
    const text = await scrape(t);
    expect(text).toContain('tally_ingest_rows_total{outcome="applied"} 2');
    expect(text).toContain('tally_ingest_rows_total{outcome="refused"} 1');
    expect(text).toContain('tally_ingest_rows_total{outcome="dropped"} 1');
    expect(text).toContain('tally_ingest_uploads_total{duplicate="false"} 1');
    expect(text).toContain('tally_ingest_uploads_total{duplicate="true"} 1');
  });
});

describe("what records into the registry", () => {
  test("upstream calls are counted by the setting they belong to, by outcome; no URL or secret in a label", async () => {
    const metrics = createMetrics();
    const upstream = fakeUpstream({
      "GET /ok": () => json({}),
      "GET /down": () => new Response("no", { status: 503 }),
    });
    const webhook = `${upstream.url}/api/webhooks/123/very-secret-webhook-token`;
    const fetcher = countedFetch(fetch, metrics, { game_api: `${upstream.url}/ok`, chat: webhook, names: "" });
    await fetcher(`${upstream.url}/ok`);
    await fetcher(`${upstream.url}/down`);
    await fetcher(webhook).catch(() => {});
    await fetcher("http://127.0.0.1:1/nothing").catch(() => {});
    upstream.stop();
    const text = await metrics.registry.metrics();
    expect(text).toContain('tally_upstream_calls_total{upstream="game_api",outcome="2xx"} 1');
    expect(text).toContain('tally_upstream_calls_total{upstream="other",outcome="5xx"} 1');
    expect(text).toContain('tally_upstream_calls_total{upstream="chat",outcome="4xx"} 1');
    expect(text).toContain('tally_upstream_calls_total{upstream="other",outcome="error"} 1');
    expect(text).not.toContain("very-secret-webhook-token");
  });

  test("job runs are counted by job and outcome, with their duration", async () => {
    const metrics = createMetrics();
    const t = await open();
    let fail = false;
    const scheduler = createScheduler({
      log: t.log,
      lock: singleProcessJobLock,
      metrics,
      jobs: [
        {
          name: "probe",
          enabled: true,
          intervalMs: 60_000,
          run: async () => {
            if (fail) throw new Error("no");
            return { done: 1 };
          },
        },
      ],
    });
    await scheduler.run("probe");
    fail = true;
    await scheduler.run("probe");
    await scheduler.stop();
    const text = await metrics.registry.metrics();
    expect(text).toContain('tally_job_runs_total{job="probe",status="ran"} 1');
    expect(text).toContain('tally_job_runs_total{job="probe",status="failed"} 1');
    expect(text).toContain('tally_job_duration_seconds_count{job="probe"} 1');
  });
});
