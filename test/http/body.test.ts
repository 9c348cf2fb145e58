// The HTTP edge every route stands on: strict bodies, gzip, the 8 KiB rule, caps, the error shape.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { Type as T } from "@sinclair/typebox";
import { testApp, type TestApp } from "../support/app.ts";
import { readBody, requireGzipOver } from "../../src/http/body.ts";
import type { Log } from "../../src/log.ts";

const Body = T.Object(
  {
    schema: T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    client: T.Object({ install: T.String({ pattern: "^[0-9a-f]{32}$" }) }, { additionalProperties: false }),
    rows: T.Optional(
      T.Array(T.Object({ k: T.String({ maxLength: 128 }), v: T.Integer() }, { additionalProperties: false })),
    ),
  },
  { additionalProperties: false },
);

// A route shaped like the ingest route: strict body, gzip required over 8 KiB.
const probe = new Elysia()
  // A probe only these tests mount: hidden from the OpenAPI document, so its answers are not checked.
  .post("/v1/probe/echo", ({ body }) => ({ received: body }), {
    transform: [readBody(256 * 1024), requireGzipOver(8192)],
    body: Body,
    detail: { hide: true },
  })
  .get("/v1/probe/log", (ctx) => {
    (ctx as unknown as { log: Log }).log.info("probe handled");
    return "logged";
  })
  .get("/v1/probe/boom", () => {
    throw new Error("secret detail at /home/someone");
  });

let t: TestApp;
let app: Elysia<any>;
beforeAll(async () => {
  t = await testApp({ settings: { maxBodyBytes: 64 * 1024, maxDecodedBodyBytes: 256 * 1024 } });
  app = t.app.use(probe) as unknown as Elysia<any>;
});
afterAll(() => t.close());

const install = "0123456789abcdef0123456789abcdef";
const post = (body: BodyInit, headers: Record<string, string> = { "content-type": "application/json" }) =>
  app.handle(new Request("http://localhost/v1/probe/echo", { method: "POST", body, headers }));
const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => ({ k: `loot.item.ITEM_${i}`, v: i }));
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string; path?: string } }).error;

