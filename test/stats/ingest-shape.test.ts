// Ingest, the shape of the wire: every object refuses unknown fields at every depth, no nulls,
// numbers are safe JSON integers, ids are lower-case hex, days are calendar dates, keys follow the
// grammar. Every refusal stores nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, type Uploader } from "../support/uploads.ts";
import { isEmpty, storedState } from "../support/stored.ts";

let t: TestApp;
let u: Uploader;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true } });
  u = await uploader(t);
});
afterAll(() => t.close());

const day = "2026-06-01";
/** A valid upload with one more change applied to its JSON. */
function base(): Record<string, any> {
  return JSON.parse(
    JSON.stringify(
      envelope(t, {
        counters: [{ profileId: PROFILE, scope: "day", day, rows: [{ k: "mining.blocks.stone", v: 10 }] }],
        sessions: [
          {
            id: "s1",
            activity: "mining",
            day,
            startedAt: t.clock.now() - 60_000,
            endedAt: t.clock.now(),
            gains: [{ k: "mining.blocks.stone", v: 10 }],
            costs: [],
          },
        ],
        timeline: [{ id: "e1", kind: "level_up", day, at: t.clock.now(), key: "mining.level", value: 5 }],
      }),
    ),
  );
}
async function refusal(mutate: (e: Record<string, any>) => void) {
  const env = base();
  mutate(env);
  const res = await u.send(env);
  const body = (await res.json()) as { error: { code: string; path?: string; message: string } };
  expect(isEmpty(await storedState(t.db, u.uuid))).toBe(true);
  return { status: res.status, ...body.error };
}

describe("the valid base upload", () => {
  test("is accepted (so every refusal below is caused by its one change)", async () => {
    const other = await uploader(t);
    const res = await other.send(base());
    expect(res.status).toBe(200);
  });
});

describe("unknown fields are refused at every depth", () => {
  test.each([
    ["/uuid", (e: any) => (e.uuid = "0f1e2d3c4b5a69788796a5b4c3d2e1f0")],
    ["/client/uuid", (e: any) => (e.client.uuid = "0f1e2d3c4b5a69788796a5b4c3d2e1f0")],
    ["/zone/offset", (e: any) => (e.zone.offset = 60)],
    ["/profile/name", (e: any) => (e.profile.name = "Steve")],
    ["/counters/0/uuid", (e: any) => (e.counters[0].uuid = "0f1e2d3c4b5a69788796a5b4c3d2e1f0")],
    ["/counters/0/rows/0/player", (e: any) => (e.counters[0].rows[0].player = "Steve")],
    ["/sessions/0/party", (e: any) => (e.sessions[0].party = ["Steve"])],
    ["/sessions/0/gains/0/by", (e: any) => (e.sessions[0].gains[0].by = "Steve")],
    ["/timeline/0/detail", (e: any) => (e.timeline[0].detail = "x")],
  ])("%s", async (path, mutate) => {
    expect(await refusal(mutate)).toMatchObject({ status: 400, code: "invalid_body", path });
  });
});

