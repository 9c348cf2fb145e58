// Hostile bodies against the compiled binary on the embedded database (issue 22, finding 1): 16 at
// once of the request (8 KB of gzip inflating to 4 million `[` then 4 million `]`) to each
// route that takes a body from strangers, and signed in to the upload. Per scenario, a fresh start:
// idle RSS, peak RSS (VmHWM), the answers, the wall time and the slowest health check meanwhile.
// Compare binaries in one run (the machine is noisy): the first is "after", the others as given.
//   bun run build && bun bench/hostile-bodies.ts dist/tally [/tmp/base/dist/tally] [--concurrency 16]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { untilHealthy } from "./process.ts";

const args = process.argv.slice(2);
const concurrency = Number(args[args.indexOf("--concurrency") + 1]) || 16;
const binaries = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--concurrency").map((a) => resolve(a));
if (binaries.length === 0) binaries.push(resolve("dist/tally"));

const kib = (pid: number, field: "VmRSS" | "VmHWM") =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
const bomb = Bun.gzipSync(new TextEncoder().encode("[".repeat(4_000_000) + "]".repeat(4_000_000)), { level: 9 });

type Scenario = { name: string; path: string; signedIn: boolean };
const scenarios: Scenario[] = [
  { name: "ingest, no token", path: "/v1/stats/ingest", signedIn: false },
  { name: "auth/challenge", path: "/v1/auth/challenge", signedIn: false },
  { name: "reports/general", path: "/v1/reports/general", signedIn: false },
  { name: "ingest, signed in", path: "/v1/stats/ingest", signedIn: true },
];

async function run(binary: string, s: Scenario) {
  const dir = mkdtempSync(join(tmpdir(), "tally-hostile-"));
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
      DATA_DIR: join(dir, "data"),
    },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    await untilHealthy(base, 20);
    let auth: Record<string, string> = {};
    if (s.signedIn) {
      const res = await fetch(`${base}/v1/auth/dev`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uuid: "ab".repeat(16), name: "Bencher", zone: "Europe/Berlin" }),
      });
      auth = { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
    }
    for (let i = 0; i < 10; i++) await fetch(`${base}/v1/health`);
    await Bun.sleep(300);
    const idle = kib(proc.pid, "VmRSS");
    let worstHealth = 0;
    let done = false;
    // Health is probed from another process (curl, a fresh connection each time), so the probe never
    // queues behind the bodies in this process's own connection pool.
    const prober = (async () => {
      while (!done) {
        const curl = Bun.spawn(["curl", "-s", "-o", "/dev/null", "-w", "%{time_total}", `${base}/v1/health`], {
          stdout: "pipe",
        });
        const seconds = Number(await new Response(curl.stdout).text());
        if (Number.isFinite(seconds)) worstHealth = Math.max(worstHealth, seconds * 1000);
        await Bun.sleep(50);
      }
    })();
    const t0 = performance.now();
    const answers = await Promise.all(
      Array.from({ length: concurrency }, () =>
        fetch(`${base}${s.path}`, {
          method: "POST",
          body: bomb,
          headers: { "content-type": "application/json", "content-encoding": "gzip", ...auth },
        }).then(
          async (r) =>
            `${r.status} ${((await r.json().catch(() => ({}))) as { error?: { code?: string } }).error?.code ?? ""}`.trim(),
          (e) => `failed: ${(e as Error).message}`,
        ),
      ),
    );
    const ms = performance.now() - t0;
    done = true;
    await prober;
    const peak = kib(proc.pid, "VmHWM");
    const byAnswer: Record<string, number> = {};
    for (const a of answers) byAnswer[a] = (byAnswer[a] ?? 0) + 1;
    return {
      idleMiB: Math.round(idle / 1024),
      peakMiB: Math.round(peak / 1024),
      ms: Math.round(ms),
      worstHealthMs: Math.round(worstHealth),
      answers: byAnswer,
    };
  } finally {
    proc.kill("SIGKILL");
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`${concurrency} concurrent bodies of ${bomb.byteLength} bytes (gzip of 4M '[' then 4M ']')\n`);
const results: Record<string, unknown>[] = [];
for (const s of scenarios) {
  for (const binary of binaries) {
    const r = await run(binary, s);
    results.push({ binary, scenario: s.name, ...r });
    console.log(
      `${s.name.padEnd(20)} ${binary.padEnd(40)} idle ${String(r.idleMiB).padStart(4)} MiB  peak ${String(r.peakMiB).padStart(6)} MiB  ` +
        `${String(r.ms).padStart(6)} ms  worst health ${String(r.worstHealthMs).padStart(6)} ms  ${JSON.stringify(r.answers)}`,
    );
  }
}
console.log(JSON.stringify({ concurrency, bombBytes: bomb.byteLength, results }));
