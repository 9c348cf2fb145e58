// The service's clock steps: back an hour (an NTP correction, a host restored from a snapshot)
// and forward a day (a host that slept, a wrong date set and fixed). Through the injected clock,
// with every statistics job run as the scheduler runs it: no duplicate window, seal or retention
// decision goes wrong, nothing is sealed or deleted early, and nothing is counted twice.
import { afterEach, describe, expect, test, afterAll, beforeAll } from "bun:test";
import { emptyTables, testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, type Uploader } from "../support/uploads.ts";
import { statsJobs } from "../../src/stats/stats.jobs.ts";
import type { CounterBlock } from "../../src/wire/envelope.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// One database for the file, emptied after each test: every test starts from a service as new,
// without paying for a new database each time (test/support/db.ts, emptyTables).
let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

const opened: TestApp[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
  await emptyTables(database.db);
});

type Answer = {
  sealedBeforeDay: string;
  duplicate: boolean;
  refused: { day: string; code: string; rows: number }[];
  applied: { rows: number };
};
const KEY = "mining.blocks.stone";
const block = (day: string, v: number): CounterBlock => ({
  profileId: PROFILE,
  scope: "day",
  day,
  rows: [{ k: KEY, v }],
});

async function setup(now: string, retentionDays?: number) {
  const t = await testApp({ database, settings: { devSignin: true }, now });
  opened.push(t);
  const u = await uploader(t, { zone: "UTC" });
  if (retentionDays) {
    const current = (await (await t.request("/v1/stats/settings", { headers: u.auth })).json()) as {
      settingsVersion: number;
    };
    const res = await t.request("/v1/stats/settings", {
      method: "PATCH",
      headers: { ...u.auth, "content-type": "application/json" },
      body: JSON.stringify({ settingsVersion: current.settingsVersion, retentionDays }),
    });
    expect(res.status).toBe(200);
  }
  return { t, u };
}
const send = async (u: Uploader, env: unknown) => {
  const res = await u.send(env);
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
};
/** Every statistics job, once, in the scheduler's order. */
const runJobs = async (t: TestApp) => {
  for (const job of statsJobs(t as never)) await job.run(new AbortController().signal);
};
const lifetime = async (t: TestApp, u: Uploader) => {
  const doc = (await (await t.request(`/v1/stats/totals?profile=${PROFILE}`, { headers: u.auth })).json()) as {
    profile: { keys: { key: string; lifetime: { value: number } }[] };
  };
  return doc.profile.keys.find((k) => k.key === KEY)?.lifetime.value ?? 0;
};
const dayRows = async (t: TestApp, u: Uploader) => {
  const doc = (await (await t.request("/v1/stats/export", { headers: u.auth })).json()) as {
    dayRows: { day: string; installId: string; value: number }[];
  };
  return doc.dayRows.map((r) => `${r.day} ${r.installId || "(sealed)"} ${r.value}`).sort();
};

