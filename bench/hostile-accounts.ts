// What a large account's export costs the compiled binary (issue 40): an account of 1 000 keys x 100
// days (100 000 day rows) and one of 10 000 keys x 100 days (1 000 000, the most a profile holds),
// both filled by ordinary uploads within every limit. For each binary (the first is "after", the
// others as given, e.g. main's), each backend (the embedded database, and Postgres when DATABASE_URL
// is set), each account and each format (CSV, JSON): a fresh start on a copy of the filled
// database, then the export downloaded whole: its time, the service's RSS above idle (sampled
// every 100 ms), and a bystander's GET /v1/health every 50 ms meanwhile (p50, p99, worst). A
// download still running after --cap-seconds (default 240) is stopped and reported as such.
// The stats jobs are off, so only the export runs. Reports a table and JSON; asserts nothing.
//   bun run build && [DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres] \
//     bun bench/hostile-accounts.ts dist/tally [/tmp/base/dist/tally] [--cap-seconds 240] [--backends embedded,postgres] [--scale 1]
//       [--accounts 100k,1m] [--formats csv,json] [--keep-fill /tmp/tally-fill]
// `--keep-fill DIR`: the embedded fill is kept in DIR and reused when DIR already holds one (the
// 1 000 000-row account takes ~2 minutes to fill), so several runs measure the same data.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { loadConfig } from "../src/config.ts";
import { databaseUrlFor } from "../test/support/db.ts";
import { untilHealthy } from "./process.ts";
import { Uploader, newBatchId } from "./uploader.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const binaries = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--")).map((a) => resolve(a));
if (binaries.length === 0) binaries.push(resolve("dist/tally"));
const capMs = Number(flag("--cap-seconds", "240")) * 1000;
/** `--scale 0.1`: a tenth of the keys (a quick look at the bench itself). */
const scale = Number(flag("--scale", "1"));
const only = (name: string) => flag(name, "").split(",").filter(Boolean);
/** `--keep-fill DIR`: the embedded fill, kept and reused (see above). */
const keepFill = args.includes("--keep-fill") ? resolve(flag("--keep-fill", "")) : undefined;
const adminUrl = loadConfig().databaseUrl;
const backends = flag("--backends", adminUrl ? "embedded,postgres" : "embedded")
  .split(",")
  .filter((b) => b === "embedded" || (b === "postgres" && adminUrl)) as ("embedded" | "postgres")[];

const PROFILE = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
const DAYS = 100;
const ROWS_PER_UPLOAD = 50_000;
type Account = { label: string; keys: number; uuid: string; name: string; token?: string };
const accounts: Account[] = [
  { label: "100k", keys: 1_000 * scale, uuid: "1".padStart(32, "0"), name: "Hostile_100k" },
  { label: "1m", keys: 10_000 * scale, uuid: "2".padStart(32, "0"), name: "Hostile_1m" },
];
const measured = accounts.filter((a) => only("--accounts").length === 0 || only("--accounts").includes(a.label));
const formats = (["csv", "json"] as const).filter(
  (f) => only("--formats").length === 0 || only("--formats").includes(f),
);
const quiet = {
  PATH: "/usr/bin:/bin",
  HOST: "127.0.0.1",
  LOG_LEVEL: "error",
  DEV_SIGNIN: "true",
  AUTH_RATE_LIMIT_PER_MINUTE: "0",
  JOB_STATS_SEAL_ENABLED: "false",
  JOB_STATS_RETENTION_ENABLED: "false",
  JOB_STATS_ROLLUPS_ENABLED: "false",
  JOB_STATS_BATCHES_ENABLED: "false",
  JOB_CACHES_PURGE_ENABLED: "false",
  JOB_REPORTS_CHAT_ENABLED: "false",
};

