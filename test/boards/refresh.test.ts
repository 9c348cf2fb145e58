// Boards kept by the boards.refresh job (BOARDS_REFRESH_MS > 0, issue 35): an upload only notes the
// scores it may have moved; the refresh moves them, with the upload's time as the time reached (ties
// keep their order); an account on no board notes nothing; an opt-out before the refresh keeps the
// player off; the ranking is the same as when the upload moves them itself.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardJson, boardPlayer, optIn, upload, type BoardPlayer } from "./support.ts";
import { refreshBoards } from "../../src/boards/scores.ts";
import { builtInBoards } from "../../src/boards/definitions.ts";
import { serviceJobs } from "../../src/jobs/jobs.ts";
import {
  lockAccountScores,
  pendingAccounts,
  replaceOptins,
  deleteAccountScores,
} from "../../src/boards/boards.query.ts";
import { sql } from "drizzle-orm";
import { rows } from "../../src/db/database.ts";
import { postgresUrl } from "../support/db.ts";

let t: TestApp;
let first: BoardPlayer;
let tied: BoardPlayer;
let leaving: BoardPlayer;
let never: BoardPlayer;
const DAY = "2026-11-18";
const refresh = () => refreshBoards({ ...t, boards: builtInBoards(t.catalogue), refreshMs: 5000 });

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, boardsRefreshMs: 5000 }, now: "2026-11-18T12:00:00Z" });
  first = await boardPlayer(t, "Early_Bird", { findable: true });
  tied = await boardPlayer(t, "Late_Bird", { findable: true });
  leaving = await boardPlayer(t, "Leaving_Bird", { findable: true });
  never = await boardPlayer(t, "Never_Bird", { findable: true, optIn: null });
});
afterAll(() => t?.close());

test("the job is on with BOARDS_REFRESH_MS, every that many ms", () => {
  const job = serviceJobs(t).find((j) => j.name === "boards.refresh")!;
  expect([job.enabled, job.intervalMs]).toEqual([true, 5000]);
});

test("uploads rank once the refresh has run, tied in the order they were uploaded", async () => {
  await upload(t, first, { [DAY]: { "kills.island.hub": 40 } });
  t.clock.advance(1000);
  await upload(t, tied, { [DAY]: { "kills.island.hub": 40 } });
  await upload(t, leaving, { [DAY]: { "kills.island.hub": 70 } });
  await upload(t, never, { [DAY]: { "kills.island.hub": 99 } });
  expect((await boardJson(t, "/v1/boards/kills")).total).toBe(0);
  // The account on no board noted nothing.
  expect((await pendingAccounts(t.db, 100)).includes(never.uuid)).toBe(false);
  // The later upload is refreshed first: the time reached is still its upload's.
  await optIn(t, leaving, { all: false, groups: [] });
  t.clock.advance(60_000);
  expect(await refresh()).toEqual({ accounts: 2, figures: 6, failed: 0 });
  const page = await boardJson(t, "/v1/boards/kills");
  expect(page.rows.map((r) => [r.rank, r.name, r.value])).toEqual([
    [1, "Early_Bird", 40],
    [2, "Late_Bird", 40],
  ]);
  for (const w of ["month", "all"]) expect((await boardJson(t, `/v1/boards/kills?window=${w}`)).total).toBe(2);
  // Nothing left: a second run moves nothing.
  expect(await refresh()).toEqual({ accounts: 0, figures: 0, failed: 0 });
});

// Postgres only (the embedded database runs one transaction at a time): an opt-out that commits
// while the refresh waits for the account's lock keeps the player off every board.
test.skipIf(!postgresUrl)("an opt-out that commits while the refresh waits for the lock stays out", async () => {
  const racer = await boardPlayer(t, "Racing_Rae", { findable: true });
  await upload(t, racer, { [DAY]: { "kills.island.hub": 55 } });
  let sent: Promise<unknown> | undefined;
  await t.db.transaction(async (tx) => {
    await lockAccountScores(tx, racer.uuid);
    sent = refresh();
    for (;;) {
      const [w] = await rows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%pg_advisory_xact_lock%'`,
      );
      if ((w?.n ?? 0) > 0) break;
    }
    await replaceOptins(tx, racer.uuid, [], t.clock.now());
    await deleteAccountScores(tx, racer.uuid);
  });
  await sent;
  for (const w of ["week", "month", "all"])
    expect((await boardJson(t, `/v1/boards/kills?window=${w}`)).rows.some((r) => r.name === "Racing_Rae")).toBe(false);
});