describe("values of the wrong type are refused with their path", () => {
  test.each([
    ["a null value", "/counters/0/rows/0/v", (e: any) => (e.counters[0].rows[0].v = null)],
    ["a null kind", "/counters/0/rows/0/m", (e: any) => (e.counters[0].rows[0].m = null)],
    ["a number as a string", "/counters/0/rows/0/v", (e: any) => (e.counters[0].rows[0].v = "10")],
    ["a fraction", "/counters/0/rows/0/v", (e: any) => (e.counters[0].rows[0].v = 10.5)],
    ["an integer past 2^53", "/counters/0/rows/0/v", (e: any) => (e.counters[0].rows[0].v = 2 ** 53)],
    ["a kind outside the four", "/counters/0/rows/0/m", (e: any) => (e.counters[0].rows[0].m = "sum")],
    ["an upper-case batchId", "/batchId", (e: any) => (e.batchId = e.batchId.toUpperCase().replace(/^./, "A"))],
    ["a dashed installId", "/client/install", (e: any) => (e.client.install = "a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf")],
    ["a 31-hex profile id", "/profile/id", (e: any) => (e.profile.id = PROFILE.slice(1))],
    ["a day that is not YYYY-MM-DD", "/counters/0/day", (e: any) => (e.counters[0].day = "2026-6-1")],
    ["a day that does not exist", "/counters/0/day", (e: any) => (e.counters[0].day = "2026-02-30")],
    ["a session day that does not exist", "/sessions/0/day", (e: any) => (e.sessions[0].day = "2026-13-01")],
    // Year 0000 exists in no calendar and Postgres refuses it: these answered 500 before (issue 9's fuzz).
    [
      "a backfill day in year 0000",
      "/counters/0/day",
      (e: any) => ((e.counters[0].scope = "backfill"), (e.counters[0].day = "0000-01-01")),
    ],
    ["a session day in year 0000", "/sessions/0/day", (e: any) => (e.sessions[0].day = "0000-06-01")],
    ["a timeline day in year 0000", "/timeline/0/day", (e: any) => (e.timeline[0].day = "0000-12-31")],
    ["a mode other than live", "/mode", (e: any) => (e.mode = "replay")],
    ["a scope other than day and backfill", "/counters/0/scope", (e: any) => (e.counters[0].scope = "account")],
    ["a negative sentAt", "/sentAt", (e: any) => (e.sentAt = -1)],
    ["a missing batchId", "/batchId", (e: any) => delete e.batchId],
  ])("%s (%s)", async (_what, path, mutate) => {
    expect(await refusal(mutate)).toMatchObject({ status: 400, code: "invalid_body", path });
  });
});

describe("counter keys follow the grammar exactly", () => {
  test.each([
    ["a bare namespace", "mining"],
    ["six segments", "mining.a.b.c.d.e.f"],
    ["an upper-case namespace", "Mining.blocks"],
    ["a one-letter namespace", "m.blocks"],
    ["a 17-letter namespace", "abcdefghijklmnopq.x"],
    ["a 65-character segment", `mining.${"a".repeat(65)}`],
    ["a segment starting with -", "mining.-x"],
    ["an empty segment", "mining..x"],
    ["a space", "mining.blocks stone"],
    ["a non-ASCII letter", "mining.blöcke"],
    ["129 bytes", `mining.${"a".repeat(60)}.${"b".repeat(54)}.${"c".repeat(6)}`],
  ])("%s is refused", async (what, k) => {
    if (what === "129 bytes") expect(k.length).toBe(129);
    expect(await refusal((e) => (e.counters[0].rows[0].k = k))).toMatchObject({
      status: 400,
      code: "invalid_body",
      path: "/counters/0/rows/0/k",
    });
  });

  test("the limits themselves are accepted: 5 segments, 64-character segments, 128 bytes", async () => {
    const keys = [
      "mining.a.b.c.d.e",
      `mining.${"a".repeat(64)}`,
      `mining.${"a".repeat(60)}.${"b".repeat(54)}.${"c".repeat(5)}`,
      "mining.x;1:2+3#4-5",
    ];
    expect(keys[2]!.length).toBe(128);
    const other = await uploader(t);
    const res = await other.send(
      envelope(t, { counters: [{ profileId: PROFILE, scope: "day", day, rows: keys.map((k) => ({ k, v: 1 })) }] }),
    );
    expect(res.status).toBe(200);
  });
});

describe("schema versions", () => {
  test.each([[2], [0]])("schema %d is refused unsupported_schema, before any other check", async (schema) => {
    expect(await refusal((e) => ((e.schema = schema), (e.newField = true)))).toMatchObject({
      status: 422,
      code: "unsupported_schema",
      path: "/schema",
    });
  });
});

describe("the body", () => {
  test("over 8 KiB it must be gzip: plain is refused gzip_required, gzip is applied", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ k: `mining.blocks.B${i}`, v: i }));
    const env = envelope(t, { counters: [{ profileId: PROFILE, scope: "day", day, rows }] });
    expect(JSON.stringify(env).length).toBeGreaterThan(8192);
    const plain = await u.send(env, { gzip: false });
    expect(plain.status).toBe(413);
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe("gzip_required");
    expect(isEmpty(await storedState(t.db, u.uuid))).toBe(true);
    const gz = await u.send(env, { gzip: true });
    expect(gz.status).toBe(200);
    expect((await storedState(t.db, u.uuid)).days).toHaveLength(300);
  });

  test("without a token it is refused 401", async () => {
    const res = await t.postJson("/v1/stats/ingest", base());
    expect(res.status).toBe(401);
  });
});
