// A test file's chat set-up, for the outbox's tests: a fake Discord (test/support/fakes/discord.ts)
// and an app posting to it, both closed after each test so memory stays that of one test, over one
// database for the file, emptied after each test (a new database costs about 400 ms of CPU). Call
// chatSetup once at the file's top level; its `setup` per test.
import { afterAll, afterEach, beforeAll, expect } from "bun:test";
import { testApp, loopbackFetch, type TestApp, type TestAppOptions } from "../support/app.ts";
import { fakeDiscord } from "../support/fakes/discord.ts";
import { emptyTables, testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
import { drainChatOutbox } from "../../src/reports/chat-outbox.ts";
import { report } from "./report.ts";

type Settings = TestAppOptions["settings"];

export function chatSetup(file: { settings?: Settings; now?: string; body?: Record<string, unknown> } = {}) {
  const discords: ReturnType<typeof fakeDiscord>[] = [];
  const apps: TestApp[] = [];
  let database: Database;
  beforeAll(async () => {
    database = await testDatabase();
  });
  afterAll(() => database.close());
  afterEach(async () => {
    for (const d of discords.splice(0)) d.stop();
    await Promise.all(apps.splice(0).map((t) => t.close()));
    await emptyTables(database.db);
  }, 30_000);

  async function setup(settings: Settings = {}) {
    const discord = fakeDiscord();
    discords.push(discord);
    const t = await testApp({
      database,
      settings: { chatWebhookUrl: discord.webhookUrl, ...file.settings, ...settings },
      fetch: loopbackFetch,
      ...(file.now ? { now: file.now } : {}),
    });
    apps.push(t);
    /** One bug report through the route, answered 200. */
    const send = async (over: Record<string, unknown> = {}) => {
      const res = await t.postJson("/v1/reports/general", report({ ...file.body, ...over }));
      expect(res.status).toBe(200);
      return (await res.json()) as { problemId: number; status: string; count: number };
    };
    return { t, discord, send, drain: () => drainChatOutbox(t) };
  }
  /** Stops this fake Discord too after the test (one a test started itself). */
  const keep = (discord: ReturnType<typeof fakeDiscord>) => discords.push(discord);
  return { setup, keep };
}
