// Boundary: what one account's export costs the service (issue 40). Each page of the CSV and JSON
// exports read every later row of the account (the CSV folded them all, then kept 2 000 lines; the
// JSON's keyset was read by a bitmap scan and sorted), so 1 000 000 day rows took 1 439 s and a health
// check waited 824 s behind them. Now a page reads its own rows and no others (counted here by the
// database's own EXPLAIN ANALYZE of each statement the export runs), other requests are served
// between pages, an account streams one export at a time and an instance EXPORTS_MAX_RUNNING.
// And a CSV cell never starts a spreadsheet formula.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql, type SQL } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, INSTALL_B, PROFILE, type Uploader } from "../support/uploads.ts";
import { rows, type Db } from "../../src/db/database.ts";
import { listen, type Listening } from "../../src/http/serve.ts";
import { csvField, csvStream } from "../../src/stats/export-csv.ts";
import { exportStream } from "../../src/stats/export.ts";
import { addDays } from "../../src/wire/day.ts";

// A fresh database and uploads of 15 000 rows take seconds on a busy machine.
setDefaultTimeout(60_000);

const TODAY = "2026-06-01";
const KEYS = 300;
const DAYS = 40;
/** Days a second install also wrote (the first KEYS keys), so groups of two rows straddle page ends. */
const SHARED_DAYS = 5;
const DAY_ROWS = KEYS * DAYS + KEYS * SHARED_DAYS;
const PAGE_ROWS = 200;

let t: TestApp;
let big: Uploader;
beforeAll(async () => {
  t = await testApp({
    settings: { devSignin: true, exportsMaxRunning: 2, exportPageRows: PAGE_ROWS },
    now: `${TODAY}T12:00:00Z`,
  });
  big = await uploader(t, { name: "Big_Exporter", zone: "UTC" });
  const days = (n: number) => Array.from({ length: n }, (_, i) => addDays(TODAY, -i));
  const block = (day: string, bump: number) => ({
    profileId: PROFILE,
    scope: "day" as const,
    day,
    rows: Array.from({ length: KEYS }, (_, i) => ({ k: `mining.block.B_${String(i).padStart(3, "0")}`, v: i + bump })),
  });
  for (const [install, n, bump] of [
    [undefined, DAYS, 1],
    [INSTALL_B, SHARED_DAYS, 7],
  ] as const) {
    const res = await big.send(
      envelope(t, { install, zone: { id: "UTC" }, counters: days(n).map((d) => block(d, bump)) }),
      { gzip: true },
    );
    expect(res.status).toBe(200);
  }
});
afterAll(() => t.close());

type Statement = { text: string; examined: number };

/**
 * The database handle, passing every statement through, and for each that reads counter_days
 * recording how many of its rows the statement examined: the database's own EXPLAIN ANALYZE of the
 * same statement in the same transaction (rows each scan of the table returned or filtered out).
 */
function counting(db: Db, log: Statement[]): Db {
  const dialect = (db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string } } }).dialect;
  type Plan = { "Relation Name"?: string; "Actual Rows": number; "Actual Loops": number; Plans?: Plan[] } & Record<
    string,
    unknown
  >;
  // Rows and rows removed are averages over the node's loops (rounded): their product, rounded.
  const examined = (p: Plan): number =>
    (p["Relation Name"] === "counter_days"
      ? Math.round(
          (p["Actual Rows"] +
            Number(p["Rows Removed by Filter"] ?? 0) +
            Number(p["Rows Removed by Index Recheck"] ?? 0)) *
            p["Actual Loops"],
        )
      : 0) + (p.Plans ?? []).reduce((sum, child) => sum + examined(child), 0);
  const wrap = (d: Db): Db =>
    new Proxy(d, {
      get(target, prop, receiver) {
        if (prop === "execute")
          return async (query: SQL) => {
            const text = dialect.sqlToQuery(query).sql;
            if (/\bcounter_days\b/.test(text) && /^\s*(with|select)\b/i.test(text)) {
              const [row] = await rows<Record<string, unknown>>(target, sql`explain (analyze, format json) ${query}`);
              const json = Object.values(row!)[0];
              const plan = (typeof json === "string" ? JSON.parse(json) : json) as { Plan: Plan }[];
              log.push({ text, examined: examined(plan[0]!.Plan) });
              if (process.env.DEBUG_PLAN && examined(plan[0]!.Plan) > 1000)
                console.log(
                  JSON.stringify(plan[0]!.Plan, (k, v) => (k === "Output" || (k === "Plans" && false) ? undefined : v)),
                );
            }
            return target.execute(query);
          };
        if (prop === "transaction")
          return (fn: (tx: Db) => Promise<unknown>, config?: unknown) =>
            (target.transaction as (f: (tx: Db) => Promise<unknown>, c?: unknown) => Promise<unknown>)(
              (tx) => fn(wrap(tx)),
              config,
            );
        return Reflect.get(target, prop, receiver);
      },
    });
  return wrap(db);
}

