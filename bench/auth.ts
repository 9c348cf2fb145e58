// What the token check adds to a request: p50/p99 of one no-op route served with and without the
// auth guard, and of a read route (GET /v1/stats/profiles) with a device session and with a personal
// access token (issue 37: its lookup, its rate-limit count and headers), over HTTP on loopback, on
// the database under test (Postgres when DATABASE_URL is set, else embedded). Reports a table and
// JSON; asserts nothing.
//   bun bench/auth.ts [--requests N]
import { Elysia } from "elysia";
import { createApp } from "../src/app.ts";
import { createMetrics } from "../src/metrics/metrics.ts";
import { authGuard } from "../src/auth/auth-guard.ts";
import { loadConfig, envFor } from "../src/config.ts";
import { systemClock } from "../src/clock.ts";
import { createLog } from "../src/log.ts";
import { loadCatalogue } from "../src/catalogue/load.ts";
import { listen } from "../src/http/serve.ts";
import { testDatabase, backend } from "../test/support/db.ts";

const args = process.argv.slice(2);
const n = Number(args[args.indexOf("--requests") + 1]) || 5000;

const database = await testDatabase();
const config = loadConfig(envFor({ devSignin: true, authRateLimit: 0, tokenRateLimit: 100_000, logLevel: "error" }));
const log = createLog({ level: "error" });
const deps = {
  db: database.db,
  config,
  clock: systemClock,
  fetch,
  log,
  catalogue: await loadCatalogue(""),
  metrics: createMetrics(),
};
const app = createApp(deps)
  .use(new Elysia().get("/bench/open", () => "ok"))
  .use(new Elysia().use(authGuard(deps)).get("/bench/signed-in", ({ signedIn }) => (signedIn.uuid ? "ok" : "no")));
const server = listen(app as unknown as ReturnType<typeof createApp>, {
  host: "127.0.0.1",
  port: 0,
  graceMs: 1000,
  log,
});

const signIn = await fetch(`${server.url}/v1/auth/dev`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ uuid: "b".repeat(32), name: "Bench", zone: "UTC" }),
});
const { token } = (await signIn.json()) as { token: string };
const auth = { authorization: `Bearer ${token}` };
const made = await fetch(`${server.url}/v1/stats/tokens`, {
  method: "POST",
  headers: { ...auth, "content-type": "application/json" },
  body: JSON.stringify({ label: "bench", scopes: ["stats:read"] }),
});
const personal = { authorization: `Bearer ${((await made.json()) as { token: string }).token}` };

async function time(path: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(server.url + path, { headers });
  await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return performance.now() - t0;
}

const open: number[] = [];
const guarded: number[] = [];
const readSession: number[] = [];
const readToken: number[] = [];
for (let i = 0; i < 500; i++) await Promise.all([time("/bench/open", {}), time("/bench/signed-in", auth)]);
for (let i = 0; i < 200; i++)
  await Promise.all([time("/v1/stats/profiles", auth), time("/v1/stats/profiles", personal)]);
for (let i = 0; i < n; i++) {
  // Interleaved, so drift in the machine's load hits all alike.
  open.push(await time("/bench/open", {}));
  guarded.push(await time("/bench/signed-in", auth));
  readSession.push(await time("/v1/stats/profiles", auth));
  readToken.push(await time("/v1/stats/profiles", personal));
}
await server.stop("bench done");
await database.close();

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const r = (x: number) => Math.round(x * 1000) / 1000;
const rows = [
  { route: "no-op, no token", p50Ms: r(pct(open, 50)), p99Ms: r(pct(open, 99)) },
  { route: "no-op, token checked", p50Ms: r(pct(guarded, 50)), p99Ms: r(pct(guarded, 99)) },
  { route: "profiles, session", p50Ms: r(pct(readSession, 50)), p99Ms: r(pct(readSession, 99)) },
  { route: "profiles, access token", p50Ms: r(pct(readToken, 50)), p99Ms: r(pct(readToken, 99)) },
];
const addedP50 = r(pct(guarded, 50) - pct(open, 50));
const personalAddedP50 = r(pct(readToken, 50) - pct(readSession, 50));
console.log(`token check on the ${backend} database, ${n} requests each, sequential over loopback HTTP\n`);
console.log("route                   p50 ms   p99 ms");
for (const row of rows)
  console.log(`${row.route.padEnd(22)} ${String(row.p50Ms).padStart(7)} ${String(row.p99Ms).padStart(8)}`);
console.log(`\nthe token check adds ${addedP50} ms at p50`);
console.log(`a personal access token's read takes ${personalAddedP50} ms more than a session's at p50`);
console.log(
  "\n" +
    JSON.stringify({
      bench: "auth",
      backend,
      requests: n,
      rows,
      addedP50Ms: addedP50,
      personalTokenAddedP50Ms: personalAddedP50,
    }),
);
