// A recap's board placements (issue 35): once October has closed, the recap stored for it lists the
// player's rank on each board's October window, of how many, by the board's title on its page; a
// year's recap lists the best month on each board with the month; a player on no board has none.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardPlayer, upload, type BoardPlayer } from "./support.ts";
import { closeRecaps, storedRecap } from "../../src/recaps/recaps.ts";
import { placementsOf } from "../../src/boards/placements.ts";
import { builtInBoards } from "../../src/boards/definitions.ts";

let t: TestApp;
let second: BoardPlayer;
let never: BoardPlayer;

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-10-20T12:00:00Z" });
  const first = await boardPlayer(t, "October_Top", { zone: "UTC" });
  second = await boardPlayer(t, "October_Second", { zone: "UTC" });
  never = await boardPlayer(t, "October_Never", { zone: "UTC", optIn: null });
  await upload(t, first, { "2026-10-20": { "kills.island.hub": 500, "dungeon.best_split.F7.finish": 300_000 } });
  await upload(t, second, { "2026-10-20": { "kills.island.hub": 300, "dungeon.best_split.F7.finish": 250_000 } });
  await upload(t, never, { "2026-10-20": { "kills.island.hub": 900 } });
  t.clock.advance(20 * 86_400_000); // 9 November: October has closed
});
afterAll(() => t?.close());

test("the recap of a closed month lists the player's placements on that month's boards", async () => {
  const boards = builtInBoards(t.catalogue);
  const placements = (uuid: string, period: string) => placementsOf({ db: t.db, boards }, uuid, period);
  await closeRecaps({ db: t.db, clock: t.clock, catalogue: t.catalogue, placements });
  const recap = await storedRecap(t.db, second.uuid, "2026-10");
  // Fastest Floor 7: the lower time ranks first.
  expect(recap?.body.boards).toEqual([
    { board: "floor-7", rank: 1, of: 2, at: "2026-10" },
    { board: "kills", rank: 2, of: 2, at: "2026-10" },
  ]);
  expect((await storedRecap(t.db, never.uuid, "2026-10"))?.body.boards).toBeUndefined();
  // The page names each board by its title.
  const res = await t.request("/v1/stats/recaps/2026-10/share", { method: "POST", headers: second.auth });
  const { shareUrl } = (await res.json()) as { shareUrl: string };
  const html = await (await t.request(new URL(shareUrl).pathname)).text();
  expect(html).toContain("Fastest Floor 7 finish: #1 of 2");
  expect(html).toContain("Kills: #2 of 2");
});

test("a year's placements are the best month on each board, with the month", async () => {
  const boards = builtInBoards(t.catalogue);
  expect(await placementsOf({ db: t.db, boards }, second.uuid, "2026")).toEqual([
    { board: "floor-7", rank: 1, of: 2, at: "2026-10" },
    { board: "kills", rank: 2, of: 2, at: "2026-10" },
  ]);
});
