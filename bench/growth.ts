// Cost against size: the compiled binary and the stats jobs on Postgres databases holding 1M and 10M
// day rows of realistic history (bench/growth-fill.ts; 50M with --sizes 1m,10m,50m, ~10+ GB). For
// each size, on a copy of the size's template database: one run of each stats job with what it
// moved (one day is due for each, as on any day), and a second run with nothing due; ingest to
// existing accounts with 16 clients, live (today x 600 keys) and catch-up (6 closed days x 100
// keys), rows/s, p50/p99 at saturation, service and Postgres CPU per upload, beside the raw unnest
// upsert of the same rows into the same full table; /u/<name> at 90 and 365 days and lifetime
// totals of a typical and of the large account; export and erasure of the large account; database
// bytes per day row. One table of cost against size, then JSON. Asserts nothing.
//   bun run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun bench/growth.ts [dist/tally] [--sizes 1m,10m] [--uploads 40] [--warmup 60] [--pool 20]
//   (--fill: only make the sizes' missing templates)
import postgres from "postgres";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../src/config.ts";
import { connectPostgres } from "../src/db/connect-postgres.ts";
import { migrate } from "../src/db/migrate.ts";
import { systemClock } from "../src/clock.ts";
import { statsJobs } from "../src/stats/stats.jobs.ts";
import { addDays, dayIn } from "../src/wire/day.ts";
import type { Envelope } from "../src/wire/envelope.ts";
import { databaseUrlFor } from "../test/support/db.ts";
import { accountName, accountUuid, ensureTemplate, growthKeys, growthSizes, templateName } from "./growth-fill.ts";
import { Uploader, prepareUpload, type PreparedUpload } from "./uploader.ts";
import { cpuByThread, cpuOf, postgresCpu, untilHealthy } from "./process.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const binary = resolve(
  args.find((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1]!.startsWith("--"))) ?? "dist/tally",
);
const sizes = flag("--sizes", "1m,10m")
  .split(",")
  .map((label) => growthSizes.find((s) => s.label === label) ?? Promise.reject(new Error(`no size ${label}`)));
const uploadsPerClient = Number(flag("--uploads", "40"));
/**
 * Untimed uploads per client before each ingest phase (--warmup 0: time a cold process). A fresh
 * process's JIT compiles for its first ~1 500 uploads (826 DFG and FTL compiles, 1.5 s of CPU, with
 * BUN_JSC_reportDFGCompileTimes); 10 per client left most of that inside the timed uploads.
 */
const warmups = Number(flag("--warmup", "60"));
const CLIENTS = 16;
/** The service's DATABASE_POOL_MAX (--pool). */
const POOL = Number(flag("--pool", "20"));
const adminUrl = loadConfig().databaseUrl;
if (!adminUrl) {
  console.log("bench/growth.ts: skipped, it measures Postgres; set DATABASE_URL");
  process.exit(0);
}
const ZONES = ["UTC", "Europe/Berlin", "America/New_York"];
const zoneOf = (a: number) => ZONES[a % ZONES.length]!;
const profileOf = (a: number) => new Bun.CryptoHasher("md5").update(`p${a}_1`).digest("hex");
/** The account's first install, as the fill names it. */
const installOf = (a: number) => new Bun.CryptoHasher("md5").update(`i${a}_1`).digest("hex");
const hex = (n: number) => n.toString(16).padStart(32, "0");
const round = (x: number) => Math.round(x * 10) / 10;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const log = (line: string) => console.error(line);
/** CPU seconds of a process's JIT compiler threads (JSC's "JITWorker"). */
const jitCpu = (pid: number) => cpuByThread(pid).get("JITWorker") ?? 0;

/** Client c's account: accounts 2..17 (account 1 is the large one). */
const clientAccount = (c: number) => c + 2;

