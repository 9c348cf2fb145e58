// Bug intake throughput with the chat webhook down: reports/s accepted over loopback HTTP, and
// per-report latency, with no webhook, with a webhook that never answers (every call waits out
// UPSTREAM_TIMEOUT_MS), and with one that refuses connections; the reports.chat job runs all the
// while as in `tally serve`. Intake never waits on the chat, so the three should match. On the
// database under test (Postgres when DATABASE_URL is set, else embedded). Reports a table and
// JSON; asserts nothing.
//   bun bench/reports.ts [--reports N] [--concurrency C]
import { createApp } from "../src/app.ts";
import { createMetrics } from "../src/metrics/metrics.ts";
import { loadConfig, envFor, type SettingName } from "../src/config.ts";
import { systemClock } from "../src/clock.ts";
import { createLog } from "../src/log.ts";
import { loadCatalogue } from "../src/catalogue/load.ts";
import { listen } from "../src/http/serve.ts";
import { createScheduler } from "../src/jobs/scheduler.ts";
import { jobLockFor } from "../src/jobs/job-lock.ts";
import { serviceJobs } from "../src/jobs/jobs.ts";
import { pendingOutbox } from "../src/reports/chat.query.ts";
import { testDatabase, backend } from "../test/support/db.ts";
import { fakeDiscord } from "../test/support/fakes/discord.ts";
import { traceCorpus } from "../test/reports/corpus.ts";

const args = process.argv.slice(2);
const total = Number(args[args.indexOf("--reports") + 1]) || 2000;
const concurrency = Number(args[args.indexOf("--concurrency") + 1]) || 16;

const discord = fakeDiscord();
discord.state.failure = "hang";

type Scenario = { name: string; settings: Partial<Record<SettingName, string | number | boolean>> };
const scenarios: Scenario[] = [
  { name: "no webhook", settings: { chatWebhookUrl: "" } },
  { name: "webhook hangs", settings: { chatWebhookUrl: discord.webhookUrl, upstreamTimeoutMs: 5000 } },
  {
    name: "webhook refuses",
    settings: { chatWebhookUrl: "http://127.0.0.1:9/api/webhooks/1/x", chatRetryBaseMs: 100, chatRetryMaxMs: 1000 },
  },
];

function body(i: number) {
  // Nine in ten repeat a corpus trace; one in ten is a problem never seen before.
  const c = traceCorpus[i % traceCorpus.length]!;
  const unique = i % 10 === 9;
  return JSON.stringify({
    schema: 1,
    modVersion: c.modVersion,
    minecraft: "1.21.4",
    // Letters, not digits: numbers are parameterised away and would group these together.
    title: unique
      ? `Unique problem ${i.toString(26).replace(/[0-9]/g, (d) => "qrstuvwxyz"[Number(d)]!)} after Party > [MVP+] Steve: hi`
      : c.title,
    message: "Opened the dungeon menu, From Alex_99: again, then it crashed",
    ...(unique || !c.stackTrace ? {} : { stackTrace: c.stackTrace }),
  });
}

async function runScenario(s: Scenario) {
  const database = await testDatabase();
  const config = loadConfig(
    envFor({ reportRateLimit: 0, logLevel: "error", jobReportsChatIntervalMs: 100, ...s.settings }),
  );
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
  const server = listen(createApp(deps), { host: "127.0.0.1", port: 0, graceMs: 1000, log });
  const scheduler = createScheduler({ log, lock: jobLockFor(database.kind, database.db), jobs: serviceJobs(deps) });
  scheduler.start();
  const post = async (i: number) => {
    const t0 = performance.now();
    const res = await fetch(`${server.url}/v1/reports/general`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body(i),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`report ${i}: ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 100; i++) await post(i); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) latencies.push(await post(next++));
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const pending = (await pendingOutbox(database.db)).length;
  const stopT0 = performance.now();
  await Promise.all([server.stop("bench done"), scheduler.stop()]);
  const stopMs = Math.round(performance.now() - stopT0);
  await database.close();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]! * 100) / 100;
  return {
    scenario: s.name,
    reportsPerSecond: Math.round(total / seconds),
    p50Ms: pct(50),
    p99Ms: pct(99),
    outboxPending: pending,
    stopMs,
  };
}

const rows = [];
for (const s of scenarios) rows.push(await runScenario(s));
discord.stop();

console.log(
  `bug intake on the ${backend} database: ${total} reports, ${concurrency} at a time, over loopback HTTP; the chat job runs every 100 ms\n`,
);
console.log("scenario            reports/s   p50 ms   p99 ms   outbox pending   stop ms");
for (const r of rows) {
  console.log(
    `${r.scenario.padEnd(18)} ${String(r.reportsPerSecond).padStart(10)} ${String(r.p50Ms).padStart(8)} ${String(r.p99Ms).padStart(8)} ${String(r.outboxPending).padStart(16)} ${String(r.stopMs).padStart(9)}`,
  );
}
console.log("\n" + JSON.stringify({ bench: "reports", backend, reports: total, concurrency, rows }));
