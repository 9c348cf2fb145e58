// Boundary: request bodies from anyone on the internet (issue 22, finding 1). A body is read only
// by a route that takes one, after the address rate limit, the token guard and the route's own
// limit; under the route's own decoded cap; refused before JSON.parse when it nests deeper than
// MAX_JSON_DEPTH; and only so many bodies decode at once. Rate limits count an IPv6 /64 as one.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { uploader, type Uploader } from "../support/uploads.ts";
import { report } from "../reports/report.ts";
import { addressSubject } from "../../src/http/client-address.ts";
import { nestsDeeperThan } from "../../src/http/body-decode.ts";

setDefaultTimeout(30_000);

// One app and database for the file (a fresh database costs seconds). A test that needs other
// settings builds a second app over the same database (`database: t.database`), and a test whose
// rate-limit counts must start at zero runs on a day of its own: counts are kept per fixed window,
// so another test's window never adds to its count. A test that signs its player out signs in its own.
let t: TestApp;
let u: Uploader;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, authRateLimit: 0, reportRateLimit: 0 } });
  u = await uploader(t);
});
afterAll(() => t.close());

const gzipJson = { "content-type": "application/json", "content-encoding": "gzip" };
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string; path?: string } }).error;
/** The request: 8 KB on the wire, 4 million `[` then 4 million `]` once inflated (compressed once). */
let bomb: Uint8Array<ArrayBuffer> | undefined;
const bracketBomb = () =>
  (bomb ??= Bun.gzipSync(new TextEncoder().encode("[".repeat(4_000_000) + "]".repeat(4_000_000)), { level: 9 }));

/** method, path, whether it needs the token. */
const routes: [string, string, boolean][] = [
  ["POST", "/v1/auth/challenge", false],
  ["POST", "/v1/auth/verify", false],
  ["POST", "/v1/auth/dev", false],
  ["POST", "/v1/stats/ingest", true],
  ["PATCH", "/v1/stats/settings", true],
  ["POST", "/v1/stats/me/page-token", true],
  ["POST", "/v1/stats/share/rotate", true],
  ["POST", "/v1/reports/general", false],
];

const send = (method: string, path: string, auth: boolean, text: string) =>
  t.request(path, { method, body: Bun.gzipSync(text), headers: { ...gzipJson, ...(auth ? u.auth : {}) } });

describe("nesting depth", () => {
  // 1 000 deep fits every route's decoded cap (sign-in's 4 KiB too), so the depth is what refuses it.
  test.each(routes)(
    "%s %s refuses a body nested 1 000 deep inside a field with body_too_deep",
    async (method, path, auth) => {
      const depth = 1_000;
      const res = await send(method, path, auth, `{"schema":1,"x":${"[".repeat(depth)}${"]".repeat(depth)}}`);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toEqual({
        code: "body_too_deep",
        message: "the body nests arrays and objects deeper than 32 levels",
      });
    },
  );

  test.each(routes)(
    "%s %s refuses a root nested 33 deep, and judges one 32 deep by its schema",
    async (method, path, auth) => {
      expect((await errorOf(await send(method, path, auth, "[".repeat(33) + "]".repeat(33)))).code).toBe(
        "body_too_deep",
      );
      const fits = await errorOf(await send(method, path, auth, "[".repeat(32) + "]".repeat(32)));
      expect(fits).toEqual({ code: "invalid_body", message: "/: Expected object", path: "/" });
    },
  );

  test("brackets inside strings do not count, escaped quotes do not end a string", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(nestsDeeperThan(enc(JSON.stringify({ a: "[".repeat(100), b: '\\"[[[[' })), 2)).toBe(false);
    expect(nestsDeeperThan(enc(`{"a":"\\\\"}` + "[[["), 3)).toBe(false);
    expect(nestsDeeperThan(enc(`{"a":"\\\\",` + `"b":[[[1]]]}`), 3)).toBe(true);
  });

  test("the issue's request, signed in: 8 KB of gzip, 8 MB of brackets, refused by the scan", async () => {
    const res = await t.request("/v1/stats/ingest", {
      method: "POST",
      body: bracketBomb(),
      headers: { ...gzipJson, ...u.auth },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("body_too_deep");
  });

  test("ingest refuses two million faulty rows by the first one", async () => {
    const rows = `[${Array(20_000).fill("{}").join(",")}]`;
    const blocks = Array(100)
      .fill(`{"profileId":"${"1".repeat(32)}","scope":"day","day":"2026-06-01","rows":${rows}}`)
      .join(",");
    const res = await send("POST", "/v1/stats/ingest", true, `{"schema":1,"counters":[${blocks}]}`);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).path).toBe("/batchId");
  });
});

