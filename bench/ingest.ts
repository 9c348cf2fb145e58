// Ingest throughput and latency: the compiled binary on Postgres, C concurrent clients each sending
// envelopes of R rows (gzip) through the reference uploader (bench/uploader.ts). For each number of
// clients, on a fresh database and a fresh service, measured in one run: the raw limit of the same
// rows written by an unnest upsert straight through postgres.js (as many connections as the
// service may open); the endpoint at saturation (rows/s); the endpoint under a steady load of half
// the raw limit (latency counted from each upload's scheduled moment); the service's peak memory
// and its CPU per upload. Reports a table and JSON; asserts nothing.
//   DATABASE_URL=postgres://... bun bench/ingest.ts [dist/tally] [--clients 1,16,64] [--rows 600] [--uploads 40] [--keys 100]
import postgres from "postgres";
import { resolve } from "node:path";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import type { Envelope } from "../src/wire/envelope.ts";
import { createPostgresDatabase } from "../test/support/db.ts";
import { Uploader, prepareUpload, type PreparedUpload } from "./uploader.ts";
import { cpuOf, postgresCpu, untilHealthy } from "./process.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const binary = resolve(
  args.find((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1]!.startsWith("--"))) ?? "dist/tally",
);
const clientCounts = flag("--clients", "1,16,64").split(",").map(Number);
const rowsPerUpload = Number(flag("--rows", "600"));
const uploadsPerClient = Number(flag("--uploads", "40"));
const POOL = 20;
if (!loadConfig().databaseUrl) {
  console.log("bench/ingest.ts: skipped, it measures Postgres; set DATABASE_URL");
  process.exit(0);
}

const PROFILE = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
/** Keys per day block: 100 spreads an upload over 6 days (a catch-up); 600 is one day's live upload. */
const KEYS_PER_DAY = Number(flag("--keys", "100"));
const daysPerUpload = Math.ceil(rowsPerUpload / KEYS_PER_DAY);
const hex = (n: number, width = 32) => n.toString(16).padStart(width, "0");
const dayOf = (n: number) => new Date(Date.parse("2026-11-01T00:00:00Z") + n * 86_400_000).toISOString().slice(0, 10);
/** The service's today (UTC): a live upload of one day block writes today's values, again and again. */
const TODAY = new Date().toISOString().slice(0, 10);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const round = (x: number) => Math.round(x * 10) / 10;

/**
 * Upload u of client c: `daysPerUpload` days of KEYS_PER_DAY keys (rotating over 20 days from
 * 2026-11-01: inserts, then replaces); one day block (the live upload) is always today's.
 */
function envelope(c: number, u: number, batchId: string): Envelope {
  return {
    schema: 1,
    batchId,
    sentAt: Date.now(),
    mode: "live",
    client: { install: hex(c + 1), modVersion: "bench", minecraft: "1.21.4", catalogue: 1 },
    zone: { id: "UTC" },
    settingsVersion: 2,
    profile: { id: PROFILE, cuteName: "Kiwi" },
    categories: ["gathering"],
    counters: Array.from({ length: daysPerUpload }, (_, d) => ({
      profileId: PROFILE,
      scope: "day" as const,
      day: daysPerUpload === 1 ? TODAY : dayOf((u * daysPerUpload + d) % 20),
      rows: Array.from({ length: Math.min(KEYS_PER_DAY, rowsPerUpload - d * KEYS_PER_DAY) }, (_, k) => ({
        k: `mining.blocks.B${k}`,
        v: u * 1000 + k,
      })),
    })),
  };
}

type Level = {
  clients: number;
  rawRowsPerSec: number;
  endpointRowsPerSec: number;
  endpointShareOfRaw: number;
  saturatedP50Ms: number;
  saturatedP99Ms: number;
  steadyRowsPerSec: number;
  steadyP50Ms: number;
  steadyP99Ms: number;
  peakRssMiB: number;
  serviceCpuMsPerUpload: number;
  /** Postgres CPU per upload in the saturated phase, and per raw upsert of the same rows. */
  postgresCpuMsPerUpload: number;
  rawPostgresCpuMsPerUpload: number;
};

