// The seal and the retention seal leave every figure as it was (contract 3 and 2.6): charts and
// totals after sealing are byte for byte the fixtures' expected totals; after retention every
// lifetime value is unchanged; a run aborted between batches never counts anything twice.
import { afterEach, describe, expect, test, afterAll, beforeAll } from "bun:test";
import { emptyTables, testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq, ne } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import {
  fixtureAccount,
  fixtureCatalogue,
  fixturesDir,
  sendFixtures,
  totalsReads,
  FIXTURE_PROFILE,
} from "../support/fixtures.ts";
import { envelope, uploader, INSTALL_A, INSTALL_B, PROFILE, type Uploader } from "../support/uploads.ts";
import type { CounterBlock } from "../../src/wire/envelope.ts";
import { counterDays, counterMarks, counterRollups } from "../../src/stats/counters.table.ts";
import { accountsWithOpenDays, recomputeRollups } from "../../src/stats/rollup.query.ts";
import { closeDaysPass } from "../../src/stats/rollups.ts";
import { sealedBefore } from "../../src/stats/horizons.ts";
import { retentionPass, sealPass } from "../../src/stats/seal.ts";
import { SEALED_INSTALL } from "../../src/stats/seal.query.ts";

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
async function withFixtures() {
  const t = await testApp({
    database,
    settings: { devSignin: true, catalogueFile: fixtureCatalogue },
    now: fixtureAccount.signedInAt,
  });
  opened.push(t);
  const { uploader } = await sendFixtures(t);
  return { t, u: uploader };
}
const reads = async (t: TestApp, u: Uploader) => {
  const out: Record<string, string> = {};
  for (const [file, path] of Object.entries(totalsReads))
    out[file] = JSON.stringify(await (await t.request(path, { headers: u.auth })).json(), null, 2) + "\n";
  return out;
};
const expected = Object.fromEntries(
  Object.keys(totalsReads).map((file) => [file, readFileSync(join(fixturesDir, "totals", file), "utf8")]),
);
type Totals = {
  profile: { keys: { key: string; lifetime: { value: number; baseline: { day: string } | null; days: unknown } }[] };
  account: { keys: { key: string; lifetime: { value: number } }[] };
};
const totals = async (t: TestApp, u: Uploader) =>
  (await (await t.request(`/v1/stats/totals?profile=${FIXTURE_PROFILE}`, { headers: u.auth })).json()) as Totals;
const lifetimes = (x: Totals) => [...x.profile.keys, ...x.account.keys].map((k) => [k.key, k.lifetime.value]);
const setRetention = async (t: TestApp, u: Uploader, days: number) => {
  const current = (await (await t.request("/v1/stats/settings", { headers: u.auth })).json()) as {
    settingsVersion: number;
  };
  const res = await t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...u.auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: current.settingsVersion, retentionDays: days }),
  });
  expect(res.status).toBe(200);
};
/** One day block of the profile holding one count key. */
const stone = (day: string, v: number): CounterBlock => ({
  profileId: PROFILE,
  scope: "day",
  day,
  rows: [{ k: "mining.blocks.stone", v }],
});
const installRows = (t: TestApp, uuid: string) =>
  t.db
    .select()
    .from(counterDays)
    .where(and(eq(counterDays.uuid, uuid), ne(counterDays.installId, SEALED_INSTALL)));

/** The account's marks of where its rows lie (counter_marks): its first and last day and its seal mark. */
const marksOf = async (t: TestApp, uuid: string) => {
  const [m] = await t.db
    .select({ firstDay: counterMarks.firstDay, lastDay: counterMarks.lastDay, unsealedFrom: counterMarks.unsealedFrom })
    .from(counterMarks)
    .where(eq(counterMarks.uuid, uuid));
  return m;
};
const sealMark = async (t: TestApp, uuid: string) => (await marksOf(t, uuid))?.unsealedFrom;
/**
 * The seal mark is at `day`, a day written below the mark while a pass worked, and the next pass
 * seals it: no per-install row is left anywhere, so no mark, and no pass reads the account until
 * it uploads again.
 */
