// The boards' trust measures (issue 35): a figure past its board's plausibility bound is held out of
// the ranking and listed for the operator; the operator excludes a player from every board, the
// player sees it, and includes them again.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardJson, boardPlayer, upload, type BoardPlayer } from "./support.ts";
import { runBoardsCommand, parseBoardsArgs } from "../../src/boards/command.ts";

let t: TestApp;
let honest: BoardPlayer;
let forger: BoardPlayer;
const DAY = "2026-11-18";

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-11-18T12:00:00Z" });
  honest = await boardPlayer(t, "Honest_Hana", { findable: true });
  forger = await boardPlayer(t, "Forger_Fred", { findable: true });
  await upload(t, honest, { [DAY]: { "kills.island.hub": 900, "dungeon.best_split.F7.finish": 301_000 } });
});
afterAll(() => t?.close());

const membership = async (p: BoardPlayer) =>
  (await (await t.request("/v1/boards/membership", { headers: p.auth })).json()) as { excluded: boolean };

test("a forged count past the bound is held out of every window of its board and listed", async () => {
  // Kills' bound: 200 000 a day; a week may hold 1 400 000.
  await upload(t, forger, { [DAY]: { "kills.island.hub": 5_000_000, "dungeon.best_split.F7.finish": 302_000 } });
  for (const w of ["week", "month", "all"]) {
    const page = await boardJson(t, `/v1/boards/kills?window=${w}`);
    expect(page.rows.map((r) => r.name)).toEqual(["Honest_Hana"]);
  }
  // The other board's plausible figure still ranks.
  expect((await boardJson(t, "/v1/boards/floor-7")).rows.map((r) => r.name)).toEqual(["Honest_Hana", "Forger_Fred"]);
  const held = await runBoardsCommand(t, { action: "held" });
  expect(held).toContain("Forger_Fred  kills  week:2026-W47  5000000");
  expect(held).not.toContain("Honest_Hana");
  // Held stays held, even once the value looks plausible again.
  await upload(t, forger, { [DAY]: { "kills.island.hub": 10 } });
  expect((await boardJson(t, "/v1/boards/kills")).rows.map((r) => r.name)).toEqual(["Honest_Hana"]);
});

test("a min board's time under its bound is held", async () => {
  const quick = await boardPlayer(t, "Too_Quick", { findable: true });
  await upload(t, quick, { [DAY]: { "dungeon.best_split.F7.finish": 1_000 } });
  expect((await boardJson(t, "/v1/boards/floor-7")).rows.some((r) => r.name === "Too_Quick")).toBe(false);
});

test("the operator excludes a player: off every board at once, and the player is told", async () => {
  expect(parseBoardsArgs(["exclude", "Honest_Hana"])).toEqual({ action: "exclude", name: "Honest_Hana" });
  expect(parseBoardsArgs(["exclude"])).toHaveProperty("error");
  expect(await runBoardsCommand(t, { action: "exclude", name: "Honest_Hana" })).toContain("excluded from every board");
  expect((await boardJson(t, "/v1/boards/kills?window=all")).total).toBe(0);
  expect((await boardJson(t, "/v1/boards/floor-7")).rows.map((r) => r.name)).toEqual(["Forger_Fred"]);
  expect((await membership(honest)).excluded).toBe(true);
  await upload(t, honest, { [DAY]: { "kills.island.hub": 950 } });
  expect((await boardJson(t, "/v1/boards/kills")).total).toBe(0);
  // Included again: ranks from the next upload.
  expect(await runBoardsCommand(t, { action: "include", name: "Honest_Hana" })).toContain("may rank again");
  expect((await membership(honest)).excluded).toBe(false);
  await upload(t, honest, { [DAY]: { "kills.island.hub": 960 } });
  expect((await boardJson(t, "/v1/boards/kills")).rows.map((r) => [r.name, r.value])).toEqual([["Honest_Hana", 960]]);
  expect(await runBoardsCommand(t, { action: "exclude", name: "Nobody_Here" })).toContain("no player named");
});

test("erasing leaves no held figure behind: the statistics' erasure takes them with the scores", async () => {
  const eraser = await boardPlayer(t, "Erased_Ed", { findable: true });
  await upload(t, eraser, { [DAY]: { "kills.island.hub": 9_000_000 } });
  expect(await runBoardsCommand(t, { action: "held" })).toContain("Erased_Ed  kills");
  expect((await t.request("/v1/stats/data", { method: "DELETE", headers: eraser.auth })).status).toBe(200);
  expect(await runBoardsCommand(t, { action: "held" })).not.toContain("Erased_Ed");
  // Erasing the account: its held figures go too (listed by uuid once the name is gone).
  const gone = await boardPlayer(t, "Gone_Gina", { findable: true });
  await upload(t, gone, { [DAY]: { "kills.island.hub": 9_000_000 } });
  expect(await runBoardsCommand(t, { action: "held" })).toContain("Gone_Gina  kills");
  expect((await t.request("/v1/stats/account", { method: "DELETE", headers: gone.auth })).status).toBe(200);
  expect(await runBoardsCommand(t, { action: "held" })).not.toMatch(/\b[0-9a-f]{32}\b/);
});