const read = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe("a page reads its own rows, whatever the account holds", () => {
  test("CSV: no statement reads more than its page, each (profile, key, day) of it whole", async () => {
    const log: Statement[] = [];
    const text = await read(csvStream(counting(t.db, log), big.uuid, PAGE_ROWS));
    const pages = Math.ceil(DAY_ROWS / PAGE_ROWS);
    // One statement a page: its PAGE_ROWS rows' keys in order, then each (profile, key, day) of
    // them read whole to be folded: a group holds at most 2 rows here (two installs), so a page
    // reads at most 2 x PAGE_ROWS + 1 rows (+ 1 for the rounding of EXPLAIN's per-loop averages),
    // and the export about twice the account.
    expect(Math.max(...log.map((s) => s.examined))).toBeLessThanOrEqual(2 * PAGE_ROWS + 2);
    const total = log.reduce((sum, s) => sum + s.examined, 0);
    expect(total).toBeLessThanOrEqual(2 * DAY_ROWS + pages);
    expect(log.length).toBeGreaterThanOrEqual(pages);
    expect(log.length).toBeLessThanOrEqual(pages + 1);
    // Pages never split a (profile, key, day): the same bytes as one page of every row.
    expect(text).toBe(await read(csvStream(t.db, big.uuid, 50_000)));
    expect(text.split("\r\n").length - 2).toBe(KEYS * DAYS);
  });

  test("JSON: each page of day rows reads that page, not every later row", async () => {
    const log: Statement[] = [];
    const deps = { ...t, db: counting(t.db, log) };
    const text = await read(await exportStream(deps, big.uuid, PAGE_ROWS));
    const doc = JSON.parse(text) as { dayRows: unknown[] };
    expect(doc.dayRows.length).toBe(DAY_ROWS);
    const pages = log.filter((s) => /from "counter_days"( t)? where/.test(s.text));
    expect(Math.max(...pages.map((s) => s.examined))).toBeLessThanOrEqual(PAGE_ROWS);
    expect(pages.length).toBe(Math.ceil(DAY_ROWS / PAGE_ROWS));
    // Same document, byte for byte, whatever the page size (each page's keyset read from its text).
    expect(await read(await exportStream(t, big.uuid, 50_000))).toBe(text);
  });
});

describe("exports at once", () => {
  test("one per account, answered at once; a few per instance; a finished or dropped download frees its slot", async () => {
    const others = [await uploader(t), await uploader(t)];
    const first = await t.request("/v1/stats/export.csv", { headers: big.auth });
    expect(first.status).toBe(200);
    // The same account again, as CSV or JSON: refused at once while the first downloads.
    for (const path of ["/v1/stats/export.csv", "/v1/stats/export"]) {
      const again = await t.request(path, { headers: big.auth });
      expect(again.status).toBe(409);
      expect(((await again.json()) as { error: { code: string } }).error.code).toBe("export_in_progress");
      expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Another account takes the instance's second slot; a third account finds none.
    const second = await t.request("/v1/stats/export.csv", { headers: others[0]!.auth });
    expect(second.status).toBe(200);
    const third = await t.request("/v1/stats/export", { headers: others[1]!.auth });
    expect(third.status).toBe(503);
    expect(((await third.json()) as { error: { code: string } }).error.code).toBe("server_busy");
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    // A download read to its end gives its slot back; so does one the client drops halfway.
    expect((await first.text()).length).toBeGreaterThan(DAY_ROWS * 20);
    const reader = second.body!.getReader();
    await reader.read();
    await reader.cancel();
    const after = await t.request("/v1/stats/export.csv", { headers: others[1]!.auth });
    expect(after.status).toBe(200);
    await after.text();
    // (In process, every JSON answer is read whole by the test app's OpenAPI check.)
    const again = await t.request("/v1/stats/export", { headers: big.auth });
    expect(again.status).toBe(200);
    await again.text();
    // A request the client gives up on before its body is read gives its slot back too.
    const aborted = new AbortController();
    const left = await t.request("/v1/stats/export.csv", { headers: big.auth, signal: aborted.signal });
    expect(left.status).toBe(200);
    aborted.abort();
    const next = await t.request("/v1/stats/export.csv", { headers: big.auth });
    expect(next.status).toBe(200);
    await next.body!.cancel();
  });
});

describe("over a socket, as the binary serves", () => {
  let server: Listening;
  beforeAll(() => {
    server = listen(t.app, { host: "127.0.0.1", port: 0, graceMs: 1000, log: t.log });
  });
  afterAll(() => server.stop("test over"));

  test("a health check is answered while a large export streams", async () => {
    // The client is another process (as in use), so its reading never pauses this process's server.
    // It downloads the CSV and, once the first bytes are in, asks for health on another connection.
    const client = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const [base, auth] = process.argv.slice(-2);
        const res = await fetch(base + "/v1/stats/export.csv", { headers: { authorization: auth } });
        const reader = res.body.getReader();
        let bytes = (await reader.read()).value.byteLength;
        let ended = false;
        const rest = (async () => { for (let c; !(c = await reader.read()).done; ) bytes += c.value.byteLength; ended = true; })();
        const health = await fetch(base + "/v1/health");
        const whileStreaming = !ended;
        await rest;
        console.log(JSON.stringify({ export: res.status, health: health.status, whileStreaming, bytes }));`,
        `http://127.0.0.1:${server.port}`,
        big.auth.authorization,
      ],
      { stdout: "pipe", stderr: "inherit" },
    );
    const seen = JSON.parse(await new Response(client.stdout).text()) as Record<string, number | boolean>;
    await client.exited;
    expect(seen.export).toBe(200);
    expect(seen.bytes).toBeGreaterThan(DAY_ROWS * 20);
    expect(seen.health).toBe(200);
    expect(seen.whileStreaming).toBe(true);
  });

  test("a client that hangs up frees its account's export", async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const gone = new AbortController();
    const res = await fetch(`${base}/v1/stats/export`, { headers: big.auth, signal: gone.signal });
    expect(res.status).toBe(200);
    await res.body!.getReader().read();
    gone.abort();
    // The server learns of the hang-up from the socket: ask until it has (409 until then).
    let status = 0;
    for (let i = 0; i < 200 && status !== 200; i++) {
      const again = await fetch(`${base}/v1/stats/export.csv`, { headers: big.auth });
      status = again.status;
      await again.body?.cancel();
      if (status === 409) await Bun.sleep(10);
    }
    expect(status).toBe(200);
  });
});

