// An app built the way main.ts builds it, over a fresh database, with a fake clock, a memory log
// and a fetch that refuses anything but the fake upstreams a test starts.
import { createApp, type AppDeps } from "../../src/app.ts";
import { loadConfig, envFor, type SettingName } from "../../src/config.ts";
import { fakeClock } from "../../src/clock.ts";
import { memoryLog } from "../../src/log.ts";
import { loadCatalogue } from "../../src/catalogue/load.ts";
import { createMetrics } from "../../src/metrics/metrics.ts";
import { testDatabase } from "./db.ts";
import type { Database } from "../../src/db/database.ts";
import { openapiChecker } from "./openapi-check.ts";

export type TestAppOptions = {
  settings?: Partial<Record<SettingName, string | number | boolean>>;
  fetch?: typeof fetch;
  now?: string | number;
  /** The embedded database in this folder, on disk as the binary keeps it, rather than in memory. */
  dataDir?: string;
  /**
   * The database of another app of the same test file (its `database`), for a test that needs other
   * settings over the file's one database: a fresh database costs seconds, a second app over the same
   * one milliseconds. Closing this app leaves that database open (its own app closes it).
   */
  database?: Database;
  /** The embedded database even when DATABASE_URL is set (two instances, one on each). */
  backend?: "embedded";
};

/** fetch that fails loudly: no test reaches a real upstream. */
export const noUpstream: typeof fetch = Object.assign(
  async (input: RequestInfo | URL) => {
    throw new Error(
      `test tried to reach an upstream that is not faked: ${String(input instanceof Request ? input.url : input)}`,
    );
  },
  { preconnect: () => {} },
);

/** fetch that reaches only servers on this machine (the fakes a test starts on 127.0.0.1). */
export const loopbackFetch: typeof fetch = Object.assign(
  async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== "127.0.0.1") throw new Error(`test tried to reach ${url.host}, which is not a local fake`);
    return fetch(input, init);
  },
  { preconnect: () => {} },
);

export async function testApp(options: TestAppOptions = {}) {
  const database = options.database ?? (await testDatabase(options.dataDir, options.backend));
  // Boards move in the upload's wake unless a test asks for the refresh job (BOARDS_REFRESH_MS).
  const config = loadConfig(envFor({ databaseUrl: "", boardsRefreshMs: 0, ...options.settings }));
  const clock = fakeClock(options.now);
  const log = memoryLog();
  const catalogue = await loadCatalogue(config.catalogueFile);
  const deps: AppDeps = {
    db: database.db,
    config,
    clock,
    fetch: options.fetch ?? noUpstream,
    log,
    catalogue,
    metrics: createMetrics(),
  };
  const app = createApp(deps);
  // Every answer the app gives in-process is checked against its own OpenAPI document.
  const handle = app.handle.bind(app);
  const check = openapiChecker(handle);
  app.handle = async (request: Request) => {
    const { method, url } = request;
    const response = await handle(request);
    await check({ method, url }, response);
    return response;
  };
  const base = "http://localhost";
  return {
    ...deps,
    log,
    clock,
    app,
    database,
    /** Sends a request to the app in-process. */
    request(path: string, init?: RequestInit) {
      return app.handle(new Request(base + path, init));
    },
    /** POSTs a JSON body (gzip-compressed when gzip is true). */
    postJson(path: string, body: unknown, opts: { gzip?: boolean; headers?: Record<string, string> } = {}) {
      const text = typeof body === "string" ? body : JSON.stringify(body);
      const payload = opts.gzip ? Bun.gzipSync(new TextEncoder().encode(text)) : text;
      return app.handle(
        new Request(base + path, {
          method: "POST",
          body: payload,
          headers: {
            "content-type": "application/json",
            ...(opts.gzip ? { "content-encoding": "gzip" } : {}),
            ...opts.headers,
          },
        }),
      );
    },
    close: async () => {
      if (!options.database) await database.close();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof testApp>>;
