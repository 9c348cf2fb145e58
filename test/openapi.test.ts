// GET /v1/openapi.json is generated from the same schemas the routes validate with.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "./support/app.ts";
import { HealthAnswer } from "../src/health/health.routes.ts";

let t: TestApp;
beforeAll(async () => (t = await testApp()));
afterAll(() => t.close());

test("lists the API routes with the schemas they use, and loads nothing from elsewhere", async () => {
  const res = await t.request("/v1/openapi.json");
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, any> };
  expect(doc.openapi).toStartWith("3.");
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/v1/health", "/v1/stats/catalogue"]));
  const health = doc.paths["/v1/health"].get.responses["200"].content["application/json"].schema;
  expect(health.required).toEqual(HealthAnswer.required);
  expect(health.additionalProperties).toBe(false);
  // No documentation UI that would pull scripts from a CDN.
  expect((await t.request("/v1/openapi")).status).toBe(404);
});