describe("a CSV cell never starts a spreadsheet formula", () => {
  test("text starting with = + - @ tab CR LF gets a leading quote; numbers and other text are written as they are", () => {
    const cases: [string | number, string][] = [
      ["=HYPERLINK(1)", `"'=HYPERLINK(1)"`],
      ["+A1", `"'+A1"`],
      ["-1+2", `"'-1+2"`],
      ["@SUM(A1)", `"'@SUM(A1)"`],
      ["\tx", `"'\tx"`],
      ["\rx", `"'\rx"`],
      ["\nx", `"'\nx"`],
      ['=a,"b"', `"'=a,""b"""`],
      // A key may hold `;` then `-` or `+`: quoted, so a spreadsheet splitting on `;` keeps it one cell.
      ["mining.block.a;-1+1", `"mining.block.a;-1+1"`],
      ["a\tb", `"a\tb"`],
      [-12, "-12"],
      ["-12", "-12"],
      ["+3", "+3"],
      ["-1.5", "-1.5"],
      ["Pomegranate", "Pomegranate"],
      ["mining.block.B_1", "mining.block.B_1"],
      ["2026-06-01", "2026-06-01"],
    ];
    expect(cases.map(([value]) => csvField(value))).toEqual(cases.map(([, field]) => field));
    // A parser reads the quote before a formula, and every other field unchanged.
    const line = `${cases.map(([value]) => csvField(value)).join(",")}\r\n`;
    const [back] = parse(line, { relax_quotes: false }) as string[][];
    expect(back).toEqual(
      cases.map(([value]) => {
        const text = String(value);
        return /^[=+\-@\t\r\n]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
      }),
    );
  });

  test("a key holding ;- arrives in the download as one cell, read back unchanged", async () => {
    const p = await uploader(t, { zone: "UTC" });
    const res = await p.send(
      envelope(t, {
        zone: { id: "UTC" },
        counters: [
          {
            profileId: PROFILE,
            scope: "day",
            day: TODAY,
            rows: [
              { k: "mining.block.a;-1+1", v: 3 },
              { k: "mining.block.B_000", v: -4 },
            ],
          },
        ],
      }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const text = await (await t.request("/v1/stats/export.csv", { headers: p.auth })).text();
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(3);
    // Split at every comma or semicolon outside quotes (a spreadsheet's separator in many locales),
    // no cell starts a formula: each starts with a letter, a digit, a quote, or is a number.
    for (const line of lines.slice(1))
      for (const cell of line.match(/"(?:[^"]|"")*"|[^,;]+/g) ?? [])
        expect(/^[=+\-@\t\r\n]/.test(cell) && !/^-?\d+$/.test(cell)).toBe(false);
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => [r.key, r.value]).sort()).toEqual([
      ["mining.block.B_000", "-4"],
      ["mining.block.a;-1+1", "3"],
    ]);
  });
});
