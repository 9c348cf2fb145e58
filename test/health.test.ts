// GET /v1/health: what the mod reads once per launch. No upstream is touched; the database is.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "./support/app.ts";
import { VERSION } from "../src/version.ts";

let t: TestApp;
let upstreamCalls = 0;
beforeAll(async () => {
  t = await testApp({
    fetch: Object.assign(
      async () => {
        upstreamCalls++;
        throw new Error("no upstream");
      },
      { preconnect: () => {} },
    ),
  });
});
afterAll(() => t.close());

describe("GET /v1/health", () => {
  test("advertises the accepted schema versions and the catalogue version", async () => {
    const res = await t.request("/v1/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      status: "ok",
      service: "tally",
      version: VERSION,
      schema: { current: 1, accepted: [1] }, // contract 9.1: schema 1 is current and has no predecessor
      catalogueVersion: t.catalogue.version,
      database: "ok",
    });
  });

  test("touches no upstream", async () => {
    await t.request("/v1/health");
    expect(upstreamCalls).toBe(0);
  });
});

describe("GET /v1/health without a database", () => {
  test("answers 503 with Retry-After so a load balancer stops sending traffic", async () => {
    const u = await testApp();
    await u.database.close();
    const res = await u.request("/v1/health");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ status: "unavailable", database: "unavailable" });
  });
});
