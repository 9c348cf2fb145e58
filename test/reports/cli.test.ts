// The service as a maintainer runs it: serve starts the reports.chat job (when a webhook is set),
// reports posted over HTTP reach the chat through it, the job stops with the service, and
// `tally reports` lists the problems by count from the same database.
import { afterAll, describe, expect, test, setDefaultTimeout } from "bun:test";
// A fresh database per test takes seconds on a loaded machine; the behaviour, not the time, is tested.
setDefaultTimeout(30_000);
import { main } from "../../src/main.ts";
import { reportJobs } from "../../src/reports/reports.jobs.ts";
import { loadConfig, envFor } from "../../src/config.ts";
import { createPostgresDatabase, postgresUrl, testSeed } from "../support/db.ts";
import { tempDirs } from "../support/temp.ts";
import { fakeDiscord } from "../support/fakes/discord.ts";
import { traceCorpus } from "./corpus.ts";
import { report } from "./report.ts";
import type { Log } from "../../src/log.ts";

const tempDir = tempDirs("reports-cli");
const discord = fakeDiscord();
afterAll(() => discord.stop());

async function storage(): Promise<{ env: Record<string, string>; done(): Promise<void> }> {
  if (!postgresUrl) return { env: { DATA_DIR: tempDir() }, done: async () => {} };
  const created = await createPostgresDatabase();
  return { env: { DATABASE_URL: created.url }, done: created.drop };
}

describe("the reports.chat job", () => {
  test("is on only with a webhook and its switch on", () => {
    const jobs = (settings: Parameters<typeof envFor>[0]) =>
      reportJobs({
        db: undefined as never,
        clock: { now: () => 0 },
        log: undefined as unknown as Log,
        fetch,
        config: loadConfig(envFor(settings)),
      });
    expect(jobs({})[0]).toMatchObject({ name: "reports.chat", enabled: false, intervalMs: 5000 });
    expect(jobs({ chatWebhookUrl: discord.webhookUrl })[0]!.enabled).toBe(true);
    expect(jobs({ chatWebhookUrl: discord.webhookUrl, jobReportsChatEnabled: false })[0]!.enabled).toBe(false);
  });
});

describe("tally reports", () => {
  test("on a database without reports says so; on one not yet migrated says to migrate", async () => {
    const store = await storage();
    let out = "";
    const run = (argv: string[], opts = {}) =>
      main(argv, { env: store.env, out: (t) => (out += t), err: (t) => (out += t), ...opts });
    if (postgresUrl) {
      expect(await run(["reports"])).toBe(1);
      expect(out).toContain("no bug-report tables yet; run tally migrate");
      out = "";
    }
    const seed = await testSeed();
    expect(await run(["migrate"], { seed: async () => seed })).toBe(0);
    out = "";
    expect(await run(["reports"])).toBe(0);
    expect(out).toBe("no bug reports yet\n");
    await store.done();
  });
});

describe("tally serve and tally reports", () => {
  test("reports reach the chat through the job; tally reports lists problems by count", async () => {
    const store = await storage();
    const seed = await testSeed();
    const lines: Record<string, unknown>[] = [];
    const waiters: { match: (l: Record<string, unknown>) => boolean; resolve: () => void }[] = [];
    const logged = (match: (l: Record<string, unknown>) => boolean) => {
      if (lines.some(match)) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ match, resolve }));
    };
    let stop!: (s: string) => void;
    let url!: string;
    const listening = Promise.withResolvers<void>();
    const exited = main(["serve"], {
      env: {
        ...store.env,
        PORT: "0",
        HOST: "127.0.0.1",
        CHAT_WEBHOOK_URL: discord.webhookUrl,
        JOB_REPORTS_CHAT_INTERVAL_MS: "100",
      },
      seed: async () => seed,
      stopSignal: new Promise<string>((r) => (stop = r)),
      logWrite: (line) => {
        const l = JSON.parse(line);
        lines.push(l);
        for (const w of waiters.filter((w) => w.match(l))) w.resolve();
      },
      onListening: (u) => ((url = u), listening.resolve()),
    });
    await listening.promise;
    const post = (body: unknown) =>
      fetch(`${url}/v1/reports/general`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const c of traceCorpus)
      expect((await post(report({ title: c.title, modVersion: c.modVersion, stackTrace: c.stackTrace }))).status).toBe(
        200,
      );
    await logged(
      (l) =>
        l.msg === "job run" &&
        l.job === "reports.chat" &&
        l.pending === 0 &&
        Number(l.created) > 0 &&
        discord.threads.size === 8,
    );
    stop("test");
    expect(await exited).toBe(0);
    const order = lines.map((l) => l.msg);
    expect(order.lastIndexOf("job run")).toBeLessThan(order.indexOf("stopped"));
    expect(discord.threads.size).toBe(8);

    let out = "";
    expect(await main(["reports"], { env: store.env, out: (t) => (out += t), err: (t) => (out += t) })).toBe(0);
    const rows = out.trim().split("\n");
    expect(rows[0]).toMatch(
      /^#\s+count\s+7 days\s+first seen \(UTC\)\s+last seen \(UTC\)\s+versions\s+tool\s+state\s+thread\s+problem$/,
    );
    expect(rows[1]).toMatch(
      /^\d+\s+3\s+\d+\s+.*1\.2\.0 – 1\.3\.1\s+general\s+open\s+yes\s+java\.lang\.NullPointerException at dev\.tally\.mod\.\S+$/,
    );
    expect(rows.at(-1)).toBe("8 problem(s), 15 report(s)");
    await store.done();
  });
});