describe("the caller is known before the body is read", () => {
  test("the issue's bomb to ingest without a token answers 401 and is never read", async () => {
    const req = new Request("http://localhost/v1/stats/ingest", {
      method: "POST",
      body: bracketBomb(),
      headers: gzipJson,
    });
    const res = await t.app.handle(req);
    expect(res.status).toBe(401);
    expect(req.bodyUsed).toBe(false);
  });

  test("with a token that is not valid, likewise", async () => {
    const req = new Request("http://localhost/v1/stats/ingest", {
      method: "POST",
      body: "not even gzip",
      headers: { ...gzipJson, authorization: "Bearer nope" },
    });
    expect((await t.app.handle(req)).status).toBe(401);
    expect(req.bodyUsed).toBe(false);
  });

  test("sign-in over its rate limit answers 429 without reading the body", async () => {
    const limited = await testApp({
      database: t.database,
      settings: { authRateLimit: 1 },
      now: "2026-06-02T12:00:00Z",
    });
    try {
      expect((await limited.postJson("/v1/auth/challenge", {})).status).toBe(200);
      const req = new Request("http://localhost/v1/auth/challenge", {
        method: "POST",
        body: bracketBomb(),
        headers: gzipJson,
      });
      const res = await limited.app.handle(req);
      expect(res.status).toBe(429);
      expect(req.bodyUsed).toBe(false);
    } finally {
      await limited.close();
    }
  });

  test("a report over its rate limit, or for an unknown tool, is refused without reading the body", async () => {
    const limited = await testApp({
      database: t.database,
      settings: { reportRateLimit: 1 },
      now: "2026-06-03T12:00:00Z",
    });
    try {
      expect((await limited.postJson("/v1/reports/general", report())).status).toBe(200);
      for (const [app, path, status] of [
        [limited, "/v1/reports/general", 429],
        [t, "/v1/reports/nosuchtool", 404],
      ] as const) {
        const req = new Request(`http://localhost${path}`, { method: "POST", body: bracketBomb(), headers: gzipJson });
        expect((await app.app.handle(req)).status).toBe(status);
        expect(req.bodyUsed).toBe(false);
      }
    } finally {
      await limited.close();
    }
  });

  test("a route that takes no body reads none", async () => {
    // Its own player: signing out every session would leave the file's player signed out.
    const own = await uploader(t);
    for (const [method, path] of [
      ["DELETE", "/v1/stats/share"],
      ["DELETE", "/v1/auth/sessions"],
    ]) {
      const req = new Request(`http://localhost${path}`, {
        method,
        body: "not even gzip",
        headers: { ...gzipJson, ...own.auth },
      });
      expect((await t.app.handle(req)).status).toBe(200);
      expect(req.bodyUsed).toBe(false);
    }
  });
});

describe("each route's decoded cap", () => {
  test("sign-in takes a few KiB: 5 KiB of padding inflated from a small gzip is refused 413", async () => {
    const padded = JSON.stringify({ uuid: "a".repeat(32), name: "Someone", zone: "Europe/Berlin" }).replace(
      "{",
      `{${" ".repeat(5000)}`,
    );
    const res = await t.request("/v1/auth/dev", { method: "POST", body: Bun.gzipSync(padded), headers: gzipJson });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe("body_too_large");
    const plain = await t.request("/v1/auth/dev", {
      method: "POST",
      body: padded,
      headers: { "content-type": "application/json" },
    });
    expect(plain.status).toBe(413);
  });

  test("a bug report takes 64 KiB: 70 KiB is refused 413, 60 KiB is received", async () => {
    const padded = (kib: number) => JSON.stringify(report()).replace("{", `{${" ".repeat(kib * 1024)}`);
    const over = await t.postJson("/v1/reports/general", padded(70), { gzip: true });
    expect(over.status).toBe(413);
    const under = await t.postJson("/v1/reports/general", padded(60), { gzip: true });
    expect(under.status).toBe(200);
  });

  test("an upload may still be megabytes once inflated (MAX_DECODED_BODY_BYTES)", async () => {
    const text = JSON.stringify({ schema: 1, pad: "x".repeat(2 * 1024 * 1024) });
    const res = await send("POST", "/v1/stats/ingest", true, text);
    // Read whole and judged by its schema, not refused for its size.
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("invalid_body");
  });
});