async function measure(clients: number): Promise<Level> {
  const db = await createPostgresDatabase();
  const dir = mkdtempSync(join(tmpdir(), "tally-bench-ingest-"));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const url = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn([binary], {
    cwd: dir,
    env: {
      PATH: "/usr/bin:/bin",
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: "127.0.0.1",
      DEV_SIGNIN: "true",
      AUTH_RATE_LIMIT_PER_MINUTE: "0",
      LOG_LEVEL: "warn",
      DATABASE_POOL_MAX: String(POOL),
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    await untilHealthy(url, 20);
    const cpuSeconds = () => cpuOf(proc.pid);
    const database = new URL(db.url).pathname.slice(1);
    const peakMiB = () =>
      round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"))?.[1] ?? NaN) / 1024);

    const signIn = async (c: number) => {
      const res = await fetch(`${url}/v1/auth/dev`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uuid: hex(0xbe00 + c), name: `Bench${c}`, zone: "UTC" }),
      });
      const { token } = (await res.json()) as { token: string };
      await fetch(`${url}/v1/stats/settings`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ settingsVersion: 1, categories: { gathering: true } }),
      });
      return new Uploader({ baseUrl: url, token, maxAttempts: 1, timeoutMs: 60_000 });
    };
    const uploaders = await Promise.all(Array.from({ length: clients }, (_, c) => signIn(c)));
    const totalRows = clients * uploadsPerClient * rowsPerUpload;
    const prepared = (phase: number) =>
      uploaders.map((_, c) =>
        Array.from({ length: uploadsPerClient }, (_, u) =>
          prepareUpload(envelope(c, u, hex(phase * 1e9 + c * 1e6 + u + 1))),
        ),
      );
    const sendAll = async (
      c: number,
      uploads: PreparedUpload[],
      due: (u: number) => number | undefined,
      latencies: number[],
    ) => {
      for (const [u, upload] of uploads.entries()) {
        const at = due(u);
        if (at !== undefined && at > performance.now()) await Bun.sleep(at - performance.now());
        const start = at ?? performance.now();
        const result = await uploaders[c]!.sendPrepared(upload);
        if (!result.ok)
          throw new Error(`ingest answered ${result.status} ${result.refusal.code}: ${result.refusal.message}`);
        latencies.push(performance.now() - start);
      }
    };

    // 1. The raw limit: the same rows into the same table by one unnest upsert per upload, straight
    //    through postgres.js, with as many connections as the service may open.
    const sql = postgres(db.url, { max: Math.min(clients, POOL), onnotice: () => {} });
    const rawOne = async (uuid: string, env: Envelope) => {
      const rows = env.counters!.flatMap((b) => b.rows.map((r) => ({ key: r.k, day: b.day, value: r.v })));
      await sql`insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
        select ${uuid}, ${PROFILE}, t.key, t.day::date, ${env.client.install}, t.value, null, null, ${env.sentAt}
        from unnest(${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.day)}::text[], ${rows.map((r) => r.value)}::bigint[]) as t(key, day, value)
        on conflict (uuid, profile_id, key, day, install_id) do update set value = excluded.value, sent_at = excluded.sent_at`;
    };
    const rawEnvelopes = uploaders.map((_, c) =>
      Array.from({ length: uploadsPerClient }, (_, u) => envelope(c, u, hex(1))),
    );
    for (let c = 0; c < clients; c++) await rawOne(hex(0xaa00 + c), rawEnvelopes[c]![0]!);
    const pgRaw0 = postgresCpu(database);
    const r0 = performance.now();
    await Promise.all(
      rawEnvelopes.map(async (list, c) => {
        for (const env of list) await rawOne(hex(0xaa00 + c), env);
      }),
    );
    const rawSeconds = (performance.now() - r0) / 1000;
    const uploads = clients * uploadsPerClient;
    const rawPostgresCpuMsPerUpload = round(((postgresCpu(database) - pgRaw0) * 1000) / uploads);
    await sql.end();

    // 2. The endpoint at saturation: each client sends its next upload as soon as the last is answered.
    for (const [c, up] of uploaders.entries()) await up.send(envelope(c, 0, hex(0xfff000 + c)));
    const saturatedBodies = prepared(1);
    const saturated: number[] = [];
    const cpu0 = cpuSeconds();
    const pg0 = postgresCpu(database);
    const t0 = performance.now();
    await Promise.all(uploaders.map((_, c) => sendAll(c, saturatedBodies[c]!, () => undefined, saturated)));
    const endpointSeconds = (performance.now() - t0) / 1000;
    const serviceCpuMsPerUpload = round(((cpuSeconds() - cpu0) * 1000) / uploads);
    const postgresCpuMsPerUpload = round(((postgresCpu(database) - pg0) * 1000) / uploads);

    // 3. A steady load of half the raw limit: each client sends on a fixed schedule; latency counts
    //    from the scheduled moment, so waiting in a queue is counted too.
    const steadyRowsPerSec = Math.round((totalRows / rawSeconds) * 0.5);
    const intervalMs = (clients * rowsPerUpload * 1000) / steadyRowsPerSec;
    const steadyBodies = prepared(2);
    const steady: number[] = [];
    const s0 = performance.now() + 50;
    await Promise.all(
      uploaders.map((_, c) =>
        sendAll(c, steadyBodies[c]!, (u) => s0 + (c / clients) * intervalMs + u * intervalMs, steady),
      ),
    );

    const rawRowsPerSec = Math.round(totalRows / rawSeconds);
    const endpointRowsPerSec = Math.round(totalRows / endpointSeconds);
    return {
      clients,
      rawRowsPerSec,
      endpointRowsPerSec,
      endpointShareOfRaw: Math.round((endpointRowsPerSec / rawRowsPerSec) * 100) / 100,
      saturatedP50Ms: round(pct(saturated, 50)),
      saturatedP99Ms: round(pct(saturated, 99)),
      steadyRowsPerSec,
      steadyP50Ms: round(pct(steady, 50)),
      steadyP99Ms: round(pct(steady, 99)),
      peakRssMiB: peakMiB(),
      serviceCpuMsPerUpload,
      postgresCpuMsPerUpload,
      rawPostgresCpuMsPerUpload,
    };
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const levels: Level[] = [];
for (const clients of clientCounts) levels.push(await measure(clients));

