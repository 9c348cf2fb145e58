// Loaded by `bun test` before every test file (bunfig.toml).
// - Builds the migrated embedded seed once, before any test file starts. On a fresh machine that
//   takes several seconds, longer than a hook's 5 s default, so building it inside the first file's
//   beforeAll timed that file out. Later runs read the cached seed.
// - After the last file: the Postgres test databases still being dropped are waited for, and the
//   process's own migrated template (when `bun run test` gave it none) is dropped (db.ts).
// - After the last file: how many answers were checked against the OpenAPI document in this run
//   (test/support/openapi-check.ts). In a parallel run (`bun run test`, scripts/test.ts) each worker
//   writes what it checked so far to the run's folder instead, and scripts/test.ts prints the one
//   line for the whole run.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll } from "bun:test";
import { dropLeftovers, postgresUrl, testSeed } from "./db.ts";
import { coverageSoFar, openapiSummary } from "./openapi-check.ts";

if (!postgresUrl) await testSeed();

const runFolder = process.env.TALLY_TEST_COVERAGE_DIR;

afterAll(async () => {
  await dropLeftovers();
  if (runFolder) {
    // A worker keeps one global across its files (--no-isolate), so this is its running total.
    mkdirSync(runFolder, { recursive: true });
    const file = join(runFolder, `${process.pid}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(coverageSoFar()));
    renameSync(`${file}.tmp`, file);
    return;
  }
  const line = openapiSummary();
  if (line) console.error(`\n${line}`);
});