const markedThenSealed = async (t: TestApp, uuid: string, day: string) => {
  expect(await sealMark(t, uuid)).toBe(day);
  expect(await sealPass(t)).toMatchObject({ accounts: 1, rowsRemoved: 1 });
  expect(await installRows(t, uuid)).toEqual([]);
  expect(await sealMark(t, uuid)).toBeNull();
};

describe("the seal", () => {
  test("leaves nothing to do while every day is writable", async () => {
    const { t } = await withFixtures();
    expect(await sealPass(t)).toEqual({ accounts: 0, batches: 0, rowsRemoved: 0, skipped: 0 });
  });

  test("past the horizon collapses each day's installs into one row, and every chart and total keeps its bytes", async () => {
    const { t, u } = await withFixtures();
    expect(await reads(t, u)).toEqual(expected);
    t.clock.set("2026-10-15T12:00:00Z");
    const result = await sealPass(t, { batchKeys: 2 });
    expect(result.rowsRemoved).toBeGreaterThan(0);
    expect(result.batches).toBeGreaterThan(1);
    expect(await installRows(t, u.uuid)).toEqual([]);
    expect(await reads(t, u)).toEqual(expected);
    expect(await sealPass(t)).toEqual({ accounts: 0, batches: 0, rowsRemoved: 0, skipped: 0 });
  });

  test("a later pass starts at the account's seal mark", async () => {
    const { t, u } = await withFixtures();
    t.clock.set("2026-10-15T12:00:00Z");
    await sealPass(t);
    // The mark is the account's first per-install day left, on or after the horizon (none: null).
    const horizon = sealedBefore(fixtureAccount.zone, t.clock.now());
    const left = (await t.db.select().from(counterDays).where(eq(counterDays.uuid, u.uuid)))
      .filter((r) => r.installId !== SEALED_INSTALL)
      .map((r) => r.day)
      .sort();
    expect(left.every((day) => day >= horizon)).toBe(true);
    expect(await sealMark(t, u.uuid)).toBe(left[0] ?? null);
    // Nothing crossed the horizon since: the account is not worked on.
    expect(await sealPass(t)).toEqual({ accounts: 0, batches: 0, rowsRemoved: 0, skipped: 0 });
  });

  test("an upload below the mark while a pass works on the account keeps the mark low for the next pass", async () => {
    const t = await testApp({ database, settings: { devSignin: true }, now: "2026-10-14T12:00:00Z" });
    opened.push(t);
    const u = await uploader(t, { zone: "UTC" });
    const send = async (blocks: CounterBlock[]) => {
      const res = await u.send(envelope(t, { counters: blocks }));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { refused: unknown[] }).refused).toEqual([]);
    };
    await send([stone("2026-06-17", 7)]);
    t.clock.set("2026-10-15T00:30:00Z"); // horizon 2026-06-17: nothing before it, marked there
    await sealPass(t);
    t.clock.set("2026-10-16T00:30:00Z"); // horizon 2026-06-18: 2026-06-17 is due
    const working = t.clock.now();
    const result = await sealPass(t, {
      afterBatch: async () => {
        // Meanwhile a clock a day behind lets an install write the empty 2026-06-16.
        t.clock.set("2026-10-14T23:30:00Z");
        await send([stone("2026-06-16", 50)]);
        t.clock.set(working);
      },
    });
    expect(result).toMatchObject({ accounts: 1, rowsRemoved: 1 });
    await markedThenSealed(t, u.uuid, "2026-06-16");
  });

  test("an upload below the mark between a pass's batches is found by the pass's own mark", async () => {
    const t = await testApp({ database, settings: { devSignin: true }, now: "2026-10-14T12:00:00Z" });
    opened.push(t);
    const u = await uploader(t, { zone: "UTC" });
    const send = async (blocks: CounterBlock[]) =>
      expect((await u.send(envelope(t, { counters: blocks }))).status).toBe(200);
    const two = (day: string, v: number): CounterBlock => ({
      ...stone(day, v),
      rows: [
        { k: "mining.blocks.stone", v },
        { k: "mining.blocks.dirt", v },
      ],
    });
    await send([two("2026-06-17", 7)]);
    t.clock.set("2026-10-16T00:30:00Z"); // horizon 2026-06-18: 2026-06-17 is due, two keys
    const working = t.clock.now();
    let batches = 0;
    const result = await sealPass(t, {
      batchKeys: 1,
      afterBatch: async () => {
        if (batches++ > 0) return;
        // Between the two batches a clock two days behind lets an install write 2026-06-16,
        // below the mark the pass read (2026-06-17).
        t.clock.set("2026-10-14T23:30:00Z");
        await send([stone("2026-06-16", 50)]);
        t.clock.set(working);
      },
    });
    expect(result).toMatchObject({ accounts: 1, batches: 2, rowsRemoved: 2 });
    await markedThenSealed(t, u.uuid, "2026-06-16");
  });

  test("a closed day of installs of either sign keeps each key's rollup equal to a rebuild from the rows", async () => {
    const t = await testApp({ database, settings: { devSignin: true }, now: "2026-06-16T12:00:00Z" });
    opened.push(t);
    const u = await uploader(t, { zone: "UTC" });
    for (const [install, blocks] of [
      [INSTALL_A, [stone("2026-06-16", 5)]],
      [INSTALL_B, [stone("2026-06-16", -3)]],
      [INSTALL_A, [stone("2026-06-15", 4)]],
    ] as const) {
      const res = await u.send(envelope(t, { install, zone: { id: "UTC" }, counters: [...blocks] }));
      expect(res.status).toBe(200);
    }
    t.clock.set("2026-10-20T12:00:00Z");
    await closeDaysPass(t);
    expect(await sealPass(t)).toMatchObject({ accounts: 1, rowsRemoved: 3 });
    const sealed = await t.db.select().from(counterRollups).where(eq(counterRollups.uuid, u.uuid));
    // The day folds to 2: its parts shrink from +5 and -3 to +2 and 0; the sum stays 6.
    expect(sealed.map((r) => [r.key, r.sum, r.pos, r.neg])).toEqual([["mining.blocks.stone", 6, 6, 0]]);
    await t.db.transaction((tx) => recomputeRollups(tx, u.uuid, ["mining.blocks.stone"]));
    const rebuilt = await t.db.select().from(counterRollups).where(eq(counterRollups.uuid, u.uuid));
    const read = (list: typeof sealed) =>
      list.map(({ sum, pos, neg, firstDay, lastDay }) => ({ sum, pos, neg, firstDay, lastDay }));
    expect(read(sealed)).toEqual(read(rebuilt));
  });
});