describe("bodies decoding at once", () => {
  test("past BODY_DECODE_BUDGET_BYTES and a full queue, a body is told 503 server_busy; room comes back", async () => {
    const busy = await testApp({
      database: t.database,
      settings: {
        bodyDecodeBudgetBytes: 64 * 1024,
        bodyDecodeQueue: 0,
        reportMaxBodyBytes: 64 * 1024,
        reportRateLimit: 0,
      },
    });
    try {
      // A report whose body trickles in holds the whole budget (its cap is 64 KiB) until it ends.
      let finish!: () => void;
      const slow = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode(JSON.stringify(report()).slice(0, 10)));
          finish = () => {
            c.enqueue(new TextEncoder().encode(JSON.stringify(report()).slice(10)));
            c.close();
          };
        },
      });
      const first = busy.app.handle(
        new Request("http://localhost/v1/reports/general", {
          method: "POST",
          body: slow,
          headers: { "content-type": "application/json" },
        }),
      );
      await Bun.sleep(0);
      const refused = await busy.postJson("/v1/reports/general", report());
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect((await errorOf(refused)).code).toBe("server_busy");
      finish();
      expect((await first).status).toBe(200);
      expect((await busy.postJson("/v1/reports/general", report())).status).toBe(200);
    } finally {
      await busy.close();
    }
  });

  test("with room in the queue, the second body waits its turn instead", async () => {
    const queued = await testApp({
      database: t.database,
      settings: {
        bodyDecodeBudgetBytes: 64 * 1024,
        bodyDecodeQueue: 4,
        reportMaxBodyBytes: 64 * 1024,
        reportRateLimit: 0,
      },
    });
    try {
      let finish!: () => void;
      const slow = new ReadableStream<Uint8Array>({
        start(c) {
          finish = () => {
            c.enqueue(new TextEncoder().encode(JSON.stringify(report())));
            c.close();
          };
        },
      });
      const first = queued.app.handle(
        new Request("http://localhost/v1/reports/general", {
          method: "POST",
          body: slow,
          headers: { "content-type": "application/json" },
        }),
      );
      await Bun.sleep(0);
      let secondDone = false;
      const second = queued.postJson("/v1/reports/general", report()).then((r) => ((secondDone = true), r));
      await Bun.sleep(5);
      expect(secondDone).toBe(false);
      finish();
      expect((await first).status).toBe(200);
      expect((await second).status).toBe(200);
    } finally {
      await queued.close();
    }
  });
});

describe("rate limits per IPv6 /64", () => {
  test("addresses map to their subject", () => {
    expect(addressSubject("203.0.113.7")).toBe("203.0.113.7");
    expect(addressSubject("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressSubject("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:DB8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:0db8:0001:0002:0:0:0:9")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressSubject("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  test("a one-minute limit tidying its old windows leaves the hour-long report limit's counts alone", async () => {
    const limited = await testApp({
      database: t.database,
      settings: { reportRateLimit: 1, authRateLimit: 100 },
      now: "2026-06-01T12:00:00Z",
    });
    try {
      expect((await limited.postJson("/v1/reports/general", report())).status).toBe(200);
      limited.clock.advance(5 * 60_000);
      // The first sign-in request of a new minute tidies the sign-in limit's old windows.
      expect((await limited.postJson("/v1/auth/challenge", {})).status).toBe(200);
      expect((await limited.postJson("/v1/reports/general", report())).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  test("two addresses of one /64 share the sign-in limit; another /64 has its own", async () => {
    const limited = await testApp({
      database: t.database,
      settings: { authRateLimit: 2, trustProxy: true },
      now: "2026-06-04T12:00:00Z",
    });
    try {
      const from = (ip: string) => limited.postJson("/v1/auth/challenge", {}, { headers: { "x-forwarded-for": ip } });
      expect((await from("2001:db8:1:2::1")).status).toBe(200);
      expect((await from("2001:db8:1:2::2")).status).toBe(200);
      expect((await from("2001:db8:1:2:ffff:ffff:ffff:ffff")).status).toBe(429);
      expect((await from("2001:db8:1:3::1")).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
