// Start-up benchmark of the compiled binary: time from spawn to the first 200 on /v1/health (and
// the process's CPU time by then), on a first start (empty folder / new database) and a second
// start (already initialised), embedded and on Postgres; idle RSS after start and again after a
// little load (sign-ins, a few uploads, a statistics page and the home page); binary size.
// Several binaries (a baseline and a candidate) are measured in the same run, runs interleaved,
// so a noisy machine treats them alike. Reports a table of medians and JSON; asserts nothing.
//   bun run build && bun bench/startup.ts [dist/tally [baseline/tally ...]] [--runs N] [--embedded-only]
// Postgres is used when DATABASE_URL is set (a database is created for the run and dropped).
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../src/config.ts";
import type { Envelope } from "../src/wire/envelope.ts";
import { createPostgresDatabase } from "../test/support/db.ts";
import { Uploader } from "./uploader.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const binaries = args
  .filter((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1] === "--runs"))
  .map((a) => resolve(a));
if (!binaries.length) binaries.push(resolve("dist/tally"));
const runs = Number(flag("--runs", "5"));
const postgresUrl = args.includes("--embedded-only") ? "" : loadConfig().databaseUrl;

const PROFILE = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
const hex = (n: number, width = 32) => n.toString(16).padStart(width, "0");
const TODAY = new Date().toISOString().slice(0, 10);
const dayBefore = (n: number) => new Date(Date.parse(TODAY) - n * 86_400_000).toISOString().slice(0, 10);

function status(pid: number, field: "VmRSS" | "VmHWM"): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU milliseconds (user + system, all threads) a process has used. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A catch-up upload: 5 days of 100 keys, then today's live one. */
function envelope(u: number): Envelope {
  return {
    schema: 1,
    batchId: hex(0xb000 + u),
    sentAt: Date.now(),
    mode: "live",
    client: { install: hex(1), modVersion: "bench", minecraft: "1.21.4", catalogue: 1 },
    zone: { id: "UTC" },
    settingsVersion: 2,
    profile: { id: PROFILE, cuteName: "Kiwi" },
    categories: ["gathering"],
    counters: Array.from({ length: 6 }, (_, d) => ({
      profileId: PROFILE,
      scope: "day" as const,
      day: dayBefore(5 - d),
      rows: Array.from({ length: 100 }, (_, k) => ({ k: `mining.blocks.B${k}`, v: u * 1000 + k })),
    })),
  };
}

/** Signs in, turns on a category, sends five uploads, reads the statistics page and the home page. */
async function load(url: string) {
  const name = "Bench_Start";
  const res = await fetch(`${url}/v1/auth/dev`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ uuid: hex(0xbe01), name, zone: "UTC" }),
  });
  if (!res.ok) throw new Error(`dev sign-in answered ${res.status}`);
  const { token } = (await res.json()) as { token: string };
  await fetch(`${url}/v1/stats/settings`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: 1, categories: { gathering: true } }),
  });
  const uploader = new Uploader({ baseUrl: url, token, maxAttempts: 1, timeoutMs: 60_000 });
  for (let u = 0; u < 5; u++) {
    const r = await uploader.send(envelope(u));
    if (!r.ok) throw new Error(`ingest answered ${r.status} ${r.refusal.code}`);
  }
  for (const path of [`/u/${name}`, "/"]) {
    const page = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    await page.arrayBuffer();
    if (page.status >= 500) throw new Error(`${path} answered ${page.status}`);
  }
}

type Sample = { ms: number; cpuMs: number; rss: number; loadedRss?: number };