describe("strict JSON bodies", () => {
  test("a valid body reaches the handler unchanged", async () => {
    const body = { schema: 1, client: { install }, rows: [{ k: "kills.island.hub", v: 3 }] };
    const res = await post(JSON.stringify(body));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: body });
  });

  test("an unknown field at the top is refused invalid_body with its path", async () => {
    const res = await post(JSON.stringify({ schema: 1, client: { install }, uuid: "ab".repeat(16) }));
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: "invalid_body", path: "/uuid" });
  });

  test("an unknown field deep inside is refused with its path", async () => {
    const res = await post(
      JSON.stringify({
        schema: 1,
        client: { install },
        rows: [
          { k: "a.b", v: 1 },
          { k: "a.b", v: 2, extra: true },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: "invalid_body", path: "/rows/1/extra" });
  });

  test("numbers are never taken from strings, fractions or unsafe integers", async () => {
    for (const schema of ['"1"', "1.5", "9007199254740993", "null"]) {
      const res = await post(`{"schema":${schema},"client":{"install":"${install}"}}`);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).path).toBe("/schema");
    }
  });

  test("malformed JSON, empty bodies and non-UTF-8 bytes are refused invalid_body", async () => {
    for (const body of ["{not json", "", new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe("invalid_body");
    }
  });

  test("a body that is not declared JSON is refused unsupported_media_type", async () => {
    const res = await post("schema=1", { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(415);
    expect((await errorOf(res)).code).toBe("unsupported_media_type");
  });
});

describe("gzip and the 8 KiB rule", () => {
  const big = { schema: 1, client: { install }, rows: rowsOf(400) };
  const bigText = JSON.stringify(big);

  test("the probe body really is over 8 KiB", () => {
    expect(bigText.length).toBeGreaterThan(8192);
  });

  test("a plain body over 8 KiB is refused gzip_required, before validation", async () => {
    const res = await post(bigText);
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe("gzip_required");
    const invalid = JSON.stringify({ ...big, unknown: 1 });
    expect((await errorOf(await post(invalid))).code).toBe("gzip_required");
  });

  test("a plain body of exactly 8 KiB is accepted (the rule is: over 8 KiB)", async () => {
    const rows: { k: string; v: number }[] = [];
    const size = () => JSON.stringify({ schema: 1, client: { install }, rows }).length;
    while (size() < 8192 - 100) rows.push({ k: "kills.island.hub", v: 1 });
    rows.push({ k: "", v: 1 });
    rows[rows.length - 1]!.k = "k".repeat(8192 - size());
    const exact = JSON.stringify({ schema: 1, client: { install }, rows });
    expect(exact.length).toBe(8192);
    expect((await post(exact)).status).toBe(200);
    rows[rows.length - 1]!.k += "k";
    expect((await errorOf(await post(JSON.stringify({ schema: 1, client: { install }, rows })))).code).toBe(
      "gzip_required",
    );
  });

  test("the same body gzip-compressed is decoded and accepted", async () => {
    const res = await post(Bun.gzipSync(new TextEncoder().encode(bigText)), {
      "content-type": "application/json",
      "content-encoding": "gzip",
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { received: typeof big }).received.rows).toHaveLength(400);
  });

  test("a gzip bomb stops at the decoded-size cap with body_too_large", async () => {
    const bomb = Bun.gzipSync(new Uint8Array(50 * 1024 * 1024).fill(0x20));
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const res = await post(bomb, { "content-type": "application/json", "content-encoding": "gzip" });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe("body_too_large");
  });

  test("bytes that are not gzip are refused invalid_body", async () => {
    const res = await post("definitely not gzip", { "content-type": "application/json", "content-encoding": "gzip" });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain("gzip");
  });

  test("an encoding other than gzip is refused", async () => {
    const res = await post(bigText, { "content-type": "application/json", "content-encoding": "br" });
    expect(res.status).toBe(415);
  });

  test("a body over the wire cap is refused body_too_large without reading it whole", async () => {
    const res = await post(
      Bun.gzipSync(crypto.getRandomValues(new Uint8Array(60_000)))
        .toString()
        .repeat(2),
      {
        "content-type": "application/json",
        "content-encoding": "gzip",
      },
    );
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe("body_too_large");
  });
});

describe("every answer", () => {
  test("carries a request id, also on refusals, and keeps a sane incoming one", async () => {
    const ok = await t.request("/v1/health");
    expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f]{16}$/);
    const refused = await post("{");
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f]{16}$/);
    const given = await t.request("/v1/health", { headers: { "x-request-id": "lb-trace-12345678" } });
    expect(given.headers.get("x-request-id")).toBe("lb-trace-12345678");
    const hostile = await t.request("/v1/health", { headers: { "x-request-id": "<script>alert(1)</script>" } });
    expect(hostile.headers.get("x-request-id")).toMatch(/^[0-9a-f]{16}$/);
  });

  test("an unknown API route answers the JSON error body with not_found", async () => {
    const res = await t.request("/v1/no/such/route");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({ error: { code: "not_found", message: "no such route" } });
  });

  test("an unknown web route answers the site's own not-found page, with its navigation", async () => {
    const res = await t.request("/no-such-page");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("<h1>Not found</h1>");
    expect(html).toContain('<nav aria-label="Site">');
  });

  test("an internal error answers a generic 500 with the request id; the log keeps the whole error", async () => {
    const res = await app.handle(new Request("http://localhost/v1/probe/boom"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("secret detail");
    expect(text).not.toContain("at ");
    const body = JSON.parse(text) as { error: { code: string; requestId: string } };
    expect(body.error.code).toBe("internal");
    expect(body.error.requestId).toBe(res.headers.get("x-request-id")!);
    const logged = t.log.lines.find((l) => l.msg === "unhandled error" && l.requestId === body.error.requestId);
    expect((logged!.error as { message: string }).message).toContain("secret detail");
    expect((logged!.error as { stack: string }).stack).toContain("body.test.ts");
  });

  test("what a handler logs carries the request's id", async () => {
    const res = await app.handle(new Request("http://localhost/v1/probe/log"));
    const line = t.log.lines.find((l) => l.msg === "probe handled");
    expect(line?.requestId).toBe(res.headers.get("x-request-id")!);
  });

  test("each request is logged once with its id, route pattern and status, never its path", async () => {
    // A player name in the path (here, a lookup by name) must not reach the log.
    await t.request("/v1/players/Some_Player_Name");
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.stringify(t.log.lines)).not.toContain("Some_Player_Name");
    const res = await t.request("/v1/no/such/route");
    const id = res.headers.get("x-request-id");
    await new Promise((resolve) => setImmediate(resolve)); // the line is written after the answer is sent
    const lines = t.log.lines.filter((l) => l.msg === "request" && l.requestId === id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: "GET", route: "(unmatched)", status: 404 });
  });
});