const pad = (x: unknown, n: number) => String(x).padStart(n);
console.log(
  `ingest on Postgres: uploads of ${rowsPerUpload} rows (${daysPerUpload} day(s) x ${KEYS_PER_DAY} keys, gzip), ${uploadsPerClient} per client, through bench/uploader.ts\n`,
);
console.log(
  "clients   raw rows/s   ingest rows/s  share   p50 ms   p99 ms  | steady rows/s   p50 ms   p99 ms | peak RSS MiB | CPU ms/upload: service  Postgres  (raw)",
);
for (const l of levels) {
  console.log(
    `${pad(l.clients, 7)} ${pad(l.rawRowsPerSec, 12)} ${pad(l.endpointRowsPerSec, 15)} ${pad(Math.round(l.endpointShareOfRaw * 100) + "%", 6)} ${pad(l.saturatedP50Ms, 8)} ${pad(l.saturatedP99Ms, 8)}  | ${pad(l.steadyRowsPerSec, 13)} ${pad(l.steadyP50Ms, 8)} ${pad(l.steadyP99Ms, 8)} | ${pad(l.peakRssMiB, 12)} | ${pad(l.serviceCpuMsPerUpload, 22)} ${pad(l.postgresCpuMsPerUpload, 9)} ${pad(`(${l.rawPostgresCpuMsPerUpload})`, 6)}`,
  );
}
console.log(
  "\n" + JSON.stringify({ bench: "ingest", rowsPerUpload, keysPerDay: KEYS_PER_DAY, uploadsPerClient, levels }),
);
