// Boundary: request bodies that arrive slowly, or not at all (issue 40). Every body read has a
// deadline and a minimum rate (408 body_too_slow, the body abandoned, the connection closed); a
// body reserves its declared length, not its route's cap; small routes read from a pool of their
// own; one body in flight per signed-in account and BODY_READS_PER_ADDRESS per address.
// The deadlines are real time (they guard sockets), so each test sets them small.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp, type TestAppOptions } from "../support/app.ts";
import { envelope as emptyEnvelope, PROFILE, uploader, type Uploader } from "../support/uploads.ts";
import { report } from "../reports/report.ts";

setDefaultTimeout(30_000);

// One database for the file (a fresh one costs seconds): each test builds its own app over it, with
// its own settings and its own accounts. What a body holds in flight is kept by the app, not the
// database, so no test's stalls reach another's.
let file: TestApp;
beforeAll(async () => {
  file = await testApp();
});
afterAll(() => file.close());
const opened: TestApp[] = [];
afterEach(async () => {
  for (const s of stalls.splice(0)) s.end();
  await Promise.all(opened.splice(0).map((t) => t.close()));
});
async function app(settings: TestAppOptions["settings"] = {}) {
  const t = await testApp({
    database: file.database,
    settings: { devSignin: true, authRateLimit: 0, reportRateLimit: 0, ...settings },
  });
  opened.push(t);
  return t;
}

const enc = (s: string) => new TextEncoder().encode(s);
const json = { "content-type": "application/json" };
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

type Stall = {
  stream: ReadableStream<Uint8Array>;
  /** Resolves once the server has read the first bytes and waits for more. */
  reading: Promise<void>;
  cancelled: () => boolean;
  end: () => void;
};
const stalls: Stall[] = [];
/** A body that sends `first` and then nothing until ended (or until the server cancels it). */
function stall(first = "{"): Stall {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const reading = Promise.withResolvers<void>();
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(enc(first));
    },
    // Asked for more once the first bytes are taken.
    pull: () => reading.resolve(),
    cancel() {
      cancelled = true;
    },
  });
  const s = {
    stream,
    reading: reading.promise,
    cancelled: () => cancelled,
    end: () => {
      try {
        controller.close();
      } catch {
        // already cancelled or ended
      }
    },
  };
  stalls.push(s);
  return s;
}

/** A valid upload of one counter row on the clock's day. */
const envelope = (t: TestApp) =>
  emptyEnvelope(t, {
    counters: [
      {
        profileId: PROFILE,
        scope: "day",
        day: new Date(t.clock.now()).toISOString().slice(0, 10),
        rows: [{ k: "mining.blocks.stone", v: 1 }],
      },
    ],
  });

/** The request: a body declared 900 000 bytes long that sends `{` and then nothing. */
function stalledPost(t: TestApp, path: string, headers: Record<string, string> = {}, length = 900_000) {
  const s = stall();
  const answer = t.app.handle(
    new Request(`http://localhost${path}`, {
      method: "POST",
      body: s.stream,
      headers: { ...json, "content-length": String(length), ...headers },
    }),
  );
  return { ...s, answer };
}

/** The answer if it comes within `ms`, else null (a bound so a blocked request fails, not hangs). */
const within = <T>(p: Promise<T>, ms = 5_000) => Promise.race([p, Bun.sleep(ms).then(() => null)]);

/** Waits until each stalled request is being read, or has been answered (refused). */
const settle = (...open: { reading: Promise<void>; answer: Promise<Response> }[]) =>
  Promise.all(open.map((s) => Promise.race([s.reading, s.answer])));

