// Start-up benchmark of the compiled binary: time from spawn to the first 200 on /v1/health, on a
// first start (empty folder / new database) and a second start (already initialised), embedded and
// on Postgres; idle RSS after start; binary size. Reports a table and JSON; asserts nothing.
//   bun run build && bun bench/startup.ts [dist/tally] [--runs N]
// Postgres is used when DATABASE_URL is set (a database is created for the run and dropped).
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createPostgresDatabase } from "../test/support/db.ts";

const args = process.argv.slice(2);
const binary = resolve(args.find((a) => !a.startsWith("--") && !/^\d+$/.test(a)) ?? "dist/tally");
const runs = Number(args[args.indexOf("--runs") + 1]) || 5;
const postgresUrl = loadConfig().databaseUrl;

function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) : NaN;
}

async function startOnce(cwd: string, env: Record<string, string>) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const t0 = performance.now();
  const proc = Bun.spawn([binary], {
    cwd,
    env: { PATH: "/usr/bin:/bin", PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdout: "ignore",
    stderr: "inherit",
  });
  for (;;) {
    if (
      await fetch(`http://127.0.0.1:${port}/v1/health`).then(
        (r) => r.status === 200,
        () => false,
      )
    )
      break;
    if (proc.exitCode !== null) throw new Error(`exited ${proc.exitCode}`);
    await Bun.sleep(2);
  }
  const ms = performance.now() - t0;
  for (let i = 0; i < 20; i++) await fetch(`http://127.0.0.1:${port}/v1/health`);
  await Bun.sleep(500); // let the process settle before reading its idle memory
  const rss = rssKiB(proc.pid);
  proc.kill("SIGTERM");
  await proc.exited;
  return { ms, rss };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

type Row = {
  backend: string;
  start: string;
  runs: number;
  p50Ms: number;
  minMs: number;
  maxMs: number;
  idleRssMiB: number;
};
const rows: Row[] = [];
function record(backend: string, start: string, samples: { ms: number; rss: number }[]) {
  const ms = samples.map((s) => s.ms);
  rows.push({
    backend,
    start,
    runs: samples.length,
    p50Ms: Math.round(median(ms)),
    minMs: Math.round(Math.min(...ms)),
    maxMs: Math.round(Math.max(...ms)),
    idleRssMiB: Math.round(median(samples.map((s) => s.rss)) / 102.4) / 10,
  });
}

const firsts: { ms: number; rss: number }[] = [];
const seconds: { ms: number; rss: number }[] = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), "tally-bench-"));
  firsts.push(await startOnce(dir, {}));
  seconds.push(await startOnce(dir, {}));
  rmSync(dir, { recursive: true, force: true });
}
record("embedded", "first (empty folder)", firsts);
record("embedded", "second (initialised)", seconds);

if (postgresUrl) {
  const pgFirst: { ms: number; rss: number }[] = [];
  const pgSecond: { ms: number; rss: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const db = await createPostgresDatabase();
    const dir = mkdtempSync(join(tmpdir(), "tally-bench-"));
    try {
      pgFirst.push(await startOnce(dir, { DATABASE_URL: db.url }));
      pgSecond.push(await startOnce(dir, { DATABASE_URL: db.url }));
    } finally {
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  record("postgres", "first (new database)", pgFirst);
  record("postgres", "second (migrated)", pgSecond);
}

const binaryMiB = Math.round(statSync(binary).size / 1024 / 102.4) / 10;
console.log(`binary ${binary}: ${binaryMiB} MiB\n`);
console.log("backend   start                  runs  p50 ms  min ms  max ms  idle RSS MiB");
for (const r of rows) {
  console.log(
    `${r.backend.padEnd(9)} ${r.start.padEnd(22)} ${String(r.runs).padStart(4)} ${String(r.p50Ms).padStart(7)} ${String(r.minMs).padStart(7)} ${String(r.maxMs).padStart(7)} ${String(r.idleRssMiB).padStart(13)}`,
  );
}
console.log("\n" + JSON.stringify({ bench: "startup", binaryMiB, rows }));
