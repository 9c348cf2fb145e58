// POST /v1/reports/<tool>: scrubbed before it is stored, grouped into problems, counted; answered
// at once with the problem's id, new or repeat, and its count.
import { afterAll, afterEach, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { emptyTables, testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
// A fresh database per test takes seconds on a loaded machine; the behaviour, not the time, is tested.
setDefaultTimeout(30_000);
import { loopbackFetch, testApp, type TestApp } from "../support/app.ts";
import { traceCorpus } from "./corpus.ts";
import { report } from "./report.ts";
import { samplesOf } from "../../src/reports/reports.query.ts";
import { problemsByCount } from "../../src/reports/problems-list.query.ts";
import { pendingOutbox } from "../../src/reports/chat.query.ts";
import { fakeGameApi } from "../support/fakes/game-api.ts";
import { recordedItemNames2022 } from "../support/recorded.ts";
import { refreshItemList } from "../../src/items/item-names.ts";

// One database for the file, emptied after each test: every test starts from a service as new,
// without paying for a new database each time (test/support/db.ts, emptyTables).
let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

const opened: TestApp[] = [];
const open = async (settings: Parameters<typeof testApp>[0] = {}) => {
  const t = await testApp({ ...settings, database });
  opened.push(t);
  return t;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
  await emptyTables(database.db);
}, 30_000);

type Answer = { problemId: number; status: string; count: number };
const send = async (t: TestApp, body: unknown, tool = "general", headers: Record<string, string> = {}) =>
  t.postJson(`/v1/reports/${tool}`, body, { headers });

describe("POST /v1/reports/<tool>", () => {
  test("a new problem answers new with count 1; the same problem again answers repeat with its count", async () => {
    const t = await open();
    const trace = traceCorpus[0]!;
    const first = await send(t, report({ stackTrace: trace.stackTrace }));
    expect(first.status).toBe(200);
    const a = (await first.json()) as Answer;
    expect(a).toEqual({ problemId: a.problemId, status: "new", count: 1 });
    const again = (await (
      await send(t, report({ stackTrace: traceCorpus[1]!.stackTrace, modVersion: "1.3.1" }))
    ).json()) as Answer;
    expect(again).toEqual({ problemId: a.problemId, status: "repeat", count: 2 });
    const older = (await (
      await send(t, report({ stackTrace: traceCorpus[2]!.stackTrace, modVersion: "1.10.0" }))
    ).json()) as Answer;
    expect(older).toEqual({ problemId: a.problemId, status: "repeat", count: 3 });
    const [problem] = await problemsByCount(t.db);
    expect(problem).toMatchObject({
      id: a.problemId,
      count: 3,
      minVersion: "1.2.0",
      maxVersion: "1.10.0",
      exceptionType: "java.lang.NullPointerException",
    });
  });

  test("the whole trace corpus lands in one problem per group, each counted", async () => {
    const t = await open();
    for (const c of traceCorpus)
      expect(
        (await send(t, report({ title: c.title, modVersion: c.modVersion, stackTrace: c.stackTrace }))).status,
      ).toBe(200);
    const problems = await problemsByCount(t.db);
    const expected = new Map<string, number>();
    for (const c of traceCorpus) expected.set(c.problem, (expected.get(c.problem) ?? 0) + 1);
    expect(problems.map((p) => p.count)).toEqual([...expected.values()].sort((a, b) => b - a));
  });

  test("keeps only the newest REPORT_SAMPLES_KEPT samples of a problem", async () => {
    const t = await open({ settings: { reportSamplesKept: 2 } });
    let id = 0;
    for (const v of ["1.0.0", "1.0.1", "1.0.2"])
      id = ((await (await send(t, report({ modVersion: v }))).json()) as Answer).problemId;
    expect((await samplesOf(t.db, id)).map((s) => s.modVersion)).toEqual(["1.0.2", "1.0.1"]);
  });

  test("nothing identifying is stored: names become pseudonyms, tokens, paths and addresses go", async () => {
    const t = await open();
    const res = await send(
      t,
      report({
        title: "Crash after Party > [MVP+] Steve: go",
        message: "From Alex_99: try again. My mail is steve@example.org, server 192.168.1.20",
        steps: "1. Steve joined.\n2. open C:\\Users\\Steven\\AppData\\Roaming\\.minecraft",
        stackTrace:
          "java.lang.IllegalStateException: no profile for 069a79f444e94726a5befca90e38aaf5 (Steve)\n\tat dev.tally.mod.Profiles.load(Profiles.java:3)\nlaunched with --username Steve --accessToken eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXZhbHVl",
      }),
    );
    const { problemId } = (await res.json()) as Answer;
    const stored = JSON.stringify({ problems: await problemsByCount(t.db), samples: await samplesOf(t.db, problemId) });
    for (const secret of ["Steve", "Alex_99", "steve@example.org", "192.168.1.20", "Steven", "069a79f4", "eyJhbGci"])
      expect(stored).not.toContain(secret);
    expect(stored).toMatch(/Party > \[MVP\+\] player-[0-9a-f]{10}: go/);
  });

  test("an item the game's list names is kept though spelt like a handle; a handle beside it goes (issue 36)", async () => {
    const game = fakeGameApi({ key: "k" });
    try {
      // The recorded list of 2022 as the game API answers it: "InfiniDirt™ Wand" has a capital inside.
      const items = Object.entries(recordedItemNames2022()).map(([id, name]) => ({ id, name, material: "STONE" }));
      game.state.items = { success: true, lastUpdated: 1, items };
      const t = await open({ settings: { gameApiUrl: game.url }, fetch: loopbackFetch });
      expect((await refreshItemList(t)).items).toBe(items.length);
      const res = await send(
        t,
        report({ title: "InfiniDirt™ Wand lost", message: "junegunn saw my InfiniDirt™ Wand vanish" }),
      );
      const { problemId } = (await res.json()) as Answer;
      const [sample] = await samplesOf(t.db, problemId);
      expect(JSON.stringify(sample)).toContain("InfiniDirt™ Wand vanish");
      expect(JSON.stringify(sample)).not.toContain("junegunn");
    } finally {
      await game.stop();
    }
  });

  test("without CHAT_WEBHOOK_URL reports are stored and counted only: nothing waits for the chat", async () => {
    const t = await open({ settings: { chatWebhookUrl: "" } });
    expect((await send(t, report())).status).toBe(200);
    expect(await pendingOutbox(t.db)).toEqual([]);
  });

  test("an unknown tool answers 404 like an unknown route, whatever the body", async () => {
    const t = await open({ settings: { reportTools: "general,uploads" } });
    expect((await send(t, report(), "uploads")).status).toBe(200);
    for (const tool of ["profiles", "Bad_Tool", "x".repeat(40)]) {
      const res = await send(t, { nonsense: true }, tool);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
  });

  test.each([
    [{ uuid: "069a79f444e94726a5befca90e38aaf5" }, "/uuid"],
    [{ username: "Steve" }, "/username"],
    [{ title: "" }, "/title"],
    [{ title: "x".repeat(201) }, "/title"],
    [{ stackTrace: "x".repeat(32769) }, "/stackTrace"],
    [{ modVersion: "1.0 beta" }, "/modVersion"],
  ])("a field that could carry identity, or breaks a limit, is refused: %o", async (over, path) => {
    const t = opened[0] ?? (await open());
    const res = await send(t, report(over));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { path: string } }).error.path).toBe(path);
  });

  test("another schema is refused as unsupported_schema", async () => {
    const t = await open();
    const res = await send(t, report({ schema: 2 }));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unsupported_schema");
  });

  test("a body over REPORT_MAX_BODY_BYTES is refused 413", async () => {
    const t = await open({ settings: { reportMaxBodyBytes: 4096 } });
    const res = await send(t, report({ message: "x".repeat(3900), steps: "y".repeat(500) }));
    expect(res.status).toBe(413);
    expect((await problemsByCount(t.db)).length).toBe(0);
  });

  test("a client over REPORT_RATE_LIMIT_PER_HOUR is told 429 with Retry-After until the next hour", async () => {
    const t = await open({ settings: { reportRateLimit: 2, trustProxy: true }, now: "2026-06-01T12:30:00Z" });
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    expect((await send(t, report(), "general", from("198.51.100.1"))).status).toBe(200);
    expect((await send(t, report(), "general", from("198.51.100.1"))).status).toBe(200);
    const refused = await send(t, report(), "general", from("198.51.100.1"));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1800");
    expect((await send(t, report(), "general", from("198.51.100.2"))).status).toBe(200);
    t.clock.advance(1_800_000);
    expect((await send(t, report(), "general", from("198.51.100.1"))).status).toBe(200);
  });
});
