// The reference uploader (bench/uploader.ts) is the example client for the mod's authors: it must
// do what it says against the real service, over HTTP.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE } from "../support/uploads.ts";
import { listen } from "../../src/http/serve.ts";
import { Uploader, prepareUpload } from "../../bench/uploader.ts";

let t: TestApp;
let server: ReturnType<typeof listen>;
let base: string;
let token: string;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-06-01T12:00:00Z" });
  server = listen(t.app, { host: "127.0.0.1", port: 0, graceMs: 1000, log: t.log });
  base = `http://127.0.0.1:${server.port}`;
  token = (await uploader(t)).auth.authorization.slice("Bearer ".length);
});
afterAll(async () => {
  await server.stop("test over");
  await t.close();
});

const rows = (n: number) => [
  {
    profileId: PROFILE,
    scope: "day" as const,
    day: "2026-06-01",
    rows: Array.from({ length: n }, (_, i) => ({ k: `mining.blocks.B${i}`, v: i + 1 })),
  },
];
const noWait = async () => {};

describe("the reference uploader", () => {
  test("an envelope that does not match the wire schema is stopped on the client, naming the field", () => {
    const bad = { ...envelope(t, { counters: rows(1) }), batchId: "not-hex" };
    expect(() => prepareUpload(bad)).toThrow("/batchId");
  });

  test("a body over 8 KiB goes gzip-compressed and is applied", async () => {
    const prepared = prepareUpload(envelope(t, { counters: rows(400) }));
    expect(prepared.headers["content-encoding"]).toBe("gzip");
    const result = await new Uploader({ baseUrl: base, token }).sendPrepared(prepared);
    expect(result).toMatchObject({
      ok: true,
      attempts: 1,
      sealedDays: [],
      answer: { duplicate: false, applied: { rows: 400 } },
    });
  });

  test("an answer lost on the way back is re-sent with the same batchId and counted once", async () => {
    let calls = 0;
    // The first attempt reaches the service and is applied, but its answer never arrives.
    const losingFirstAnswer = Object.assign(
      async (input: RequestInfo | URL, init?: RequestInit) => {
        const res = await fetch(input, init);
        if (++calls === 1) throw new Error("connection reset");
        return res;
      },
      { preconnect: () => {} },
    );
    const result = await new Uploader({ baseUrl: base, token, fetch: losingFirstAnswer, sleep: noWait }).send(
      envelope(t, { counters: rows(3) }),
    );
    expect(result).toMatchObject({ ok: true, attempts: 2, answer: { duplicate: true, applied: { rows: 3 } } });
  });

  test("a refusal is final: not re-sent, and its code is reported", async () => {
    let calls = 0;
    const counting = Object.assign(
      async (input: RequestInfo | URL, init?: RequestInit) => (calls++, fetch(input, init)),
      { preconnect: () => {} },
    );
    const result = await new Uploader({ baseUrl: base, token, fetch: counting, sleep: noWait }).send(
      envelope(t, { counters: rows(1), categories: [] }),
    );
    expect(result).toMatchObject({ ok: false, status: 422, refusal: { code: "categories_mismatch" }, attempts: 1 });
    expect(calls).toBe(1);
  });

  test.each([
    [503, "database_unavailable", "5"],
    [429, "too_many_bodies", "1"],
    [408, "body_too_slow", null],
  ] as const)(
    "%d %s is retried (after the service's Retry-After), then the final answer is kept",
    async (status, code, retryAfter) => {
      const waits: number[] = [];
      let calls = 0;
      const refusedOnce = Object.assign(
        async (input: RequestInfo | URL, init?: RequestInit) => {
          if (++calls === 1)
            return Response.json(
              { error: { code, message: "not now" } },
              { status, headers: retryAfter ? { "retry-after": retryAfter } : {} },
            );
          return fetch(input, init);
        },
        { preconnect: () => {} },
      );
      const result = await new Uploader({
        baseUrl: base,
        token,
        fetch: refusedOnce,
        sleep: async (ms) => void waits.push(ms),
      }).send(envelope(t, { counters: rows(2) }));
      expect(result).toMatchObject({ ok: true, attempts: 2, answer: { duplicate: false } });
      // Without Retry-After, the uploader's own first backoff (250 ms).
      expect(waits).toEqual([retryAfter ? Number(retryAfter) * 1000 : 250]);
    },
  );
});