const kib = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN);
const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : Number.NaN;
const r1 = (x: number) => Math.round(x * 10) / 10;
/** The process's CPU time so far (user and system), in seconds. */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** Starts a binary on the database given; answers its base URL and process once it is healthy. */
async function start(binary: string, db: { dataDir?: string; url?: string }) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const base = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn([binary], {
    cwd: tmpdir(),
    env: {
      ...quiet,
      PORT: String(port),
      ...(db.url ? { DATABASE_URL: db.url } : { DATA_DIR: db.dataDir! }),
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  await untilHealthy(base, 50);
  return {
    base,
    proc,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** Fills both accounts through ordinary uploads (50 000 rows each, the default INGEST_MAX_ROWS). */
async function fill(base: string) {
  const today = new Date().toISOString().slice(0, 10);
  const day = (d: number) => new Date(Date.parse(today) - d * 86_400_000).toISOString().slice(0, 10);
  for (const a of accounts) {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/auth/dev`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ uuid: a.uuid, name: a.name, zone: "UTC" }),
    });
    a.token = ((await res.json()) as { token: string }).token;
    await fetch(`${base}/v1/stats/settings`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json" },
      body: JSON.stringify({ settingsVersion: 1, categories: { gathering: true } }),
    });
    const uploader = new Uploader({ baseUrl: base, token: a.token, timeoutMs: 300_000, maxAttempts: 3 });
    const daysPerUpload = Math.max(1, Math.floor(ROWS_PER_UPLOAD / a.keys));
    for (let d0 = 0; d0 < DAYS; d0 += daysPerUpload) {
      const result = await uploader.send({
        schema: 1,
        batchId: newBatchId(),
        sentAt: Date.now(),
        mode: "live",
        client: { install: "a".repeat(32), modVersion: "bench", minecraft: "1.21.4", catalogue: 1 },
        zone: { id: "UTC" },
        settingsVersion: 2,
        profile: { id: PROFILE, cuteName: "Kiwi" },
        categories: ["gathering"],
        counters: Array.from({ length: Math.min(daysPerUpload, DAYS - d0) }, (_, i) => ({
          profileId: PROFILE,
          scope: "day" as const,
          day: day(d0 + i),
          rows: Array.from({ length: a.keys }, (_, k) => ({
            k: `mining.blocks.B${String(k).padStart(5, "0")}`,
            v: 1 + ((k * 7 + d0 + i) % 5000),
          })),
        })),
      });
      if (!result.ok) throw new Error(`fill: ${result.status} ${result.refusal.code}: ${result.refusal.message}`);
      if (result.answer.applied.rows === 0) throw new Error("fill: the upload stored no rows");
    }
    console.log(`  filled ${a.label}: ${a.keys} keys x ${DAYS} days in ${r1((performance.now() - t0) / 1000)} s`);
  }
}

type Run = {
  backend: string;
  binary: string;
  account: string;
  format: "csv" | "json";
  status: number;
  seconds: number;
  cpuSeconds: number;
  stopped: boolean;
  mib: number;
  lines: number;
  idleMiB: number;
  rssAboveIdleMiB: number;
  healthP50Ms: number;
  healthP99Ms: number;
  healthWorstMs: number;
  healthChecks: number;
  healthFailed: number;
};

async function measure(
  backend: string,
  binary: string,
  db: { dataDir?: string; url?: string },
  a: Account,
  format: "csv" | "json",
): Promise<Run> {
  const service = await start(binary, db);
  try {
    for (let i = 0; i < 20; i++) await fetch(`${service.base}/v1/health`);
    await Bun.sleep(500);
    const idle = kib(service.proc.pid);
    let peak = idle;
    let done = false;
    const sampler = (async () => {
      while (!done) {
        peak = Math.max(peak, kib(service.proc.pid));
        await Bun.sleep(100);
      }
    })();
    const health: number[] = [];
    let healthFailed = 0;
    const prober = (async () => {
      while (!done) {
        const t0 = performance.now();
        const ok = await fetch(`${service.base}/v1/health`, { signal: AbortSignal.timeout(capMs) }).then(
          async (r) => (await r.arrayBuffer(), r.ok),
          () => false,
        );
        health.push(performance.now() - t0);
        if (!ok) healthFailed++;
        await Bun.sleep(50);
      }
    })();
    const cpu0 = cpuSeconds(service.proc.pid);
    const t0 = performance.now();
    let bytes = 0;
    let lines = 0;
    let status = 0;
    let stopped = false;
    try {
      const res = await fetch(`${service.base}/v1/stats/export${format === "csv" ? ".csv" : ""}`, {
        headers: { authorization: `Bearer ${a.token}` },
        signal: AbortSignal.timeout(capMs),
      });
      status = res.status;
      const reader = res.body!.getReader();
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        bytes += chunk.value.byteLength;
        for (const b of chunk.value) if (b === 10) lines++;
      }
    } catch {
      stopped = true;
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(service.proc.pid) - cpu0;
    done = true;
    await Promise.all([sampler, prober]);
    return {
      backend,
      binary,
      account: a.label,
      format,
      status,
      seconds: r1(seconds),
      cpuSeconds: Math.round(cpu * 100) / 100,
      stopped,
      mib: r1(bytes / 1048576),
      lines,
      idleMiB: r1(idle / 1024),
      rssAboveIdleMiB: r1((peak - idle) / 1024),
      healthP50Ms: r1(pct(health, 50)),
      healthP99Ms: r1(pct(health, 99)),
      healthWorstMs: r1(Math.max(...health)),
      healthChecks: health.length,
      healthFailed,
    };
  } finally {
    await service.stop();
  }
}

const runs: Run[] = [];
const fills: Record<string, number> = {};
for (const backend of backends) {
  const dir = mkdtempSync(join(tmpdir(), "tally-hostile-accounts-"));
  const fillName = `tally_hostile_fill_${process.pid}`;
  const admin = adminUrl ? postgres(adminUrl, { max: 1, onnotice: () => {} }) : undefined;
  try {
    // One fill per backend, by the first binary; every measurement starts on a copy of it.
    const source =
      backend === "postgres" ? { url: databaseUrlFor(adminUrl, fillName) } : { dataDir: keepFill ?? join(dir, "fill") };
    if (admin) await admin.unsafe(`drop database if exists "${fillName}" with (force)`);
    if (backend === "postgres") await admin!.unsafe(`create database "${fillName}"`);
    const kept = backend === "embedded" && keepFill !== undefined && existsSync(join(keepFill, "tokens.json"));
    const t0 = performance.now();
    if (kept) {
      const tokens = JSON.parse(readFileSync(join(keepFill, "tokens.json"), "utf8")) as Record<string, string>;
      for (const a of accounts) a.token = tokens[a.uuid];
      console.log(`${backend}: reusing the fill in ${keepFill}`);
    } else {
      console.log(`${backend}: filling`);
      const filler = await start(binaries[0]!, source);
      await fill(filler.base);
      await filler.stop();
      if (backend === "embedded" && keepFill)
        writeFileSync(
          join(keepFill, "tokens.json"),
          JSON.stringify(Object.fromEntries(accounts.map((a) => [a.uuid, a.token]))),
        );
    }
    fills[backend] = r1((performance.now() - t0) / 1000);
    for (const a of measured)
      for (const format of formats)
        for (const binary of binaries) {
          let db: { dataDir?: string; url?: string };
          const copy = `tally_hostile_run_${process.pid}`;
          if (backend === "postgres") {
            await admin!.unsafe(`drop database if exists "${copy}" with (force)`);
            await admin!.unsafe(`create database "${copy}" template "${fillName}"`);
            db = { url: databaseUrlFor(adminUrl, copy) };
          } else {
            rmSync(join(dir, "run"), { recursive: true, force: true });
            cpSync(source.dataDir!, join(dir, "run"), { recursive: true });
            db = { dataDir: join(dir, "run") };
          }
          const r = await measure(backend, binary, db, a, format);
          runs.push(r);
          console.log(
            `${backend.padEnd(9)} ${a.label.padEnd(5)} ${format.padEnd(5)} ${binary.padEnd(32)} ${r.stopped ? `stopped after ${r.seconds} s` : `${r.seconds} s`} CPU ${r.cpuSeconds} s  ${r.mib} MiB ${r.lines} lines  RSS +${r.rssAboveIdleMiB} MiB (idle ${r.idleMiB})  health p50 ${r.healthP50Ms} p99 ${r.healthP99Ms} worst ${r.healthWorstMs} ms (${r.healthChecks}, ${r.healthFailed} failed)`,
          );
          if (backend === "postgres") await admin!.unsafe(`drop database if exists "${copy}" with (force)`);
        }
  } finally {
    if (admin) {
      await admin.unsafe(`drop database if exists "${fillName}" with (force)`);
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

// Linearity: the 1 000 000-row export's time over the 100 000-row one's (10 is linear).
const ratios = runs
  .filter((r) => r.account === "1m")
  .flatMap((big) => {
    const small = runs.find(
      (r) => r.account === "100k" && r.backend === big.backend && r.binary === big.binary && r.format === big.format,
    );
    if (!small) return [];
    return {
      backend: big.backend,
      binary: big.binary,
      format: big.format,
      ratio1mTo100k: big.stopped ? null : r1(big.seconds / small.seconds),
    };
  });
for (const r of ratios)
  console.log(
    `${r.backend.padEnd(9)} ${r.format.padEnd(5)} ${r.binary.padEnd(32)} 1m / 100k: ${r.ratio1mTo100k ?? "(1m stopped)"}`,
  );
console.log(JSON.stringify({ days: DAYS, capSeconds: capMs / 1000, fillSeconds: fills, runs, ratios }));
