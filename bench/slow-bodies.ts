// Slow bodies against the compiled binary on the embedded database, every limit at its default
// (issue 40). Two attacks, each on a fresh start, while three probes run in a loop:
// - uploads: 4 signed-in accounts each send POST /v1/stats/ingest with Content-Length: 900000 and
//   a body of `{`, then nothing; when the server answers or drops the connection, they reconnect;
// - reports: 600 anonymous POST /v1/reports/general bodies (Content-Length: 65536, `{`, then
//   nothing) from 20 addresses, 30 each: within the 30-an-hour limit, so each is read.
// The probes: a sign-in (POST /v1/auth/dev), a bug report and another account's upload, each from
// addresses of their own. Reported per probe: p50, p99 and the slowest (a probe unanswered after
// 10 s counts 10 s), and what the attack's requests were answered.
// TRUST_PROXY=true lets one machine be many addresses (the last X-Forwarded-For entry).
// Compare binaries in one run (the machine is noisy): the first is "after", the others as given.
//   bun run build && bun bench/slow-bodies.ts dist/tally [/tmp/base/dist/tally] [--seconds 20]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { untilHealthy } from "./process.ts";
import { newBatchId } from "./uploader.ts";

const args = process.argv.slice(2);
const seconds = Number(args[args.indexOf("--seconds") + 1]) || 20;
const binaries = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--seconds").map((a) => resolve(a));
if (binaries.length === 0) binaries.push(resolve("dist/tally"));

const PROBE_TIMEOUT_MS = 10_000;
const PROFILE = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";

type Attack = "uploads" | "reports";

/** Probe addresses: 198.18.0.0/15 (set aside for benchmarks), a fresh one per probe. */
let probeCount = 0;
const probeAddress = () => {
  const n = ++probeCount;
  return `198.18.${(n >> 8) & 255}.${n & 255}`;
};

async function signIn(base: string, uuid: string, address: string): Promise<string> {
  const res = await fetch(`${base}/v1/auth/dev`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ uuid, name: `B${uuid.slice(0, 8)}`, zone: "Europe/Berlin" }),
  });
  if (!res.ok) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** One raw connection sending `head` and `{`, then nothing; resolves with the status line's code, or "dropped". */
function slowRequest(port: number, head: string): Promise<string> {
  return new Promise((done) => {
    let answered = "";
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open: (s) => void s.write(`${head}\r\n\r\n{`),
        data: (s, d) => {
          answered ||= /^HTTP\/1\.1 (\d{3})/.exec(d.toString())?.[1] ?? "?";
          s.end();
        },
        close: () => done(answered || "dropped"),
        error: () => done(answered || "error"),
      },
    }).catch(() => done("refused"));
  });
}

