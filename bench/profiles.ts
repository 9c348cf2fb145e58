// The profile source under load, over HTTP on loopback, on the database under test (Postgres when
// DATABASE_URL is set, else embedded), against the fake game API:
//   - a cached lookup: p50/p99 latency (sequential) and req/s (32 concurrent clients), with the
//     lookup rate limit off and on (on: every request also counts itself in Postgres);
//   - a 50-way stampede of misses for one uuid while the game API takes 200 ms: upstream calls.
// Reports a table and JSON; asserts nothing.
//   bun bench/profiles.ts [--requests N]
import { createApp } from "../src/app.ts";
import { createMetrics } from "../src/metrics/metrics.ts";
import { loadConfig, envFor } from "../src/config.ts";
import { systemClock } from "../src/clock.ts";
import { createLog } from "../src/log.ts";
import { loadCatalogue } from "../src/catalogue/load.ts";
import { listen } from "../src/http/serve.ts";
import { testDatabase, backend } from "../test/support/db.ts";
import { fakeGameApi, hypixelProfile } from "../test/support/fakes/game-api.ts";

const args = process.argv.slice(2);
const n = Number(args[args.indexOf("--requests") + 1]) || 3000;
const KEY = "bench-key-0000";
const alice = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

const database = await testDatabase();
const game = fakeGameApi({ key: KEY, limit: 1_000_000 });
game.players.set(alice, [
  hypixelProfile(alice),
  hypixelProfile(alice, { profileId: "aaaabbbbccccddddeeeeffff00001111", cuteName: "Banana", selected: false }),
]);
const log = createLog({ level: "error" });
const catalogue = await loadCatalogue("");

function serve(lookupRateLimit: number) {
  const config = loadConfig(envFor({ gameApiUrl: game.url, gameApiKey: KEY, lookupRateLimit, logLevel: "error" }));
  const app = createApp({
    db: database.db,
    config,
    clock: systemClock,
    fetch,
    log,
    catalogue,
    metrics: createMetrics(),
  });
  return listen(app, { host: "127.0.0.1", port: 0, graceMs: 1000, log });
}

async function get(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - t0;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const r = (x: number) => Math.round(x * 1000) / 1000;

async function cachedRow(label: string, lookupRateLimit: number) {
  const server = serve(lookupRateLimit);
  const url = `${server.url}/v1/gamemode/profiles/${alice}`;
  await get(url); // fills the cache
  for (let i = 0; i < 300; i++) await get(url);
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await get(url));
  const clients = 32;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < Math.ceil(n / clients); i++) await get(url);
    }),
  );
  const reqPerSec = Math.round((clients * Math.ceil(n / clients)) / ((performance.now() - t0) / 1000));
  await server.stop("bench done");
  return { case: label, p50Ms: r(pct(times, 50)), p99Ms: r(pct(times, 99)), reqPerSec };
}

const rows = [
  await cachedRow("cached lookup, rate limit off", 0),
  await cachedRow("cached lookup, rate limit on", 100_000),
];

// The stampede: 50 concurrent misses for a uuid nobody asked for yet, the game API slow.
const stampedeUuid = "5".repeat(32);
game.players.set(stampedeUuid, [hypixelProfile(stampedeUuid)]);
game.state.failure = "slow";
game.state.slowMs = 200;
const server = serve(0);
const before = game.lookups();
const t0 = performance.now();
const statuses = await Promise.all(
  Array.from({ length: 50 }, async () => (await fetch(`${server.url}/v1/gamemode/profiles/${stampedeUuid}`)).status),
);
const stampede = {
  requests: 50,
  ok: statuses.filter((s) => s === 200).length,
  upstreamCalls: game.lookups() - before,
  wallMs: r(performance.now() - t0),
};
await server.stop("bench done");
game.stop();
await database.close();

console.log(`profile lookups on the ${backend} database, ${n} requests per case, loopback HTTP\n`);
console.log("case                              p50 ms   p99 ms    req/s");
for (const row of rows)
  console.log(
    `${row.case.padEnd(32)} ${String(row.p50Ms).padStart(7)} ${String(row.p99Ms).padStart(8)} ${String(row.reqPerSec).padStart(8)}`,
  );
console.log(
  `\n50-way stampede of misses (game API answering in 200 ms): ${stampede.upstreamCalls} upstream call(s), ${stampede.ok}/50 answered 200 in ${stampede.wallMs} ms`,
);
console.log("\n" + JSON.stringify({ bench: "profiles", backend, requests: n, rows, stampede }));
