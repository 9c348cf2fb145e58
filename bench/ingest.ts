// Ingest throughput and latency: the compiled binary on Postgres, C concurrent clients each
// uploading envelopes of R rows (gzip). Measured in one run: the raw limit of the same rows written
// by an unnest upsert straight through postgres.js; the endpoint at saturation (rows/s); the
// endpoint under a steady load of half the raw limit (latency); the binary's peak memory.
// Reports a table and JSON; asserts nothing.
//   DATABASE_URL=postgres://... bun bench/ingest.ts [dist/tally] [--clients 16] [--rows 600] [--uploads 40]
import postgres from "postgres";
import { resolve } from "node:path";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createPostgresDatabase } from "../test/support/db.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const binary = resolve(args.find((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1]!.startsWith("--"))) ?? "dist/tally");
const clients = flag("--clients", 16);
const rowsPerUpload = flag("--rows", 600);
const uploadsPerClient = flag("--uploads", 40);
const baseUrl = loadConfig().databaseUrl;
if (!baseUrl) {
  console.log("bench/ingest.ts: skipped, it measures Postgres; set DATABASE_URL");
  process.exit(0);
}

const db = await createPostgresDatabase();
const dir = mkdtempSync(join(tmpdir(), "tally-bench-ingest-"));
const port = 20000 + Math.floor(Math.random() * 20000);
const url = `http://127.0.0.1:${port}`;
const proc = Bun.spawn([binary], {
  cwd: dir,
  env: { PATH: "/usr/bin:/bin", DATABASE_URL: db.url, PORT: String(port), HOST: "127.0.0.1", DEV_SIGNIN: "true", AUTH_RATE_LIMIT_PER_MINUTE: "0", LOG_LEVEL: "warn", DATABASE_POOL_MAX: "20" },
  stdout: "ignore",
  stderr: "inherit",
});
for (;;) {
  if (await fetch(`${url}/v1/health`).then((r) => r.ok, () => false)) break;
  await Bun.sleep(20);
}

const PROFILE = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
const keysPerDay = 100;
const daysPerUpload = Math.ceil(rowsPerUpload / keysPerDay);
const hex = (n: number, width = 32) => n.toString(16).padStart(width, "0");
const dayOf = (n: number) => new Date(Date.parse("2026-11-01T00:00:00Z") + n * 86_400_000).toISOString().slice(0, 10);

/** Upload u of client c: `daysPerUpload` days of `keysPerDay` keys (rotating days: inserts, then replaces). */
function upload(c: number, u: number, now: number) {
  const counters = Array.from({ length: daysPerUpload }, (_, d) => ({
    profileId: PROFILE,
    scope: "day" as const,
    day: dayOf((u * daysPerUpload + d) % 20),
    rows: Array.from({ length: Math.min(keysPerDay, rowsPerUpload - d * keysPerDay) }, (_, k) => ({ k: `mining.blocks.B${k}`, v: u * 1000 + k })),
  }));
  return {
    schema: 1,
    batchId: hex(c * 1_000_000 + u + 1),
    sentAt: now,
    mode: "live",
    client: { install: hex(c + 1), modVersion: "bench", minecraft: "1.21.4", catalogue: 1 },
    zone: { id: "UTC" },
    settingsVersion: 2,
    profile: { id: PROFILE, cuteName: "Kiwi" },
    categories: ["gathering"],
    counters,
  };
}

async function signIn(c: number): Promise<string> {
  const res = await fetch(`${url}/v1/auth/dev`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ uuid: hex(0xbe00 + c), name: `Bench${c}`, zone: "UTC" }) });
  const { token } = (await res.json()) as { token: string };
  await fetch(`${url}/v1/stats/settings`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ settingsVersion: 1, categories: { gathering: true } }) });
  return token;
}