describe("the clock steps back an hour", () => {
  test("an upload sent again with its batchId is still a duplicate, applied once", async () => {
    const { t, u } = await setup("2026-10-14T12:00:00Z");
    const env = envelope(t, { counters: [block("2026-10-14", 5)] });
    expect((await send(u, env)).duplicate).toBe(false);
    t.clock.advance(-HOUR);
    await runJobs(t);
    expect((await send(u, env)).duplicate).toBe(true);
    t.clock.advance(DAY); // and forward a day: still inside the 7-day window
    await runJobs(t);
    expect((await send(u, env)).duplicate).toBe(true);
    expect(await lifetime(t, u)).toBe(5);
  });

  test("across midnight, a day the seal already collapsed is not reopened: sending it again counts nothing twice", async () => {
    // 2026-10-14 12:00: the oldest writable day is 2026-06-16; an install writes it.
    const { t, u } = await setup("2026-10-14T12:00:00Z");
    expect(
      (await send(u, envelope(t, { counters: [block("2026-06-16", 100), block("2026-06-17", 7)] }))).refused,
    ).toEqual([]);
    // 00:30 the next day the seal collapses 2026-06-16 (now past the horizon).
    t.clock.set("2026-10-15T00:30:00Z");
    await runJobs(t);
    expect(await dayRows(t, u)).toContain("2026-06-16 (sealed) 100");
    // The clock steps back an hour: by the clock alone 2026-06-16 is writable again. The mod sends
    // the day's value again (its outbox after a restart, a new batchId): the day stays sealed.
    t.clock.advance(-HOUR);
    const again = await send(u, envelope(t, { counters: [block("2026-06-16", 100), block("2026-06-17", 7)] }));
    expect(again.refused).toEqual([{ day: "2026-06-16", code: "day_sealed", rows: 1 }]);
    await runJobs(t);
    t.clock.set("2026-10-15T01:00:00Z");
    await runJobs(t);
    expect(await lifetime(t, u)).toBe(107);
    expect(await dayRows(t, u)).toContain("2026-06-16 (sealed) 100");
  });

  test("across midnight, a day the seal found empty may be written, and the next seal takes it", async () => {
    const { t, u } = await setup("2026-10-14T12:00:00Z");
    await send(u, envelope(t, { counters: [block("2026-06-17", 7)] }));
    // 00:30 the next day the seal finds nothing on 2026-06-16 and marks the account sealed before 2026-06-17.
    t.clock.set("2026-10-15T00:30:00Z");
    await runJobs(t);
    // Back an hour, 2026-06-16 is writable and nothing of it was sealed: the install writes it.
    t.clock.advance(-HOUR);
    expect((await send(u, envelope(t, { counters: [block("2026-06-16", 50)] }))).refused).toEqual([]);
    await runJobs(t);
    // Once the clock is right again, the seal collapses that day too, below its earlier mark.
    t.clock.set("2026-10-15T01:00:00Z");
    await runJobs(t);
    expect(await dayRows(t, u)).toContain("2026-06-16 (sealed) 50");
    expect(await lifetime(t, u)).toBe(57);
  });

  test("across midnight, a day retention already deleted is not reopened either", async () => {
    const { t, u } = await setup("2026-10-14T12:00:00Z", 120);
    await send(u, envelope(t, { counters: [block("2026-06-16", 100), block("2026-06-17", 7)] }));
    t.clock.set("2026-10-15T00:30:00Z");
    await runJobs(t);
    expect((await dayRows(t, u)).filter((r) => r.startsWith("2026-06-16"))).toEqual([]); // folded into the baseline
    expect(await lifetime(t, u)).toBe(107);
    t.clock.advance(-HOUR);
    const again = await send(u, envelope(t, { counters: [block("2026-06-16", 100)] }));
    expect(again.refused).toEqual([{ day: "2026-06-16", code: "day_sealed", rows: 1 }]);
    await runJobs(t);
    expect(await lifetime(t, u)).toBe(107);
  });
});

describe("the clock steps forward a day", () => {
  test("the seal and retention take exactly the days the new date puts past the horizon, no more", async () => {
    const { t, u } = await setup("2026-10-14T12:00:00Z", 120);
    await send(u, envelope(t, { counters: [block("2026-06-16", 1), block("2026-06-17", 2), block("2026-06-18", 4)] }));
    await runJobs(t);
    expect(await dayRows(t, u)).toHaveLength(3); // nothing past the horizon yet
    t.clock.advance(DAY); // 2026-10-15: 2026-06-16 is past the 120 days, 2026-06-17 is not
    await runJobs(t);
    const rows = await dayRows(t, u);
    expect(rows.filter((r) => r.startsWith("2026-06-16"))).toEqual([]);
    expect(
      rows.filter((r) => r.startsWith("2026-06-17") || r.startsWith("2026-06-18")).map((r) => r.includes("(sealed)")),
    ).toEqual([false, false]);
    expect(await lifetime(t, u)).toBe(7);
    // Back an hour from there changes nothing already decided, and seals nothing more.
    t.clock.advance(-HOUR);
    await runJobs(t);
    expect(await dayRows(t, u)).toEqual(rows);
    expect(await lifetime(t, u)).toBe(7);
  });

  test("an answer inside the 7-day window is kept by the purge; sent again it is a duplicate", async () => {
    const { t, u } = await setup("2026-10-14T12:00:00Z");
    const env = envelope(t, { counters: [block("2026-10-14", 3)] });
    await send(u, env);
    t.clock.advance(6 * DAY);
    await runJobs(t);
    t.clock.advance(-HOUR);
    await runJobs(t);
    expect((await send(u, env)).duplicate).toBe(true);
    expect(await lifetime(t, u)).toBe(3);
  });
});
