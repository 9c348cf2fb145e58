// The fault tests of issue 9, against the compiled binary (run by .ci/run after the smoke test):
//   bun test/faults/run.ts dist/tally            (with DATABASE_URL: the Postgres scenarios too)
// Each scenario prints its checks, a table line and a JSON line of its figures; any failed check
// makes the exit status 1.
import { resolve } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createPostgresDatabase } from "../support/db.ts";
import { killScenario } from "./kill.ts";
import { postgresRestartScenario } from "./postgres-restart.ts";
import { Report } from "./report.ts";
import { retryScenario } from "./retry.ts";

const binary = resolve(process.argv[2] ?? "dist/tally");
const postgresUrl = loadConfig().databaseUrl;
const report = new Report();
const t0 = performance.now();

/** `--only 2,4` runs those scenarios alone (while working on one). */
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1]!.split(",") : null;

async function scenario(name: string, fn: () => Promise<void>) {
  if (only && !only.includes(name.split(".")[0]!)) return;
  console.log(`\n== ${name}`);
  const s = performance.now();
  try {
    await fn();
  } catch (e) {
    report.check(`${name} ran to the end`, false, (e as Error).stack ?? String(e));
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

await scenario("2. Postgres stopped and started during load (a private cluster)", () => postgresRestartScenario(report, binary, 2));

await scenario("3. kill -9 during load, on the embedded database", () => killScenario(report, binary, 3, "", 2000));

await scenario("4. a client that re-sends after a timeout, on the embedded database", () => retryScenario(report, binary, 4, ""));
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

const seconds = Math.round((performance.now() - t0) / 100) / 10;
console.log(`\nfaults: ${report.checks - report.failures.length} passed, ${report.failures.length} failed, ${seconds} s`);
for (const f of report.failures) console.log(`  failed: ${f}`);
process.exit(report.failures.length ? 1 : 0);
