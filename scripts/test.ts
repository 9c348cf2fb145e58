// `bun run test`: the whole suite, its files spread over one worker per core (`bun test --parallel`),
// the slowest files first (test/timings.json, per-file milliseconds of an earlier run), then the one
// line of how many answers were checked against the OpenAPI document (test/support/preload.ts).
// Arguments go on to `bun test` (a file or a name filter: `bun run test test/stats`).
//
// --no-isolate: each worker keeps one global across the files it runs, as a serial `bun test` does
// (every test file already starts its own app and database); isolating each file loads every
// module again per file and cost about four times the time on small files.
// Refresh the timings after a large change: `bun run test --update-timings`.
//
// On Postgres (DATABASE_URL), the run migrates one template database first and every test database
// is a copy of it (test/support/db.ts), instead of each worker or file migrating its own; the
// template is dropped after the run.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openapiSummary, type Coverage } from "../test/support/openapi-check.ts";
import { makePostgresTemplate, postgresUrl, TEMPLATE_ENV } from "../test/support/db.ts";

const coverage = mkdtempSync(join(tmpdir(), "tally-openapi-"));
const timings = join(import.meta.dir, "../test/timings.json");
const template = postgresUrl ? await makePostgresTemplate() : undefined;
const run = Bun.spawn(
  ["bun", "test", "--timeout", "30000", "--parallel", "--no-isolate", `--timings=${timings}`, ...Bun.argv.slice(2)],
  {
    stdio: ["inherit", "inherit", "inherit"],
    env: { ...Bun.env, TALLY_TEST_COVERAGE_DIR: coverage, ...(template ? { [TEMPLATE_ENV]: template.name } : {}) },
  },
);
const code = await run.exited;
await template?.drop();
const parts: Coverage[] = [];
for (const name of readdirSync(coverage).filter((n) => n.endsWith(".json")))
  parts.push(await Bun.file(join(coverage, name)).json());
rmSync(coverage, { recursive: true, force: true });
const line = openapiSummary(parts);
if (line) console.error(`\n${line}`);
process.exit(code);