/** Live: the account's today x 600 keys, again and again. Catch-up: 6 closed days x 100 keys. */
function envelope(c: number, u: number, live: boolean, batchId: string): Envelope {
  const a = clientAccount(c);
  const today = dayIn(zoneOf(a), Date.now());
  const profile = profileOf(a);
  const blocks = live
    ? [{ day: today, keys: growthKeys.slice(0, 600) }]
    : Array.from({ length: 6 }, (_, d) => ({
        day: addDays(today, -(3 + ((u * 6 + d) % 18))),
        keys: growthKeys.slice(((u + d) * 100) % 500, (((u + d) * 100) % 500) + 100),
      }));
  return {
    schema: 1,
    batchId,
    sentAt: Date.now(),
    mode: "live",
    client: {
      install: installOf(a),
      modVersion: "bench",
      minecraft: "1.21.4",
      catalogue: 1,
    },
    zone: { id: zoneOf(a) },
    settingsVersion: 2,
    profile: { id: profile, cuteName: "Kiwi" },
    categories: ["combat", "gathering"],
    counters: blocks.map((b) => ({
      profileId: profile,
      scope: "day" as const,
      day: b.day,
      rows: b.keys.map((k, i) => ({
        k: k.key,
        v: k.kind === "count" ? u * 10 + i + 1 : k.kind === "gauge" ? 1_000_000 + u : 60_000 + u,
      })),
    })),
  };
}

type Ingest = {
  rawRowsPerSec: number;
  rowsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  serviceCpuMsPerUpload: number;
  /** Of the service's CPU, its JIT compiler threads' (what a service that has run a while no longer pays). */
  serviceJitCpuMsPerUpload: number;
  postgresCpuMsPerUpload: number;
  rawPostgresCpuMsPerUpload: number;
  /** The raw client's own CPU (postgres.js building and sending the statement), per upload. */
  rawClientCpuMsPerUpload: number;
  /** (service + Postgres CPU) / (raw client + raw Postgres CPU), per upload. */
  cpuRatioToRaw: number;
  /** (service + Postgres CPU) / raw Postgres CPU alone, as this bench reported it before. */
  cpuRatioToRawPostgres: number;
};

async function measureSize(size: (typeof growthSizes)[number]) {
  const template = await ensureTemplate(adminUrl, size, log);
  const copy = `tally_growth_run_${size.label}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${copy}" with (force)`);
  const c0 = performance.now();
  // file_copy: Postgres 15's default (wal_log) writes the whole template through the WAL.
  await admin.unsafe(`create database "${copy}" template "${templateName(size)}" strategy file_copy`);
  const copySeconds = round((performance.now() - c0) / 1000);
  const url = databaseUrlFor(adminUrl, copy);
  const [{ bytes }] = (await admin`select pg_database_size(${templateName(size)})::bigint as bytes`) as unknown as [
    { bytes: string },
  ];
  const database = await connectPostgres(url, 4);
  const result: Record<string, unknown> = {
    size: size.label,
    accounts: size.accounts,
    dayRows: template.dayRows,
    filledOn: template.filledOn,
    fillSeconds: template.fillSeconds,
    copySeconds,
    databaseBytes: Number(bytes),
    bytesPerDayRow: Math.round(Number(bytes) / template.dayRows),
  };
  try {
    await migrate(database.db);
    const [dayTable] = (await postgres(url, {
      max: 1,
    })`select pg_total_relation_size('counter_days')::bigint as b`) as unknown as [{ b: string }];
    result.counterDaysBytesPerRow = Math.round(Number(dayTable.b) / template.dayRows);

    // 1. One run of each stats job: what is due since the fill (a day, or more when the template is older), then again with nothing due.
    const jobs = statsJobs({ db: database.db, clock: systemClock, config: loadConfig() });
    const jobFigures: Record<string, unknown> = {};
    for (const job of jobs) {
      const t0 = performance.now();
      const first = await job.run(new AbortController().signal);
      const ms = Math.round(performance.now() - t0);
      const t1 = performance.now();
      await job.run(new AbortController().signal);
      jobFigures[job.name] = { ms, moved: first, idleMs: Math.round(performance.now() - t1) };
      log(
        `  ${size.label} ${job.name}: ${ms} ms ${JSON.stringify(first)}, again ${jobFigures[job.name] && Math.round(performance.now() - t1)} ms`,
      );
    }
    result.jobs = jobFigures;

    // 2. The binary on the copy: ingest, pages, totals, export, erasure.
    Object.assign(result, await serviceFigures(url, copy));
  } finally {
    await database.close();
    await admin.unsafe(`drop database if exists "${copy}" with (force)`);
    await admin.end();
  }
  return result;
}