async function startOnce(binary: string, cwd: string, env: Record<string, string>, withLoad: boolean) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const proc = Bun.spawn([binary], {
    cwd,
    env: {
      PATH: "/usr/bin:/bin",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DEV_SIGNIN: "true",
      AUTH_RATE_LIMIT_PER_MINUTE: "0",
      ...env,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    for (;;) {
      if (
        await fetch(`${url}/v1/health`).then(
          (r) => r.status === 200,
          () => false,
        )
      )
        break;
      if (proc.exitCode !== null) throw new Error(`exited ${proc.exitCode}`);
      await Bun.sleep(2);
    }
    const sample: Sample = { ms: performance.now() - t0, cpuMs: cpuMs(proc.pid), rss: 0 };
    for (let i = 0; i < 20; i++) await fetch(`${url}/v1/health`);
    await Bun.sleep(500); // let the process settle before reading its idle memory
    sample.rss = status(proc.pid, "VmRSS");
    if (withLoad) {
      await load(url);
      await Bun.sleep(500);
      sample.loadedRss = status(proc.pid, "VmRSS");
    }
    return sample;
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round1 = (x: number) => Math.round(x * 10) / 10;

type Row = {
  binary: string;
  backend: string;
  start: string;
  runs: number;
  p50Ms: number;
  minMs: number;
  maxMs: number;
  p50CpuMs: number;
  idleRssMiB: number;
  loadedRssMiB: number | null;
};
const rows: Row[] = [];
function record(binary: string, backend: string, start: string, samples: Sample[]) {
  const ms = samples.map((s) => s.ms);
  const loaded = samples.flatMap((s) => (s.loadedRss === undefined ? [] : [s.loadedRss]));
  rows.push({
    binary,
    backend,
    start,
    runs: samples.length,
    p50Ms: Math.round(median(ms)),
    minMs: Math.round(Math.min(...ms)),
    maxMs: Math.round(Math.max(...ms)),
    p50CpuMs: Math.round(median(samples.map((s) => s.cpuMs))),
    idleRssMiB: round1(median(samples.map((s) => s.rss))),
    loadedRssMiB: loaded.length ? round1(median(loaded)) : null,
  });
}

type Series = { first: Sample[]; second: Sample[]; pgFirst: Sample[]; pgSecond: Sample[] };
const series = new Map<string, Series>(binaries.map((b) => [b, { first: [], second: [], pgFirst: [], pgSecond: [] }]));
for (let i = 0; i < runs; i++) {
  for (const binary of binaries) {
    const s = series.get(binary)!;
    const dir = mkdtempSync(join(tmpdir(), "tally-bench-"));
    try {
      s.first.push(await startOnce(binary, dir, {}, false));
      s.second.push(await startOnce(binary, dir, {}, true));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    if (!postgresUrl) continue;
    const db = await createPostgresDatabase();
    const pgDir = mkdtempSync(join(tmpdir(), "tally-bench-"));
    try {
      s.pgFirst.push(await startOnce(binary, pgDir, { DATABASE_URL: db.url }, false));
      s.pgSecond.push(await startOnce(binary, pgDir, { DATABASE_URL: db.url }, true));
    } finally {
      await db.drop();
      rmSync(pgDir, { recursive: true, force: true });
    }
  }
}
for (const [binary, s] of series) {
  record(binary, "embedded", "first (empty folder)", s.first);
  record(binary, "embedded", "second (initialised)", s.second);
  if (s.pgFirst.length) record(binary, "postgres", "first (new database)", s.pgFirst);
  if (s.pgSecond.length) record(binary, "postgres", "second (migrated)", s.pgSecond);
}

const sizes = Object.fromEntries(binaries.map((b) => [b, round1(statSync(b).size / 1024 / 1024)]));
for (const b of binaries) console.log(`binary ${b}: ${sizes[b]} MiB`);
console.log(
  "\nbinary  backend   start                  runs  p50 ms  min ms  max ms  cpu ms  idle RSS MiB  loaded RSS MiB",
);
for (const r of rows) {
  console.log(
    `${String(binaries.indexOf(r.binary) + 1).padEnd(7)} ${r.backend.padEnd(9)} ${r.start.padEnd(22)} ${String(r.runs).padStart(4)} ${String(r.p50Ms).padStart(7)} ${String(r.minMs).padStart(7)} ${String(r.maxMs).padStart(7)} ${String(r.p50CpuMs).padStart(7)} ${String(r.idleRssMiB).padStart(13)} ${String(r.loadedRssMiB ?? "-").padStart(15)}`,
  );
}
console.log(`\n${JSON.stringify({ bench: "startup", binaries: sizes, rows })}`);
