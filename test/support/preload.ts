// Loaded by `bun test` before every test file (bunfig.toml).
// - Builds the migrated embedded seed once, before any test file starts. On a fresh machine that
//   takes several seconds, longer than a hook's 5 s default, so building it inside the first file's
//   beforeAll timed that file out. Later runs read the cached seed.
// - After the last file: how many answers were checked against the OpenAPI document in this run
//   (test/support/openapi-check.ts).
import { afterAll } from "bun:test";
import { postgresUrl, testSeed } from "./db.ts";
import { openapiSummary } from "./openapi-check.ts";

if (!postgresUrl) await testSeed();

afterAll(() => {
  const line = openapiSummary();
  if (line) console.error(`\n${line}`);
});