const peakKiB = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"))?.[1] ?? NaN);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const tokens = await Promise.all(Array.from({ length: clients }, (_, c) => signIn(c)));
const totalRows = clients * uploadsPerClient * rowsPerUpload;
const send = async (token: string, body: Uint8Array<ArrayBuffer>) => {
  const res = await fetch(`${url}/v1/stats/ingest`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-encoding": "gzip" }, body });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}`);
};
const bodiesFor = (batchOffset: number) =>
  tokens.map((_, c) => Array.from({ length: uploadsPerClient }, (_, u) => Bun.gzipSync(JSON.stringify({ ...upload(c, u, Date.now()), batchId: hex(batchOffset + c * 1_000_000 + u + 1) }))));

// 1. The raw limit: the same rows into the same table by an unnest upsert per upload, straight
//    through postgres.js with as many connections as clients.
const sql = postgres(db.url, { max: clients, onnotice: () => {} });
const rawUploads = tokens.map((_, c) => Array.from({ length: uploadsPerClient }, (_, u) => upload(c, u, Date.now())));
const rawOne = async (uuid: string, env: ReturnType<typeof upload>) => {
  const rows = env.counters.flatMap((b) => b.rows.map((r) => ({ key: r.k, day: b.day, value: r.v })));
  await sql`insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
    select ${uuid}, ${PROFILE}, t.key, t.day::date, ${env.client.install}, t.value, null, null, ${env.sentAt}
    from unnest(${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.day)}::text[], ${rows.map((r) => r.value)}::bigint[]) as t(key, day, value)
    on conflict (uuid, profile_id, key, day, install_id) do update set value = excluded.value, sent_at = excluded.sent_at`;
};
for (let c = 0; c < clients; c++) await rawOne(hex(0xaa00 + c), rawUploads[c]![0]!);
const r0 = performance.now();
await Promise.all(rawUploads.map(async (list, c) => { for (const env of list) await rawOne(hex(0xaa00 + c), env); }));
const rawSeconds = (performance.now() - r0) / 1000;
await sql.end();

// 2. The endpoint at saturation: every client sends its next upload as soon as the last is answered.
for (const [c, token] of tokens.entries()) await send(token, Bun.gzipSync(JSON.stringify({ ...upload(c, 0, Date.now()), batchId: hex(0xfff000 + c) })));
const saturated = bodiesFor(0);
const latencies: number[] = [];
const t0 = performance.now();
await Promise.all(
  tokens.map(async (token, c) => {
    for (const body of saturated[c]!) {
      const s = performance.now();
      await send(token, body);
      latencies.push(performance.now() - s);
    }
  }),
);
const endpointSeconds = (performance.now() - t0) / 1000;

// 3. The endpoint under a steady load of half the raw limit: each client sends on a fixed schedule;
//    latency counts from the scheduled moment, so waiting in a queue is counted too.
const offeredRowsPerSec = Math.round((totalRows / rawSeconds) * 0.5);
const intervalMs = (clients * rowsPerUpload * 1000) / offeredRowsPerSec;
const steadyBodies = bodiesFor(500_000_000);
const steady: number[] = [];
const s0 = performance.now();
await Promise.all(
  tokens.map(async (token, c) => {
    for (const [u, body] of steadyBodies[c]!.entries()) {
      const due = s0 + (c / clients) * intervalMs + u * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      await send(token, body);
      steady.push(performance.now() - due);
    }
  }),
);
const peakMiB = Math.round(peakKiB() / 102.4) / 10;
proc.kill("SIGTERM");
await proc.exited;
await db.drop();
rmSync(dir, { recursive: true, force: true });

const endpointRate = Math.round(totalRows / endpointSeconds);
const rawRate = Math.round(totalRows / rawSeconds);
const r = (x: number) => Math.round(x * 10) / 10;
console.log(`ingest on Postgres: ${clients} clients x ${uploadsPerClient} uploads x ${rowsPerUpload} rows (gzip), ${totalRows} rows each way\n`);
console.log("path                          rows/s   p50 ms   p99 ms");
console.log(`ingest, saturated      ${String(endpointRate).padStart(12)} ${String(r(pct(latencies, 50))).padStart(8)} ${String(r(pct(latencies, 99))).padStart(8)}`);
console.log(`raw unnest upsert      ${String(rawRate).padStart(12)}`);
console.log(`steady ${offeredRowsPerSec} rows/s ${String(r(pct(steady, 50))).padStart(8)} ${String(r(pct(steady, 99))).padStart(8)}   (half the raw limit, on a schedule)`);
console.log(`\nendpoint / raw at saturation: ${Math.round((endpointRate / rawRate) * 100)}%   peak RSS of the service: ${peakMiB} MiB`);
console.log("\n" + JSON.stringify({ bench: "ingest", clients, uploadsPerClient, rowsPerUpload, endpointRowsPerSec: endpointRate, rawRowsPerSec: rawRate, saturatedP50Ms: r(pct(latencies, 50)), saturatedP99Ms: r(pct(latencies, 99)), steadyRowsPerSec: offeredRowsPerSec, steadyP50Ms: r(pct(steady, 50)), steadyP99Ms: r(pct(steady, 99)), peakRssMiB: peakMiB }));
