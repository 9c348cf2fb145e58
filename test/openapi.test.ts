// GET /v1/openapi.json is generated from the same schemas the routes validate with: every request
// body, parameter and answer, and every refusal with its codes. Every answer the tests see is
// checked against it (test/support/openapi-check.ts); here, that the checker itself refuses drift,
// that the examples fit, and that the checked-in client is what the served document generates.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { Value } from "@sinclair/typebox/value";
import { testApp, type TestApp } from "./support/app.ts";
import { openapiChecker } from "./support/openapi-check.ts";
import { HealthAnswer } from "../src/health/health.routes.ts";
import { errorStatus } from "../src/http/errors.ts";
import { Envelope } from "../src/wire/envelope.ts";
import { IngestAnswer } from "../src/stats/ingest.schema.ts";
import { generateClient, servedDocument } from "../scripts/openapi.ts";
import { isDescribed } from "../src/http/openapi.ts";

type Json = Record<string, any>;
let t: TestApp;
let doc: Json;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true } });
  doc = (await (await t.request("/v1/openapi.json")).json()) as Json;
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as Json })),
  );
/** Elysia's routes the document describes: under /v1/ and not hidden, and the pages' images marked for it. */
const routes = () => t.app.routes.filter((r) => isDescribed(r));
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema));

test("lists the API routes with the schemas they use, and loads nothing from elsewhere", async () => {
  expect(doc.openapi).toStartWith("3.1");
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining(["/v1/health", "/v1/stats/catalogue", "/v1/stats/ingest", "/v1/auth/dev"]),
  );
  const health = doc.paths["/v1/health"].get.responses["200"].content["application/json"].schema;
  expect(health.required).toEqual(HealthAnswer.required);
  expect(health.additionalProperties).toBe(false);
  expect(operations().length).toBe(routes().length);
  // No documentation UI that would pull scripts from a CDN.
  expect((await t.request("/v1/openapi")).status).toBe(404);
});

test("every request body, path and query parameter is the schema its route validates with", () => {
  let bodies = 0;
  for (const route of routes()) {
    const hooks = route.hooks as Json;
    const op = doc.paths[route.path.replace(/:([^/]+)/g, "{$1}")][route.method.toLowerCase()];
    if (hooks.body) {
      bodies++;
      expect(Object.keys(op.requestBody.content)).toEqual(["application/json"]);
      expect(op.requestBody.content["application/json"].schema).toEqual(plain(hooks.body));
    } else expect(op.requestBody).toBeUndefined();
    for (const [where, schema] of [
      ["path", hooks.params],
      ["query", hooks.query],
    ] as const) {
      const names = op.parameters?.filter((p: Json) => p.in === where).map((p: Json) => p.name) ?? [];
      expect(names).toEqual(Object.keys(schema?.properties ?? {}));
    }
    if (hooks.response?.type === "object")
      expect(op.responses["200"].content["application/json"].schema).toEqual(plain(hooks.response));
  }
  // challenge, verify, dev, settings, page-token, share/rotate, ingest, reports, tokens, boards/membership,
  // groups (create, join, change)
  expect(bodies).toBe(13);
});

test("every refusal is the error shape, with each code under the status it is answered with", () => {
  for (const { path, method, op } of operations()) {
    const refusals = Object.entries(op.responses as Record<string, Json>).filter(([status]) => Number(status) >= 400);
    expect(refusals.length, `${method} ${path} describes no refusal`).toBeGreaterThan(0);
    for (const [status, r] of refusals) {
      // A page's picture outside /v1/ is refused as its page is: an HTML page, whatever the status.
      if (!path.startsWith("/v1/")) {
        expect(Object.keys(r.content), `${method} ${path} ${status}`).toEqual(["text/html"]);
        continue;
      }
      const schema = r.content["application/json"].schema;
      if (path === "/v1/health") continue; // its 503 is the health answer itself
      expect(schema.required).toEqual(["error"]);
      expect(schema.properties.error.required).toEqual(["code", "message"]);
      for (const code of schema.properties.error.properties.code.enum)
        expect(String(errorStatus[code as keyof typeof errorStatus])).toBe(status);
    }
  }
  const ingest = doc.paths["/v1/stats/ingest"].post;
  expect(ingest.security).toEqual([{ bearer: [] }]);
  expect(ingest.responses["401"].content["application/json"].schema.properties.error.properties.code.enum).toEqual([
    "unauthorized",
  ]);
  expect(ingest.responses["413"].content["application/json"].schema.properties.error.properties.code.enum).toEqual([
    "body_too_large",
    "gzip_required",
  ]);
  expect(ingest.responses["422"].content["application/json"].schema.properties.error.properties.code.enum).toContain(
    "day_too_far_ahead",
  );
  // A stale settings write carries the current document beside the error.
  const conflict = doc.paths["/v1/stats/settings"].patch.responses["409"].content["application/json"].schema;
  expect(Object.keys(conflict.properties).sort()).toEqual(["error", "settings"]);
  expect(doc.paths["/v1/health"].get.security).toEqual([]);
});

test("the examples are the golden fixtures, and they fit the schemas the routes enforce", async () => {
  const ingest = doc.paths["/v1/stats/ingest"].post;
  const body = ingest.requestBody.content["application/json"].example;
  expect(body).toEqual(await Bun.file(join(import.meta.dir, "../fixtures/uploads/01-first-day.json")).json());
  expect(Value.Check(Envelope, body)).toBe(true);
  expect(Value.Check(IngestAnswer, ingest.responses["200"].content["application/json"].example)).toBe(true);
  expect(doc.paths["/v1/stats/totals"].get.responses["200"].content["application/json"].example).toEqual(
    await Bun.file(join(import.meta.dir, "../fixtures/totals/totals.json")).json(),
  );
});

describe("the answer checker every test app runs", () => {
  const check = openapiChecker((r) => t.app.handle(r));
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const health = {
    status: "ok",
    service: "tally",
    version: "x",
    schema: { current: 1, accepted: [1] },
    catalogueVersion: 1,
    database: "ok",
  };

  test("passes a documented answer", async () => {
    await check(new Request("http://localhost/v1/health"), json(200, health));
  });
  test("refuses a field the document does not have", async () => {
    expect(check(new Request("http://localhost/v1/health"), json(200, { ...health, extra: 1 }))).rejects.toThrow(
      "does not match its documented schema",
    );
  });
  test("refuses a status the operation does not document", async () => {
    expect(check(new Request("http://localhost/v1/stats/profiles"), json(418, {}))).rejects.toThrow(
      "is not documented",
    );
  });
  test("refuses an error code the operation does not list", async () => {
    const teapot = json(422, { error: { code: "empty_upload", message: "x" } });
    expect(check(new Request("http://localhost/v1/reports/general", { method: "POST" }), teapot)).rejects.toThrow(
      "does not match",
    );
  });
});

test("bench/api.gen.ts is what openapi-typescript generates from the served document (bun run api:client)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tally-openapi-"));
  try {
    await Bun.write(join(dir, "openapi.json"), JSON.stringify(await servedDocument()));
    const generated = await generateClient(join(dir, "openapi.json"));
    expect(
      generated === (await Bun.file(join(import.meta.dir, "../bench/api.gen.ts")).text()),
      "bench/api.gen.ts is stale: run bun run api:client",
    ).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
