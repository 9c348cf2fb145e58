// Writes the served OpenAPI document to build/openapi.json, lints it with Redocly, and generates
// the TypeScript client types from it with openapi-typescript into bench/api.gen.ts, the types
// the reference uploader (bench/uploader.ts) compiles against. `bun run api:client` regenerates;
// `--check` (CI) fails when the lint finds an error or the checked-in client is not what the
// served document generates. The document is the default configuration's (DEV_SIGNIN off).
import { join } from "node:path";
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createApp } from "../src/app.ts";
import { envFor, loadConfig } from "../src/config.ts";
import { fakeClock } from "../src/clock.ts";
import { memoryLog } from "../src/log.ts";
import { loadCatalogue } from "../src/catalogue/load.ts";
import { createMetrics } from "../src/metrics/metrics.ts";
import type { Db } from "../src/db/database.ts";

const root = join(import.meta.dir, "..");
const check = process.argv.includes("--check");
const docPath = join(root, "build/openapi.json");
const clientPath = join(root, "bench/api.gen.ts");

/** The document GET /v1/openapi.json serves under the default settings (no request reaches the database). */
export async function servedDocument(): Promise<unknown> {
  const config = loadConfig(envFor({}));
  const catalogue = await loadCatalogue(config.catalogueFile);
  const deps = {
    db: {} as Db,
    config,
    clock: fakeClock(),
    fetch,
    log: memoryLog(),
    catalogue,
    metrics: createMetrics(),
  };
  const res = await createApp(deps).handle(new Request("http://localhost/v1/openapi.json"));
  if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
  return res.json();
}

/** openapi-typescript's output for a document file, as its command line writes it. */
export async function generateClient(documentFile: string): Promise<string> {
  const bin = join(root, "node_modules/openapi-typescript/bin/cli.js");
  const out = join(tmpdir(), `tally-api-${process.pid}-${Date.now()}.ts`);
  try {
    const proc = Bun.spawn([process.execPath, bin, documentFile, "--output", out], {
      stdout: "pipe",
      stderr: "pipe",
      cwd: root,
    });
    const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`openapi-typescript failed (${code}): ${err}`);
    return await Bun.file(out).text();
  } finally {
    rmSync(out, { force: true });
  }
}

if (import.meta.main) {
  mkdirSync(join(root, "build"), { recursive: true });
  await Bun.write(docPath, JSON.stringify(await servedDocument(), null, 2) + "\n");
  console.log(`wrote ${docPath}`);

  const lint = Bun.spawnSync(
    [join(root, "node_modules/.bin/redocly"), "lint", "--config", join(root, "redocly.yaml"), docPath],
    { stdout: "inherit", stderr: "inherit", cwd: root },
  );
  if (lint.exitCode !== 0) {
    console.error("redocly lint found errors in the OpenAPI document");
    process.exit(1);
  }

  const client = await generateClient(docPath);
  const current = await Bun.file(clientPath)
    .text()
    .catch(() => "");
  if (check) {
    if (current !== client) {
      console.error(
        "bench/api.gen.ts is not what the served document generates: run `bun run api:client`, then fix bench/uploader.ts until `bunx tsc --noEmit` passes",
      );
      process.exit(1);
    }
    console.log(`bench/api.gen.ts is current (${client.length} bytes, ${client.split("\n").length} lines)`);
  } else {
    await Bun.write(clientPath, client);
    console.log(`wrote bench/api.gen.ts (${client.length} bytes, ${client.split("\n").length} lines)`);
  }
}