describe("every body read has a deadline", () => {
  test("a stalled upload is answered 408 body_too_slow by the deadline; the body is abandoned, the connection closed", async () => {
    const t = await app({ bodyReadTimeoutMs: 300, bodyMinBytesPerSecond: 0 });
    const u = await uploader(t);
    const s = stalledPost(t, "/v1/stats/ingest", u.auth);
    const res = await s.answer;
    expect(res.status).toBe(408);
    expect(await errorOf(res)).toEqual({ code: "body_too_slow", message: "the body did not arrive within 0.3 s" });
    expect(res.headers.get("connection")).toBe("close");
    expect(s.cancelled()).toBe(true);
    // Nothing is kept for it: the account's next upload is read.
    expect((await u.send(envelope(t))).status).toBe(200);
  });

  test("a body trickling under BODY_MIN_BYTES_PER_SECOND is cut once the grace is over, long before the deadline", async () => {
    // Grace: a fifth of 2 s. The trickle: 20 bytes every 50 ms (400 bytes a second) against 2 000,
    // so it falls behind at about 0.5 s.
    const t = await app({ bodyReadTimeoutMs: 2_000, bodyMinBytesPerSecond: 2_000 });
    let timer: ReturnType<typeof setInterval> | undefined;
    let cancelled = false;
    const trickle = new ReadableStream<Uint8Array>({
      start(c) {
        timer = setInterval(() => c.enqueue(enc(" ".repeat(20))), 50);
      },
      cancel() {
        cancelled = true;
        clearInterval(timer);
      },
    });
    const res = await t.app.handle(
      new Request("http://localhost/v1/reports/general", {
        method: "POST",
        body: trickle,
        headers: { ...json, "content-length": "60000" },
      }),
    );
    clearInterval(timer);
    expect(res.status).toBe(408);
    expect(await errorOf(res)).toEqual({
      code: "body_too_slow",
      message: "the body arrived slower than 2000 bytes a second",
    });
    expect(cancelled).toBe(true);
  });

  test("a slow body above the minimum rate is read whole", async () => {
    // Grace 1 s, then 1 000 bytes a second; the body: 6 000 bytes at 3 000 bytes a second, sent by
    // the clock (each tick sends what is due by then), so a loaded machine that runs the ticks late
    // still sends at that rate.
    const t = await app({ bodyReadTimeoutMs: 20_000, bodyMinBytesPerSecond: 1_000 });
    const text = enc(JSON.stringify(report()).padEnd(6_000));
    let at = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const started = performance.now();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        timer = setInterval(() => {
          const due = Math.min(text.length, Math.floor(((performance.now() - started) / 1_000) * 3_000));
          if (due > at) c.enqueue(text.slice(at, due));
          at = Math.max(at, due);
          if (at >= text.length) {
            clearInterval(timer);
            c.close();
          }
        }, 20);
      },
      // A refused body is cancelled: the ticks stop with it (a tick into a closed stream throws in
      // whatever test runs next in this process).
      cancel() {
        clearInterval(timer);
      },
    });
    try {
      const res = await t.app.handle(
        new Request("http://localhost/v1/reports/general", {
          method: "POST",
          body,
          headers: { ...json, "content-length": String(text.length) },
        }),
      );
      expect(res.status).toBe(200);
    } finally {
      clearInterval(timer);
    }
  });

  test.each([
    ["POST", "/v1/auth/challenge", false],
    ["POST", "/v1/auth/dev", false],
    ["POST", "/v1/stats/ingest", true],
    ["PATCH", "/v1/stats/settings", true],
    ["POST", "/v1/stats/share/rotate", true],
    ["POST", "/v1/reports/general", false],
  ] as const)("%s %s answers a stalled body 408 body_too_slow", async (method, path, signedIn) => {
    const t = await app({ bodyReadTimeoutMs: 200 });
    const auth = signedIn ? (await uploader(t)).auth : {};
    const s = stall();
    const res = await t.app.handle(
      new Request(`http://localhost${path}`, {
        method,
        body: s.stream,
        headers: { ...json, "content-length": "2000", ...auth },
      }),
    );
    expect(res.status).toBe(408);
    expect((await errorOf(res)).code).toBe("body_too_slow");
  });

  test("the maintainers' sign-in form likewise", async () => {
    const t = await app({ bodyReadTimeoutMs: 200, adminToken: "a".repeat(32) });
    const s = stall("token=");
    const res = await t.app.handle(
      new Request("http://localhost/admin/login", {
        method: "POST",
        body: s.stream,
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": "2000" },
      }),
    );
    expect(res.status).toBe(408);
  });

  test("on a socket: 408 with Connection: close, and the connection is closed", async () => {
    const t = await app({ bodyReadTimeoutMs: 300 });
    const u = await uploader(t);
    t.app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const port = t.app.server!.port!;
      let received = "";
      const closed = Promise.withResolvers<void>();
      const socket = await Bun.connect({
        hostname: "127.0.0.1",
        port,
        socket: {
          data: (_s, d) => {
            received += d.toString();
          },
          close: () => closed.resolve(),
        },
      });
      socket.write(
        `POST /v1/stats/ingest HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
          `Authorization: ${u.auth.authorization}\r\nContent-Length: 900000\r\n\r\n{`,
      );
      expect(await within(closed.promise)).toBeUndefined();
      expect(received).toStartWith("HTTP/1.1 408");
      expect(received.toLowerCase()).toContain("connection: close");
      expect(received).toContain('"code":"body_too_slow"');
    } finally {
      await t.app.stop(true);
    }
  });
});

describe("slow bodies do not block anyone else", () => {
  const probes = async (t: TestApp, other: Uploader) => ({
    signIn: await within(
      t.postJson("/v1/auth/dev", { uuid: "c".repeat(32), name: "Probe", zone: "Europe/Berlin" }),
    ).then((r) => r?.status),
    settings: await within(
      t.request("/v1/stats/settings", {
        method: "PATCH",
        headers: { ...other.auth, ...json },
        body: JSON.stringify({ settingsVersion: 2, findable: true }),
      }),
    ).then((r) => r?.status),
    report: await within(
      t.postJson("/v1/reports/general", report(), { headers: { "x-forwarded-for": "198.51.100.99" } }),
    ).then((r) => r?.status),
    upload: await within(other.send(envelope(t))).then((r) => r?.status),
  });

  test("four stalled uploads of four accounts (the issue's request): sign-in, settings, a report and another upload are answered", async () => {
    // Every limit at its default but the deadline, so the stalls outlast the probes.
    const t = await app({ bodyReadTimeoutMs: 60_000, bodyMinBytesPerSecond: 0, trustProxy: true });
    const attackers = await Promise.all([1, 2, 3, 4].map(() => uploader(t)));
    const other = await uploader(t);
    const open = attackers.map((a, i) =>
      stalledPost(t, "/v1/stats/ingest", { ...a.auth, "x-forwarded-for": `203.0.113.${i}` }),
    );
    await settle(...open);
    expect(await probes(t, other)).toEqual({ signIn: 200, settings: 200, report: 200, upload: 200 });
    for (const s of open) s.end();
    // Ended early, each is an incomplete JSON text.
    for (const s of open) expect((await s.answer).status).toBe(400);
  });

  test("stalled reports from 20 addresses, many each: past BODY_READS_PER_ADDRESS they are refused at once; the probes are answered", async () => {
    // Scaled down from the 600 (30 an hour from 20 addresses): 10 from each of 20, a budget
    // of 64 reports' caps; before, they filled it and everything else waited.
    const t = await app({
      bodyReadTimeoutMs: 60_000,
      bodyMinBytesPerSecond: 0,
      trustProxy: true,
      bodyDecodeBudgetBytes: 64 * 64 * 1024,
      bodyReadsPerAddress: 2,
    });
    const other = await uploader(t);
    const open = Array.from({ length: 200 }, (_, i) =>
      stalledPost(t, "/v1/reports/general", { "x-forwarded-for": `203.0.113.${i % 20}` }, 64 * 1024),
    );
    await settle(...open);
    expect(await probes(t, other)).toEqual({ signIn: 200, settings: 200, report: 200, upload: 200 });
    const refused = await Promise.all(
      open.map((s) => within(s.answer, 1_000).then((r) => (r ? `${r.status} ${r.headers.get("retry-after")}` : null))),
    );
    expect(refused.filter((r) => r === "429 1")).toHaveLength(160);
    expect(refused.filter((r) => r === null)).toHaveLength(40);
  });

  test("small routes read from their own pool: with the upload budget full and no queue, sign-in and settings are answered", async () => {
    const t = await app({
      bodyReadTimeoutMs: 60_000,
      bodyMinBytesPerSecond: 0,
      bodyDecodeBudgetBytes: 64 * 1024,
      bodyDecodeQueue: 0,
    });
    const other = await uploader(t);
    await settle(stalledPost(t, "/v1/reports/general", {}, 64 * 1024));
    const busy = await t.postJson("/v1/reports/general", report(), {
      headers: { "content-length": String(JSON.stringify(report()).length) },
    });
    expect(busy.status).toBe(503);
    expect((await errorOf(busy)).code).toBe("server_busy");
    const signIn = await within(
      t.postJson("/v1/auth/dev", { uuid: "c".repeat(32), name: "Probe", zone: "Europe/Berlin" }),
    );
    expect(signIn?.status).toBe(200);
    const settings = await within(
      t.request("/v1/stats/settings", {
        method: "PATCH",
        headers: { ...other.auth, ...json },
        body: JSON.stringify({ settingsVersion: 2, findable: true }),
      }),
    );
    expect(settings?.status).toBe(200);
  });
});

describe("a body reserves what it holds, not its route's cap", () => {
  // A budget of 1 MiB and no queue: what does not fit is told 503 server_busy at once.
  const tight = {
    bodyDecodeBudgetBytes: 1024 * 1024,
    bodyDecodeQueue: 0,
    bodyReadTimeoutMs: 60_000,
    bodyMinBytesPerSecond: 0,
  };
  const plainUpload = (t: TestApp, u: Uploader, text: string) =>
    t.app.handle(
      new Request("http://localhost/v1/stats/ingest", {
        method: "POST",
        body: text,
        headers: { ...json, ...u.auth, "content-length": String(enc(text).byteLength) },
      }),
    );

  test("an upload declaring 600 000 bytes leaves room for one of 300 000, not for another of 600 000", async () => {
    const t = await app(tight);
    const [a, b, c] = await Promise.all([uploader(t), uploader(t), uploader(t)]);
    await settle(stalledPost(t, "/v1/stats/ingest", a.auth, 600_000));
    // Before, the stall reserved the 8 MiB cap (all of the budget) and this was told server_busy.
    const fits = await plainUpload(t, b, JSON.stringify({ pad: "x".repeat(300_000) }));
    expect(fits.status).toBe(413);
    expect((await errorOf(fits)).code).toBe("gzip_required");
    const over = stalledPost(t, "/v1/stats/ingest", c.auth, 600_000);
    const refused = await over.answer;
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).code).toBe("server_busy");
  });

  test("a gzip body grows its reservation as it inflates: one that would inflate past the room left is told server_busy", async () => {
    const t = await app(tight);
    const [a, b] = await Promise.all([uploader(t), uploader(t)]);
    const held = stalledPost(t, "/v1/stats/ingest", a.auth, 600_000);
    await settle(held);
    const gzipUpload = (decodedBytes: number) => {
      const body = Bun.gzipSync(enc(JSON.stringify({ pad: "x".repeat(decodedBytes) })));
      return t.app.handle(
        new Request("http://localhost/v1/stats/ingest", {
          method: "POST",
          body,
          headers: { ...json, ...b.auth, "content-encoding": "gzip", "content-length": String(body.byteLength) },
        }),
      );
    };
    // A few KiB on the wire either way; 300 KB inflated fits beside the stall, 600 KB does not.
    const fits = await gzipUpload(300_000);
    expect(fits.status).toBe(400);
    expect((await errorOf(fits)).code).toBe("invalid_body");
    const over = await gzipUpload(600_000);
    expect(over.status).toBe(503);
    expect(over.headers.get("retry-after")).toBe("1");
    expect((await errorOf(over)).code).toBe("server_busy");
    // Alone, it may inflate past the budget (as a body larger than the budget is let in alone).
    held.end();
    await held.answer;
    expect((await gzipUpload(1_200_000)).status).toBe(400);
  });
});

describe("bodies in flight per sender", () => {
  test("one body in flight per signed-in account: a second is told 429 too_many_bodies at once; another account is read", async () => {
    const t = await app({ bodyReadTimeoutMs: 60_000, bodyMinBytesPerSecond: 0, trustProxy: true });
    const [a, b] = await Promise.all([uploader(t), uploader(t)]);
    const first = stalledPost(t, "/v1/stats/ingest", { ...a.auth, "x-forwarded-for": "203.0.113.1" });
    await settle(first);
    const second = await within(a.send(envelope(t)));
    expect(second?.status).toBe(429);
    expect(second?.headers.get("retry-after")).toBe("1");
    expect((await errorOf(second!)).code).toBe("too_many_bodies");
    expect((await within(b.send(envelope(t))))?.status).toBe(200);
    first.end();
    expect((await first.answer).status).toBe(400);
    // Once the first is answered, the account's next body is read.
    expect((await a.send(envelope(t))).status).toBe(200);
  });

  test("BODY_READS_PER_ADDRESS bodies in flight per address (an IPv6 /64 as one); beyond, 429 at once; another address is read", async () => {
    const t = await app({
      bodyReadTimeoutMs: 60_000,
      bodyMinBytesPerSecond: 0,
      trustProxy: true,
      bodyReadsPerAddress: 2,
    });
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    const open = [
      stalledPost(t, "/v1/reports/general", from("2001:db8:1:2::1"), 1000),
      stalledPost(t, "/v1/reports/general", from("2001:db8:1:2::2"), 1000),
    ];
    await settle(...open);
    const third = await within(t.postJson("/v1/reports/general", report(), { headers: from("2001:db8:1:2::3") }));
    expect(third?.status).toBe(429);
    expect((await errorOf(third!)).code).toBe("too_many_bodies");
    const elsewhere = await within(t.postJson("/v1/reports/general", report(), { headers: from("2001:db8:1:3::1") }));
    expect(elsewhere?.status).toBe(200);
    for (const s of open) s.end();
    await Promise.all(open.map((s) => s.answer));
    expect((await t.postJson("/v1/reports/general", report(), { headers: from("2001:db8:1:2::3") })).status).toBe(200);
  });
});