async function serviceFigures(url: string, databaseName: string) {
  const dir = mkdtempSync(join(tmpdir(), "tally-bench-growth-"));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const base = `http://127.0.0.1:${port}`;
  const off = "http://127.0.0.1:9";
  const proc = Bun.spawn([binary], {
    cwd: dir,
    env: {
      PATH: "/usr/bin:/bin",
      DATABASE_URL: url,
      PORT: String(port),
      HOST: "127.0.0.1",
      DEV_SIGNIN: "true",
      AUTH_RATE_LIMIT_PER_MINUTE: "0",
      LOG_LEVEL: "warn",
      DATABASE_POOL_MAX: String(POOL),
      CATALOGUE_FILE: resolve(import.meta.dir, "../fixtures/catalogue.json"),
      GAME_API_URL: off,
      IDENTITY_URL: off,
      NAMES_URL: off,
      TEXTURES_URL: off,
      ITEM_IMAGES_URL: off,
      JOB_STATS_SEAL_ENABLED: "false",
      JOB_STATS_RETENTION_ENABLED: "false",
      JOB_STATS_ROLLUPS_ENABLED: "false",
      JOB_STATS_BATCHES_ENABLED: "false",
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    await untilHealthy(base, 50);
    const signIn = async (a: number) => {
      const res = await fetch(`${base}/v1/auth/dev`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uuid: accountUuid(a), name: accountName(a), zone: zoneOf(a) }),
      });
      if (!res.ok) throw new Error(`sign-in ${a}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { token: string }).token;
    };
    const tokens = await Promise.all(Array.from({ length: CLIENTS }, (_, c) => signIn(clientAccount(c))));
    const uploaders = tokens.map((token) => new Uploader({ baseUrl: base, token, maxAttempts: 1, timeoutMs: 60_000 }));

    const ingest = async (live: boolean, phase: number): Promise<Ingest> => {
      const envs = uploaders.map((_, c) =>
        Array.from({ length: uploadsPerClient }, (_, u) => envelope(c, u, live, hex(phase * 1e9 + c * 1e6 + u + 1))),
      );
      const rowsPer = envs[0]![0]!.counters!.reduce((n, b) => n + b.rows.length, 0);
      const uploads = CLIENTS * uploadsPerClient;
      // The raw limit: the same rows (keys, days, values), one unnest upsert each, into the stored
      // rows of an account of the same history that no upload touches (its profile, its first
      // install): like the uploads, they rewrite rows the fill stored, on its full pages, where it has
      // them, and insert the others. (An install of their own would only ever insert, on fresh pages.)
      const sql = postgres(url, { max: CLIENTS, onnotice: () => {} });
      const rawOne = async (c: number, env: Envelope) => {
        const rows = env.counters!.flatMap((b) => b.rows.map((r) => ({ key: r.k, day: b.day, value: r.v })));
        const a = clientAccount(c) + CLIENTS;
        await sql`insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
          select ${accountUuid(a)}, ${profileOf(a)}, t.key, t.day::date, ${installOf(a)}, t.value, null, null, ${env.sentAt}
          from unnest(${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.day)}::text[], ${rows.map((r) => r.value)}::bigint[]) as t(key, day, value)
          on conflict (uuid, profile_id, key, day, install_id) do update set value = excluded.value, sent_at = excluded.sent_at`;
      };
      // Untimed first, as the service's uploads are below: the 16 connections open (a backend's start
      // is CPU of its own) and the statement's plan is cached, so the raw figure is its steady cost.
      await Promise.all(
        uploaders.map(async (_, c) => {
          for (let u = 0; u < warmups; u++)
            await rawOne(c, envelope(c, uploadsPerClient + u, live, hex(phase * 1e9 + c * 1e6 + 800_000 + u)));
        }),
      );
      const pgRaw0 = postgresCpu(databaseName);
      const client0 = process.cpuUsage();
      const r0 = performance.now();
      await Promise.all(
        envs.map(async (list, c) => {
          for (const env of list) await rawOne(c, env);
        }),
      );
      const rawSeconds = (performance.now() - r0) / 1000;
      const rawPg = ((postgresCpu(databaseName) - pgRaw0) * 1000) / uploads;
      // This process runs nothing else meanwhile: its CPU is the raw clients'.
      const clientUsage = process.cpuUsage(client0);
      const rawClient = (clientUsage.user + clientUsage.system) / 1000 / uploads;
      await sql.end();
      const bodies: PreparedUpload[][] = envs.map((list) => list.map((e) => prepareUpload(e)));
      // Warm-up, not timed: a fresh process spends its first few hundred uploads compiling them
      // (JSC's JIT threads took ~17% of the service's CPU over its first 300 uploads), which a
      // service that has run for a while no longer pays.
      await Promise.all(
        uploaders.map(async (up, c) => {
          for (let u = 0; u < warmups; u++) {
            const res = await up.send(
              envelope(c, uploadsPerClient + u, live, hex(phase * 1e9 + c * 1e6 + 900_000 + u)),
            );
            if (!res.ok) throw new Error(`warm-up answered ${res.status} ${res.refusal.code}`);
          }
        }),
      );
      const latencies: number[] = [];
      const cpu0 = cpuOf(proc.pid);
      const jit0 = jitCpu(proc.pid);
      const pg0 = postgresCpu(databaseName);
      const t0 = performance.now();
      await Promise.all(
        uploaders.map(async (up, c) => {
          for (const body of bodies[c]!) {
            const s = performance.now();
            const res = await up.sendPrepared(body);
            if (!res.ok) throw new Error(`ingest answered ${res.status} ${res.refusal.code}: ${res.refusal.message}`);
            latencies.push(performance.now() - s);
          }
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      const service = ((cpuOf(proc.pid) - cpu0) * 1000) / uploads;
      const jit = ((jitCpu(proc.pid) - jit0) * 1000) / uploads;
      const pg = ((postgresCpu(databaseName) - pg0) * 1000) / uploads;
      return {
        rawRowsPerSec: Math.round((uploads * rowsPer) / rawSeconds),
        rowsPerSec: Math.round((uploads * rowsPer) / seconds),
        p50Ms: round(pct(latencies, 50)),
        p99Ms: round(pct(latencies, 99)),
        serviceCpuMsPerUpload: round(service),
        serviceJitCpuMsPerUpload: round(jit),
        postgresCpuMsPerUpload: round(pg),
        rawPostgresCpuMsPerUpload: round(rawPg),
        rawClientCpuMsPerUpload: round(rawClient),
        cpuRatioToRaw: Math.round(((service + pg) / (rawClient + rawPg)) * 100) / 100,
        cpuRatioToRawPostgres: Math.round(((service + pg) / rawPg) * 100) / 100,
      };
    };
    const live = await ingest(true, 1);
    log(`  ingest live ${JSON.stringify(live)}`);
    const catchUp = await ingest(false, 2);
    log(`  ingest catch-up ${JSON.stringify(catchUp)}`);

    const p50 = async (path: string, token?: string, runs = 15) => {
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      const times: number[] = [];
      for (let i = 0; i < runs + 3; i++) {
        const s = performance.now();
        const res = await fetch(`${base}${path}`, { headers });
        if (!res.ok) throw new Error(`${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
        await res.arrayBuffer();
        if (i >= 3) times.push(performance.now() - s);
      }
      return round(pct(times, 50));
    };
    // Pages and totals of accounts the uploads above did not touch: a typical one and the large one.
    const typical = 50;
    const typicalToken = await signIn(typical);
    const largeToken = await signIn(1);
    const pages = {
      typical90Ms: await p50(`/u/${accountName(typical)}`),
      typical365Ms: await p50(`/u/${accountName(typical)}?range=365`),
      large90Ms: await p50(`/u/${accountName(1)}`),
      large365Ms: await p50(`/u/${accountName(1)}?range=365`),
      typicalTotalsMs: await p50(`/v1/stats/totals?profile=${profileOf(typical)}`, typicalToken),
      largeTotalsMs: await p50(`/v1/stats/totals?profile=${profileOf(1)}`, largeToken),
    };
    log(`  pages ${JSON.stringify(pages)}`);
    const e0 = performance.now();
    const exported = await fetch(`${base}/v1/stats/export`, { headers: { authorization: `Bearer ${largeToken}` } });
    const exportBytes = (await exported.arrayBuffer()).byteLength;
    const exportMs = Math.round(performance.now() - e0);
    if (!exported.ok) throw new Error(`export: ${exported.status}`);
    const x0 = performance.now();
    const erased = await fetch(`${base}/v1/stats/account`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${largeToken}` },
    });
    const erasedBody = (await erased.json()) as Record<string, unknown>;
    const eraseMs = Math.round(performance.now() - x0);
    if (!erased.ok) throw new Error(`erase: ${erased.status} ${JSON.stringify(erasedBody)}`);
    log(`  export ${exportMs} ms ${exportBytes} bytes, erase ${eraseMs} ms ${JSON.stringify(erasedBody)}`);
    return { ingestLive: live, ingestCatchUp: catchUp, pages, exportMs, exportBytes, eraseMs, erased: erasedBody };
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

if (args.includes("--fill")) {
  // Only make the missing templates (the 50M one takes most of an hour), measure nothing.
  for (const size of await Promise.all(sizes)) log(JSON.stringify(await ensureTemplate(adminUrl, size, log)));
  process.exit(0);
}
const results: Record<string, any>[] = [];
for (const size of await Promise.all(sizes)) results.push(await measureSize(size));

const lines: [string, (r: Record<string, any>) => unknown][] = [
  ["day rows", (r) => r.dayRows],
  ["accounts", (r) => r.accounts],
  ["fill s (template, reused)", (r) => r.fillSeconds],
  ["database bytes / day row", (r) => r.bytesPerDayRow],
  ["counter_days bytes / row", (r) => r.counterDaysBytesPerRow],
  ...(["ingestLive", "ingestCatchUp"] as const).flatMap((k): [string, (r: Record<string, any>) => unknown][] => [
    [`${k} rows/s (raw)`, (r) => `${r[k].rowsPerSec} (${r[k].rawRowsPerSec})`],
    [`${k} p50 / p99 ms`, (r) => `${r[k].p50Ms} / ${r[k].p99Ms}`],
    [
      `${k} CPU ms/upload svc+pg (raw client+pg)`,
      (r) =>
        `${r[k].serviceCpuMsPerUpload}+${r[k].postgresCpuMsPerUpload} (${r[k].rawClientCpuMsPerUpload}+${r[k].rawPostgresCpuMsPerUpload})`,
    ],
    [`${k} of the service's, JIT ms`, (r) => r[k].serviceJitCpuMsPerUpload],
    [`${k} CPU ratio to raw (to raw pg)`, (r) => `${r[k].cpuRatioToRaw} (${r[k].cpuRatioToRawPostgres})`],
  ]),
  ["/u typical 90 / 365 ms", (r) => `${r.pages.typical90Ms} / ${r.pages.typical365Ms}`],
  ["/u large 90 / 365 ms", (r) => `${r.pages.large90Ms} / ${r.pages.large365Ms}`],
  ["totals typical / large ms", (r) => `${r.pages.typicalTotalsMs} / ${r.pages.largeTotalsMs}`],
  ...["stats.rollups", "stats.seal", "stats.retention", "stats.batches"].map(
    (j): [string, (r: Record<string, any>) => unknown] => [
      `${j} ms (again, none due)`,
      (r) => `${r.jobs[j].ms} (${r.jobs[j].idleMs})`,
    ],
  ),
  [
    "rollups: accounts / rollups",
    (r) => `${r.jobs["stats.rollups"].moved.accounts} / ${r.jobs["stats.rollups"].moved.rollups}`,
  ],
  [
    "seal: accounts / rows removed",
    (r) => `${r.jobs["stats.seal"].moved.accounts} / ${r.jobs["stats.seal"].moved.rowsRemoved}`,
  ],
  [
    "retention: accounts / rows",
    (r) => `${r.jobs["stats.retention"].moved.accounts} / ${r.jobs["stats.retention"].moved.rowsRemoved}`,
  ],
  ["batches purged", (r) => r.jobs["stats.batches"].moved.purged],
  ["export large ms (bytes)", (r) => `${r.exportMs} (${r.exportBytes})`],
  ["erase large ms (day rows)", (r) => `${r.eraseMs} (${r.erased?.removed?.dayRows ?? "?"})`],
];
const width = Math.max(...lines.map(([k]) => k.length));
console.log(
  `\ngrowth on ${new URL(adminUrl).host}: cost against size, ${CLIENTS} clients x ${uploadsPerClient} uploads (after ${warmups} untimed)\n`,
);
console.log(`${"".padEnd(width)}  ${results.map((r) => String(r.size).padStart(24)).join("")}`);
for (const [k, f] of lines)
  console.log(`${k.padEnd(width)}  ${results.map((r) => String(f(r)).padStart(24)).join("")}`);
console.log("\n" + JSON.stringify({ bench: "growth", clients: CLIENTS, uploadsPerClient, warmups, sizes: results }));