const head = (path: string, length: number, headers: Record<string, string>) =>
  [
    `POST ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Content-Length: ${length}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ].join("\r\n");

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;

async function run(binary: string, attack: Attack) {
  const dir = mkdtempSync(join(tmpdir(), "tally-slow-"));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const base = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn([binary], {
    cwd: dir,
    env: {
      PATH: "/usr/bin:/bin",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "error",
      DEV_SIGNIN: "true",
      TRUST_PROXY: "true",
      DATA_DIR: join(dir, "data"),
    },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    await untilHealthy(base, 20);
    // The other account, which the upload probe signs in as and which consents to gathering.
    const otherToken = await signIn(base, "ee".repeat(16), probeAddress());
    const other = { authorization: `Bearer ${otherToken}`, "content-type": "application/json" };
    await fetch(`${base}/v1/stats/settings`, {
      method: "PATCH",
      headers: { ...other, "x-forwarded-for": probeAddress() },
      body: JSON.stringify({ settingsVersion: 1, categories: { gathering: true } }),
    });
    const catalogue = ((await (await fetch(`${base}/v1/stats/catalogue`)).json()) as { catalogueVersion: number })
      .catalogueVersion;
    const attackers =
      attack === "uploads"
        ? await Promise.all(
            [1, 2, 3, 4].map((i) => signIn(base, `${i}`.repeat(32), probeAddress()).then((t) => `Bearer ${t}`)),
          )
        : [];

    // The probes, each in its own loop, one request at a time; warmed up before the attack.
    const timed = async (send: () => Promise<Response>) => {
      const t0 = performance.now();
      try {
        const res = await send();
        await res.arrayBuffer();
        return { ms: performance.now() - t0, status: String(res.status) };
      } catch {
        return { ms: PROBE_TIMEOUT_MS, status: "timeout" };
      }
    };
    const probes: Record<string, () => Promise<Response>> = {
      "sign-in": () =>
        fetch(`${base}/v1/auth/dev`, {
          method: "POST",
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
          headers: { "content-type": "application/json", "x-forwarded-for": probeAddress() },
          body: JSON.stringify({ uuid: "dd".repeat(16), name: "Prober", zone: "Europe/Berlin" }),
        }),
      report: () =>
        fetch(`${base}/v1/reports/general`, {
          method: "POST",
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
          headers: { "content-type": "application/json", "x-forwarded-for": probeAddress() },
          body: JSON.stringify({
            schema: 1,
            modVersion: "1.2.0",
            minecraft: "1.21.4",
            loader: "fabric",
            title: "Probe",
          }),
        }),
      upload: () => {
        const now = Date.now();
        return fetch(`${base}/v1/stats/ingest`, {
          method: "POST",
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
          headers: { ...other, "x-forwarded-for": "198.51.100.50" },
          body: JSON.stringify({
            schema: 1,
            batchId: newBatchId(),
            sentAt: now,
            mode: "live",
            client: { install: "a0".repeat(16), modVersion: "1.4.0", minecraft: "1.21.4", catalogue },
            zone: { id: "Europe/Berlin" },
            settingsVersion: 2,
            profile: { id: PROFILE, cuteName: "Pomegranate" },
            categories: ["gathering"],
            counters: [
              {
                profileId: PROFILE,
                scope: "day",
                day: new Date(now).toISOString().slice(0, 10),
                rows: [{ k: "mining.blocks.stone", v: 1 }],
              },
            ],
          }),
        });
      },
    };
    for (let i = 0; i < 5; i++) for (const send of Object.values(probes)) await timed(send);

    // The attack.
    let running = true;
    const outcomes: Record<string, number> = {};
    // Counted while the probes run (at the end the service is stopped, which drops the rest).
    const count = (o: string) => void (running && (outcomes[o] = (outcomes[o] ?? 0) + 1));
    const attacks: Promise<void>[] = [];
    if (attack === "uploads") {
      for (const [i, authorization] of attackers.entries()) {
        attacks.push(
          (async () => {
            while (running) {
              const h = head("/v1/stats/ingest", 900_000, { authorization, "x-forwarded-for": `203.0.113.${i}` });
              count(await slowRequest(port, h));
            }
          })(),
        );
      }
    } else {
      for (let i = 0; i < 600; i++) {
        const h = head("/v1/reports/general", 65_536, { "x-forwarded-for": `203.0.113.${i % 20}` });
        attacks.push(slowRequest(port, h).then(count));
      }
    }
    await Bun.sleep(1000);

    const until = performance.now() + seconds * 1000;
    const results = await Promise.all(
      Object.entries(probes).map(async ([name, send]) => {
        const samples: { ms: number; status: string }[] = [];
        while (performance.now() < until) {
          samples.push(await timed(send));
          await Bun.sleep(100);
        }
        const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
        const statuses: Record<string, number> = {};
        for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
        return {
          probe: name,
          n: samples.length,
          p50: Math.round(percentile(ms, 50)),
          p99: Math.round(percentile(ms, 99)),
          max: Math.round(ms.at(-1) ?? NaN),
          statuses,
        };
      }),
    );
    running = false;
    const counted = Object.values(outcomes).reduce((a, b) => a + b, 0);
    if (attack === "reports" && counted < 600) outcomes["still open"] = 600 - counted;
    return { probes: results, answered: outcomes };
  } finally {
    proc.kill("SIGKILL");
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`probes for ${seconds} s under each attack; a probe unanswered in ${PROBE_TIMEOUT_MS} ms counts that\n`);
const all: Record<string, unknown>[] = [];
for (const attack of ["uploads", "reports"] as const) {
  for (const binary of binaries) {
    const r = await run(binary, attack);
    all.push({ binary, attack, ...r });
    console.log(`${attack} attack, ${binary}`);
    for (const p of r.probes)
      console.log(
        `  ${p.probe.padEnd(8)} n ${String(p.n).padStart(4)}  p50 ${String(p.p50).padStart(6)} ms  p99 ${String(p.p99).padStart(6)} ms  max ${String(p.max).padStart(6)} ms  ${JSON.stringify(p.statuses)}`,
      );
    console.log(`  the attack's requests, answered while probing: ${JSON.stringify(r.answered)}`);
  }
}
console.log(JSON.stringify({ seconds, results: all }));
