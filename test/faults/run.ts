// The fault tests of issue 9, against the compiled binary (run by .ci/run after the smoke test):
//   bun test/faults/run.ts dist/tally            (with DATABASE_URL: the Postgres scenarios too)
// Each scenario prints its checks, a table line and a JSON line of its figures; any failed check
// makes the exit status 1.
import { resolve } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createPostgresDatabase } from "../support/db.ts";
import { killScenario } from "./kill.ts";
import { soak } from "../../bench/soak.ts";
import { diskFullScenario } from "./disk-full.ts";
import { postgresHangScenario } from "./postgres-hang.ts";
import { postgresRestartScenario } from "./postgres-restart.ts";
import { Report } from "./report.ts";
import { retryScenario } from "./retry.ts";
import { slowUpstreamsScenario } from "./slow-upstreams.ts";
import { shutdownScenario } from "./shutdown.ts";

/** The CI soak: short, at a rate this shared 2-core machine sustains with room (bench/soak.ts runs the long one). */
const SOAK_MINUTES = Number(process.env.FAULTS_SOAK_MINUTES ?? 3);
const SOAK_RATE = 10;
const SOAK_RSS_GROWTH_MB = 100;
const binary = resolve(process.argv[2] ?? "dist/tally");
const postgresUrl = loadConfig().databaseUrl;
const report = new Report();
const t0 = performance.now();

/** `--only 2,4` runs those scenarios alone (while working on one). */
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1]!.split(",") : null;

/** A scenario that has not ended by then fails, and the run goes on: a hang must never hold CI to its limit. */
const SCENARIO_LIMIT_MS = 5 * 60_000;

async function scenario(name: string, fn: () => Promise<void>, limitMs = SCENARIO_LIMIT_MS) {
  if (only && !only.includes(name.split(".")[0]!)) return;
  console.log(`\n== ${name}`);
  const s = performance.now();
  let timer: Timer | undefined;
  const late = new Promise<"late">((done) => {
    timer = setTimeout(() => done("late"), limitMs);
  });
  try {
    const ended = await Promise.race([fn(), late]);
    if (ended === "late")
      report.check(`${name} ended within ${limitMs / 60_000} min`, false, "still running: abandoned");
  } catch (e) {
    report.check(`${name} ran to the end`, false, (e as Error).stack ?? String(e));
  } finally {
    clearTimeout(timer);
  }
  console.log(`(${name}: ${Math.round(performance.now() - s)} ms)`);
}

if (postgresUrl) {
  await scenario("1. kill -9 during load, on Postgres", async () => {
    const db = await createPostgresDatabase();
    try {
      await killScenario(report, binary, 1, db.url, 2000);
    } finally {
      await db.drop();
    }
  });
} else console.log("\n== 1. kill -9 on Postgres: skipped (no DATABASE_URL)");

await scenario("2. Postgres stopped and started during load (a private cluster)", () =>
  postgresRestartScenario(report, binary, 2),
);

await scenario("3. kill -9 during load, on the embedded database", () => killScenario(report, binary, 3, "", 2000));

await scenario("4. a client that re-sends after a timeout, on the embedded database", () =>
  retryScenario(report, binary, 4, ""),
);
if (postgresUrl) {
  await scenario("4. a client that re-sends after a timeout, on Postgres", async () => {
    const db = await createPostgresDatabase();
    try {
      await retryScenario(report, binary, 5, db.url);
    } finally {
      await db.drop();
    }
  });
}

await scenario("6. Postgres frozen (SIGSTOP) during load (a private cluster)", () =>
  postgresHangScenario(report, binary, 6),
);
await scenario("7. the disk under the embedded database fills during load (a tmpfs)", () =>
  diskFullScenario(report, binary, 7, "embedded"),
);
await scenario("8. the disk under Postgres fills during load (a private cluster on a tmpfs)", () =>
  diskFullScenario(report, binary, 8, "postgres"),
);

await scenario("10. every upstream slow: answers 30 s late, or a byte at a time (proxies on loopback)", () =>
  slowUpstreamsScenario(report, binary, 10),
);

await scenario("11. SIGTERM while 120 clients ask for a large account's pages, on the embedded database", () =>
  shutdownScenario(report, binary, 11),
);

await scenario(
  `9. a ${SOAK_MINUTES}-minute soak: uploads, pages, look-ups and reports (bench/soak.ts)`,
  async () => {
    const r = await soak({ binary, minutes: SOAK_MINUTES, rate: SOAK_RATE, windowMinutes: 1, accounts: 8 });
    const label = `soak ${SOAK_MINUTES} min`;
    report.check(
      `${label}: every upload is acknowledged`,
      r.acknowledged === r.sent,
      `${r.acknowledged} of ${r.sent}; ${JSON.stringify(r.refused)}`,
    );
    report.check(
      `${label}: every upload is applied once and stored whole, nothing else`,
      r.appliedByService === r.sent &&
        r.storedWhole === r.sent &&
        r.partial === 0 &&
        r.unexplained === 0 &&
        r.idempotencyRecords === r.sent,
      `applied ${r.appliedByService}, stored ${r.storedWhole}, partial ${r.partial}, unexplained ${r.unexplained}, records ${r.idempotencyRecords}`,
    );
    report.check(
      `${label}: no page, look-up or report failed`,
      Object.keys(r.refused).every((k) => !k.startsWith("other")),
      JSON.stringify(r.refused),
    );
    const [first, last] = [r.windows[0]!, r.windows.at(-1)!];
    report.check(
      `${label}: open file descriptors do not grow`,
      last.fds <= first.fds + 10,
      `${first.fds} -> ${last.fds}`,
    );
    report.check(
      `${label}: resident memory does not grow past ${SOAK_RSS_GROWTH_MB} MB`,
      last.rssMb <= first.rssMb + SOAK_RSS_GROWTH_MB,
      `${first.rssMb} -> ${last.rssMb} MB, slope ${r.rssSlopeMbPerHour} MB/hour`,
    );
    report.figures(label, {
      sent: r.sent,
      acknowledged: r.acknowledged,
      stored: r.storedWhole,
      lost: r.acknowledged - r.storedWhole,
      uploadsPerSec: r.uploadsPerSec,
      p99ByMinuteMs: r.windows.map((w) => w.uploadP99Ms).join("/"),
      rssByMinuteMb: r.windows.map((w) => w.rssMb).join("/"),
      rssSlopeMbPerHour: r.rssSlopeMbPerHour,
      fdsByMinute: r.windows.map((w) => w.fds).join("/"),
    });
  },
  (SOAK_MINUTES + 3) * 60_000,
);

const seconds = Math.round((performance.now() - t0) / 100) / 10;
console.log(
  `\nfaults: ${report.checks - report.failures.length} passed, ${report.failures.length} failed, ${seconds} s`,
);
for (const f of report.failures) console.log(`  failed: ${f}`);
process.exit(report.failures.length ? 1 : 0);
