// Issue 9 against the compiled binary, run by .ci/run after the smoke test:
//   bun test/fuzz/run.ts dist/tally
// Starts the binary from an empty folder (embedded database; then on Postgres too when
// DATABASE_URL is set), signs a player in, and sends FUZZ_COUNT (5000) mutated uploads from
// mutate.ts over HTTP, FUZZ_CONCURRENCY (4) at a time. It checks that the process never dies, that
// no answer is 5xx and every refusal has a stable code, that nothing a refused upload carried is in
// the player's export, that no request logged an unhandled error, and that memory stays bounded.
//
// Memory: the binary's resident set (VmRSS in /proc/<pid>/status) is sampled every 100 requests
// after a warm-up (the first 1000 requests, which send every kind of mutation, the largest bodies
// included, so the heap has reached the working size of the largest request). A single sample
// swings by 100-250 MiB with whichever 8 MiB body was just parsed and when the collector last ran,
// so the check compares floors: the lowest sample of the last third of the run may exceed the
// lowest of the first third after the warm-up by at most 64 MiB on Postgres. A leak raises the
// floor (one refused body of a few KiB kept per request is over 10 MiB per thousand requests, a
// kept large body far more). On the embedded database the database itself lives in the process:
// its shared buffers (PGlite's 128 MB) fill with the pages the run writes and WebAssembly memory
// never shrinks, so there the bound is 64 + 128 = 192 MiB (measured: about 40 MiB over 5000
// requests, 80 over 15 000, levelling off; on Postgres none at all: 4-8 MiB over 5 000 and 20 000).
// A floor over its bound is confirmed before it fails: the collector sizes its heap by the
// allocation rate it sees, and on one CI machine the Postgres floor climbed 74 MiB over 5 000
// requests where this machine's stays flat; so as many requests again are sent, and the run fails
// only if the floor climbs past the bound again (a leak grows with the requests, a heap settles).
// The peak (VmHWM) must stay under 1536 MiB: the caps (8 MiB decoded) times 4 requests at a time.

import { mkdtempSync, rmSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createPostgresDatabase } from "../support/db.ts";
import { answerFault, Tally } from "./check.ts";
import { fuzzRequest, MARKER, batchIdOf, type FuzzContext, type FuzzRequest } from "./mutate.ts";

const binary = resolve(process.argv[2] ?? "dist/tally");
const seed = Number(Bun.env.FUZZ_SEED ?? 9);
const count = Number(Bun.env.FUZZ_COUNT ?? 5000);
const concurrency = Number(Bun.env.FUZZ_CONCURRENCY ?? 4);
const WARM_UP = Math.min(1000, Math.floor(count / 5));
const GROWTH_BOUND_MIB = 64;
/** PGlite's shared_buffers, filled as the run writes: held inside the binary on the embedded database. */
const EMBEDDED_CACHE_MIB = 128;
const PEAK_BOUND_MIB = 1536;
const SAMPLE_EVERY = 100;
const catalogueFile = join(import.meta.dir, "../../fixtures/catalogue.json");
const postgresUrl = loadConfig().databaseUrl;
const MiB = 1024 * 1024;

type Memory = { rss: number; hwm: number };
/** The binary's resident set now and its peak so far (VmRSS, VmHWM), in bytes. */
function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib("VmRSS"), hwm: kib("VmHWM") };
}
const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;