describe("the retention seal", () => {
  test("within the retention deletes nothing", async () => {
    const { t, u } = await withFixtures();
    t.clock.set("2026-10-15T12:00:00Z");
    expect((await retentionPass(t)).rowsRemoved).toBe(0);
    expect(await reads(t, u)).toEqual(expected);
  });

  test("past the retention folds old days into the baseline and deletes them; every lifetime value stays", async () => {
    const { t, u } = await withFixtures();
    const before = await totals(t, u);
    await setRetention(t, u, 120);
    t.clock.set("2026-10-15T12:00:00Z");
    const result = await retentionPass(t);
    expect(result.rowsRemoved).toBeGreaterThan(0);
    expect(await t.db.select().from(counterDays).where(eq(counterDays.uuid, u.uuid))).toEqual([]);
    const after = await totals(t, u);
    expect(lifetimes(after)).toEqual(lifetimes(before));
    // The figure now says it comes from the baseline, up to the last day deleted.
    const mining = after.profile.keys.find((k) => k.key === "mining.blocks.total")!;
    expect(mining.lifetime).toMatchObject({ value: 252_710, baseline: { day: "2026-06-16" }, days: null });
  });

  test("after the seal, and run twice, still leaves every lifetime value", async () => {
    const { t, u } = await withFixtures();
    const before = lifetimes(await totals(t, u));
    await setRetention(t, u, 120);
    t.clock.set("2026-10-15T12:00:00Z");
    await sealPass(t);
    await retentionPass(t);
    expect((await retentionPass(t)).rowsRemoved).toBe(0);
    expect(lifetimes(await totals(t, u))).toEqual(before);
  });

  test("aborted between batches counts nothing twice, and the next run finishes the rest", async () => {
    const { t, u } = await withFixtures();
    const before = lifetimes(await totals(t, u));
    await setRetention(t, u, 120);
    t.clock.set("2026-10-15T12:00:00Z");
    let batches = 0;
    const crash = retentionPass(t, {
      batchKeys: 1,
      afterBatch: () => {
        if (++batches === 2) throw new Error("the process died here");
      },
    });
    await expect(crash).rejects.toThrow("the process died here");
    expect(lifetimes(await totals(t, u))).toEqual(before);
    expect((await t.db.select().from(counterDays).where(eq(counterDays.uuid, u.uuid))).length).toBeGreaterThan(0);
    await retentionPass(t, { batchKeys: 1 });
    expect(await t.db.select().from(counterDays).where(eq(counterDays.uuid, u.uuid))).toEqual([]);
    expect(lifetimes(await totals(t, u))).toEqual(before);
  });
});

