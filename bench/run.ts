// `bun run bench`: every benchmark in one run against the compiled binary and a local Postgres
// (DATABASE_URL), then one summary table of the headline figures and one JSON document with every
// figure each benchmark reported. Each benchmark runs alone, one after another, so none measures
// another's load; their own tables are shown as they finish. Asserts nothing.
//   bun run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun bench/run.ts [dist/tally] [--out results.json]
// `--growth` runs only the growth benchmark (bench/growth.ts: cost against 1M and 10M day rows, on
// template databases it fills once and keeps; `--sizes 1m,10m,50m` is passed on).
import { availableParallelism, totalmem } from "node:os";
import { resolve } from "node:path";
import { loadConfig } from "../src/config.ts";
import { maskUrl } from "../src/db/connect-postgres.ts";

const args = process.argv.slice(2);
const out = args.includes("--out") ? args[args.indexOf("--out") + 1] : undefined;
const binary = resolve(
  args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--out" && args[i - 1] !== "--sizes") ?? "dist/tally",
);
const databaseUrl = loadConfig().databaseUrl;
if (!databaseUrl) {
  console.error(
    "bench/run.ts measures the binary on Postgres: set DATABASE_URL to a server where it may create and drop databases,\n  e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun run bench",
  );
  process.exit(2);
}
if (!(await Bun.file(binary).exists())) {
  console.error(`no binary at ${binary}: run bun run build first`);
  process.exit(2);
}

/** Each benchmark, with what its command line needs; every one ends with a JSON line. */
const benches: { name: string; argv: string[] }[] = [
  { name: "startup", argv: ["bench/startup.ts", binary] },
  { name: "ingest", argv: ["bench/ingest.ts", binary, "--clients", "1,16,64"] },
  // The mod's usual upload: today's values of 600 keys (the days above span a catch-up).
  { name: "ingestLive", argv: ["bench/ingest.ts", binary, "--clients", "16", "--keys", "600"] },
  { name: "fold", argv: ["bench/fold.ts"] },
  { name: "pages", argv: ["bench/pages.ts"] },
  { name: "cards", argv: ["bench/cards.ts"] },
  // One account with many distinct keys: the upload of that many new keys and its page (issue 22).
  { name: "keys", argv: ["bench/keys.ts", "--keys", "500,2000,10000"] },
  { name: "auth", argv: ["bench/auth.ts"] },
  { name: "profiles", argv: ["bench/profiles.ts"] },
  { name: "reports", argv: ["bench/reports.ts"] },
];

if (args.includes("--growth")) {
  const sizes = args.includes("--sizes") ? ["--sizes", args[args.indexOf("--sizes") + 1]!] : [];
  const proc = Bun.spawn(["bun", "bench/growth.ts", binary, ...sizes], {
    cwd: resolve(import.meta.dir, ".."),
    stdout: "pipe",
    stderr: "inherit",
  });
  const text = await new Response(proc.stdout).text();
  process.stdout.write(text);
  const code = await proc.exited;
  if (out && code === 0) await Bun.write(out, text.trim().split("\n").at(-1) + "\n");
  process.exit(code);
}

type Json = Record<string, any>;
const results: Record<string, Json> = {};
const started = new Date();
for (const bench of benches) {
  console.log(`\n=== ${bench.name}`);
  const t0 = performance.now();
  const proc = Bun.spawn(["bun", ...bench.argv], {
    cwd: resolve(import.meta.dir, ".."),
    stdout: "pipe",
    stderr: "inherit",
  });
  const text = await new Response(proc.stdout).text();
  const code = await proc.exited;
  process.stdout.write(text);
  const json = text
    .trim()
    .split("\n")
    .findLast((line) => line.startsWith("{"));
  if (code !== 0 || !json) {
    console.error(`bench ${bench.name} failed (exit ${code})`);
    process.exit(1);
  }
  results[bench.name] = { ...JSON.parse(json), seconds: Math.round((performance.now() - t0) / 100) / 10 };
}

// The headline figures, one line each.
const { startup, ingest, ingestLive, fold, pages, cards, keys, auth, profiles, reports } = results as Record<
  string,
  Json
>;
const startRow = (backend: string, start: string) =>
  startup!.rows.find((r: Json) => r.backend === backend && r.start.startsWith(start));
const summary: [string, string][] = [
  ["binary", `${startup!.binaryMiB} MiB`],
  ...["embedded", "postgres"].map((b): [string, string] => [
    `start-up, ${b}`,
    `first ${startRow(b, "first")?.p50Ms} ms, second ${startRow(b, "second")?.p50Ms} ms (p50), idle RSS ${startRow(b, "second")?.idleRssMiB} MiB`,
  ]),
  ...[...ingest!.levels, ...ingestLive!.levels.map((l: Json) => ({ ...l, live: true }))].map(
    (l: Json): [string, string] => [
      `ingest, ${l.clients} client${l.clients === 1 ? "" : "s"}${l.live ? ", live (1 day x 600 keys)" : " (6 days x 100 keys)"}`,
      `${l.endpointRowsPerSec} rows/s (${Math.round(l.endpointShareOfRaw * 100)}% of raw ${l.rawRowsPerSec}), p50 ${l.saturatedP50Ms} / p99 ${l.saturatedP99Ms} ms; at half raw p99 ${l.steadyP99Ms} ms; peak RSS ${l.peakRssMiB} MiB`,
    ],
  ),
  [
    "fold (365 d x 500 keys x 2 installs)",
    `lifetime p50 ${fold!.lifetimeP50Ms} ms, one series p50 ${fold!.seriesP50Ms} ms, seal ${fold!.sealRowsPerSec} rows/s`,
  ],
  ...pages!.pages.map((p: Json): [string, string] => [
    `page ${p.path.replace(/\/u\/[^?]+/, "/u/<name>")}`,
    `render p50 ${p.p50Ms} ms, ${p.transferred} bytes transferred`,
  ]),
  ["link preview card", cards!.rows.map((r: Json) => `${r.case}: ${r.wallP50Ms} ms (cpu ${r.cpuP50Ms} ms)`).join("; ")],
  ...keys!.rows.map((r: Json): [string, string] => [
    `${r.keys} keys: upload of new keys, page`,
    `upload ${r.uploadNewMs} ms (again ${r.uploadAgainMs} ms), page p50 ${r.pageP50Ms} ms, ${r.pageBytes} bytes, ${r.charts} charts, kept copy ${r.cachedPageP50Ms} ms`,
  ]),
  ["auth token check", `adds ${auth!.addedP50Ms} ms p50`],
  [
    "profile lookup, cached",
    `p50 ${profiles!.rows?.[0]?.p50Ms} ms; stampede of ${profiles!.stampede?.requests}: ${profiles!.stampede?.upstreamCalls} upstream call(s)`,
  ],
  [
    "bug reports",
    `${reports!.rows?.map((r: Json) => `${r.reportsPerSecond}/s`).join(", ")} (no webhook, hanging, refusing)`,
  ],
];
console.log(
  `\n=== summary: ${binary} on ${maskUrl(databaseUrl)}, ${availableParallelism()} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, ${started.toISOString()}\n`,
);
const width = Math.max(...summary.map(([k]) => k.length));
for (const [k, v] of summary) console.log(`${k.padEnd(width)}  ${v}`);

const document = {
  bench: "all",
  at: started.toISOString(),
  cores: availableParallelism(),
  memGiB: Math.round(totalmem() / 2 ** 30),
  binary,
  results,
};
if (out) await Bun.write(out, JSON.stringify(document, null, 2) + "\n");
console.log("\n" + JSON.stringify(document));