async function fuzzBinary(backend: string, env: Record<string, string>): Promise<string[]> {
  const faults: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "tally-fuzz-"));
  // A port that is free now (a random one collided with another server on this machine once).
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port;
  await probe.stop(true);
  const url = `http://127.0.0.1:${port}`;
  const logFile = join(dir, "tally.log");
  const proc = Bun.spawn([binary], {
    cwd: dir,
    env: {
      PATH: "/usr/bin:/bin",
      HOME: tmpdir(),
      PORT: String(port),
      HOST: "127.0.0.1",
      DEV_SIGNIN: "true",
      AUTH_RATE_LIMIT_PER_MINUTE: "0",
      CATALOGUE_FILE: catalogueFile,
      ...env,
    },
    stdout: Bun.file(logFile),
    stderr: Bun.file(join(dir, "tally.err")),
    stdin: "ignore",
  });
  try {
    for (const t0 = performance.now(); ; await Bun.sleep(20)) {
      if (proc.exitCode !== null)
        throw new Error(
          `exited ${proc.exitCode} before answering: ${readFileSync(join(dir, "tally.err"), "utf8")}${readFileSync(logFile, "utf8").slice(-2000)}`,
        );
      if (
        await fetch(`${url}/v1/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (performance.now() - t0 > 30_000) throw new Error("no answer within 30 s");
    }
    const uuid = crypto.randomUUID().replaceAll("-", "");
    const post = (path: string, body: unknown, headers: Record<string, string> = {}, method = "POST") =>
      fetch(url + path, {
        method,
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const { token } = (await (
      await post("/v1/auth/dev", { uuid, name: "Fuzz_Player", zone: "Europe/Berlin" })
    ).json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    await post(
      "/v1/stats/settings",
      { settingsVersion: 1, categories: { combat: true, gathering: true } },
      auth,
      "PATCH",
    );

    const catalogue = JSON.parse(readFileSync(catalogueFile, "utf8")) as {
      catalogueVersion: number;
      namespaces: { id: string; category: string }[];
      categories: { id: string }[];
    };
    const start = Date.now();
    const ctx: FuzzContext = {
      catalogueVersion: catalogue.catalogueVersion,
      categoryOf: new Map(catalogue.namespaces.map((n) => [n.id, n.category])),
      categories: catalogue.categories.map((c) => c.id),
      nowAt: (n) => start + n,
    };

    const tally = new Tally();
    const accepted: FuzzRequest[] = [];
    /** The resident set every SAMPLE_EVERY requests after the warm-up: a leak raises its floor. */
    let samples: number[] = [];
    let next = 0;
    const t0 = performance.now();
    const worker = (end: number) => async () => {
      for (let n = next++; n < end; n = next++) {
        const req = fuzzRequest(seed, n, ctx);
        let status = 0;
        let text = "";
        try {
          const res = await fetch(`${url}/v1/stats/ingest`, {
            method: "POST",
            body: req.body,
            headers: { ...req.headers, ...(req.auth ? auth : {}) },
          });
          status = res.status;
          text = await res.text();
        } catch (e) {
          // The server may close a connection whose body it refused unread (a body over the cap).
          if (proc.exitCode !== null)
            throw new Error(`the binary died at request ${n} (${req.kind}), exit ${proc.exitCode}`);
          status = -1;
          text = String(e);
        }
        if (status === -1) {
          if (!["giant_body", "giant_array", "gzip_bomb"].includes(req.kind))
            faults.push(`FUZZ_SEED=${seed} FUZZ_ONLY=${n} (${req.kind}): connection failed: ${text}`);
          tally.add(req.kind, 0, '{"error":{"code":"connection_closed"}}');
          continue;
        }
        tally.add(req.kind, status, text);
        const fault = answerFault(status, text);
        if (fault && faults.length < 20) faults.push(`FUZZ_SEED=${seed} FUZZ_ONLY=${n} (${req.kind}): ${fault}`);
        if (status === 200) accepted.push(req);
        if (n >= WARM_UP && n % SAMPLE_EVERY === 0) samples.push(memoryOf(proc.pid).rss);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker(count)));
    const ms = Math.round(performance.now() - t0);
    if (proc.exitCode !== null) faults.push(`the binary exited ${proc.exitCode} during the run`);
    await Bun.sleep(500);
    let after = memoryOf(proc.pid);
    samples.push(after.rss);
    const floors = (list: number[]) => {
      const third = Math.max(1, Math.floor(list.length / 3));
      return { early: Math.min(...list.slice(0, third)), late: Math.min(...list.slice(-third)) };
    };
    const { early, late } = floors(samples);
    const growth = late - early;
    const bound = GROWTH_BOUND_MIB + (env.DATABASE_URL ? 0 : EMBEDDED_CACHE_MIB);
    let confirmed: number | undefined;
    if (growth > bound * MiB) {
      // The collector sizes its heap by the allocation rate it sees, so on some machines the floor
      // climbs for a while and then settles; a leak keeps climbing with the requests. The same
      // number of requests again (the seed's next mutations) tells them apart: the floor of its last
      // third over the first run's last third.
      samples = [];
      const end = next + (count - WARM_UP);
      await Promise.all(Array.from({ length: concurrency }, worker(end)));
      after = memoryOf(proc.pid);
      samples.push(after.rss);
      confirmed = floors(samples).late - late;
      console.log(
        `the floor grew ${mib(growth)} MiB (bound ${bound}); ${count - WARM_UP} more requests: it grew ${mib(confirmed)} MiB more`,
      );
      if (confirmed > bound * MiB)
        faults.push(
          `the resident set's floor grew ${mib(growth)} MiB from the first third of the run to the last, and ${mib(confirmed)} MiB more over as many requests again (bound ${bound} MiB)`,
        );
    }

    // Nothing a refused upload carried reached the player's data; every accepted upload is kept.
    const exported = await (await fetch(`${url}/v1/stats/export`, { headers: auth })).text();
    const acceptedN = new Set(accepted.map((r) => r.n));
    const strangers = [...new Set([...exported.matchAll(MARKER)].map((m) => Number(m[1])))].filter(
      (n) => !acceptedN.has(n),
    );
    for (const n of strangers.slice(0, 20))
      faults.push(`FUZZ_SEED=${seed} FUZZ_ONLY=${n}: refused, but its rows are in the export`);
    const sample = accepted.slice(0, 50);
    const duplicates = await Promise.all(
      sample.map(async (req) => {
        const res = await fetch(`${url}/v1/stats/ingest`, {
          method: "POST",
          body: req.body,
          headers: { ...req.headers, ...auth },
        });
        return res.status === 200 && ((await res.json()) as { duplicate: boolean }).duplicate;
      }),
    );
    if (!duplicates.every(Boolean))
      faults.push(
        `an accepted upload sent again was not answered as a duplicate (${sample
          .filter((_, i) => !duplicates[i])
          .map((r) => batchIdOf(r))
          .join(", ")})`,
      );

    proc.kill("SIGTERM");
    const code = await proc.exited;
    if (code !== 0) faults.push(`SIGTERM after the run: exit ${code}, not 0`);
    const log = readFileSync(logFile, "utf8");
    const unhandled = log.split("\n").filter((l) => l.includes('"unhandled error"'));
    for (const line of unhandled.slice(0, 5)) faults.push(`logged: ${line.slice(0, 400)}`);

    if (after.hwm > PEAK_BOUND_MIB * MiB)
      faults.push(`peak resident set ${mib(after.hwm)} MiB (bound ${PEAK_BOUND_MIB} MiB)`);
    const memory = {
      earlyFloorMiB: mib(early),
      lateFloorMiB: mib(late),
      growthMiB: mib(growth),
      ...(confirmed === undefined ? {} : { confirmedGrowthMiB: mib(confirmed) }),
      afterRssMiB: mib(after.rss),
      peakRssMiB: mib(after.hwm),
      growthBoundMiB: bound,
      peakBoundMiB: PEAK_BOUND_MIB,
    };
    console.log(
      `\n== fuzz of ${binary} on the ${backend} database: seed ${seed}, ${count} requests, ${concurrency} at a time, ${ms} ms ==\n`,
    );
    console.log(tally.table());
    console.log(
      `\nmemory: resident set floor ${memory.earlyFloorMiB} MiB early, ${memory.lateFloorMiB} MiB late (growth ${memory.growthMiB} MiB, bound ${bound}); after the run ${memory.afterRssMiB} MiB; peak ${memory.peakRssMiB} MiB (bound ${PEAK_BOUND_MIB})`,
    );
    console.log(
      `resident set every ${SAMPLE_EVERY} requests after the warm-up (MiB): ${samples.map((b) => Math.round(mib(b))).join(" ")}`,
    );
    console.log(
      `export: ${new Set([...exported.matchAll(MARKER)].map((m) => m[1])).size} accepted uploads found, none refused; unhandled errors logged: ${unhandled.length}`,
    );
    console.log(JSON.stringify(tally.json({ backend, seed, ms, concurrency, memory })));
    return faults;
  } finally {
    if (proc.exitCode === null) proc.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

const faults: string[] = [];
try {
  faults.push(...(await fuzzBinary("embedded", {})));
  if (postgresUrl) {
    const db = await createPostgresDatabase();
    try {
      faults.push(...(await fuzzBinary("postgres", { DATABASE_URL: db.url })).map((f) => `postgres: ${f}`));
    } finally {
      await db.drop();
    }
  }
} catch (e) {
  faults.push(String(e));
}
for (const f of faults) console.log(`FAIL ${f}`);
console.log(faults.length ? `fuzz: ${faults.length} faults` : "fuzz: no faults");
process.exit(faults.length ? 1 : 0);