describe("where an account's rows lie (counter_marks), which each job reads to find its accounts", () => {
  test("uploads take in their days; the seal, retention and the rollups set the marks from what is left", async () => {
    const t = await testApp({ database, settings: { devSignin: true }, now: "2026-06-16T12:00:00Z" });
    opened.push(t);
    const u = await uploader(t, { zone: "UTC" });
    const send = async (...blocks: CounterBlock[]) =>
      expect((await u.send(envelope(t, { zone: { id: "UTC" }, counters: blocks }))).status).toBe(200);
    await send(stone("2026-06-15", 4), stone("2026-06-16", 5));
    expect(await marksOf(t, u.uuid)).toEqual({
      firstDay: "2026-06-15",
      lastDay: "2026-06-16",
      unsealedFrom: "2026-06-15",
    });
    await send(stone("2026-06-10", 2)); // an earlier day moves the first day and the seal mark only
    expect(await marksOf(t, u.uuid)).toEqual({
      firstDay: "2026-06-10",
      lastDay: "2026-06-16",
      unsealedFrom: "2026-06-10",
    });
    // Open days after the mark: the rollups job's partial index holds the account until they close.
    expect(await accountsWithOpenDays(t.db)).toContain(u.uuid);

    t.clock.set("2026-10-09T12:00:00Z"); // seal horizon 2026-06-11: 2026-06-10 is due, nothing else
    await closeDaysPass(t);
    expect(await accountsWithOpenDays(t.db)).not.toContain(u.uuid);
    expect(await sealPass(t)).toMatchObject({ accounts: 1, rowsRemoved: 1 });
    expect(await marksOf(t, u.uuid)).toEqual({
      firstDay: "2026-06-10", // its collapsed row is still a day row
      lastDay: "2026-06-16",
      unsealedFrom: "2026-06-15",
    });
    expect(await sealPass(t)).toMatchObject({ accounts: 0 });

    await setRetention(t, u, 120);
    t.clock.set("2026-10-14T12:00:00Z"); // both horizons 2026-06-16: the seal first, then retention
    expect(await sealPass(t)).toMatchObject({ accounts: 1, rowsRemoved: 1 });
    expect(await retentionPass(t)).toMatchObject({ accounts: 1, rowsRemoved: 2 });
    expect(await marksOf(t, u.uuid)).toEqual({
      firstDay: "2026-06-16",
      lastDay: "2026-06-16",
      unsealedFrom: "2026-06-16",
    });
    expect(await retentionPass(t)).toMatchObject({ accounts: 0 });
    // The day before the horizon crosses it tomorrow: only then does either pass read the account.
    t.clock.set("2026-10-15T12:00:00Z");
    expect(await sealPass(t)).toMatchObject({ accounts: 1, rowsRemoved: 1 });
    expect(await retentionPass(t)).toMatchObject({ accounts: 1, rowsRemoved: 1 });
    expect(await marksOf(t, u.uuid)).toEqual({ firstDay: null, lastDay: null, unsealedFrom: null });
    expect(await t.db.select().from(counterDays).where(eq(counterDays.uuid, u.uuid))).toEqual([]);
  });
});
