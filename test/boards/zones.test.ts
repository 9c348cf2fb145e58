// Board windows follow the account's own days (contract 2.1 rule 4) across time zones and the
// year's change: 2026-12-31 and 2027-01-01 both count in 2026-W53, and 2027's week 1 starts on
// 4 January. The operator's board file is checked at start.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardJson, boardPlayer, upload, type BoardPlayer } from "./support.ts";
import { builtInBoards, loadBoards, parseBoards } from "../../src/boards/definitions.ts";
import { tempDirs } from "../support/temp.ts";
import { buildCatalogue } from "../../src/catalogue/catalogue.ts";

const tempDir = tempDirs("boards");

let t: TestApp;
let ahead: BoardPlayer;
let behind: BoardPlayer;

beforeAll(async () => {
  // 11:00 UTC on 31 December: already 1 January at UTC+14, still 31 December at UTC-10.
  t = await testApp({ settings: { devSignin: true }, now: "2026-12-31T11:00:00Z" });
  ahead = await boardPlayer(t, "Kiritimati", { findable: true, zone: "Pacific/Kiritimati" });
  behind = await boardPlayer(t, "Honolulu", { findable: true, zone: "Pacific/Honolulu" });
  await upload(t, ahead, { "2026-12-31": { "kills.island.hub": 5 }, "2027-01-01": { "kills.island.hub": 7 } });
  await upload(t, behind, { "2026-12-30": { "kills.island.hub": 3 }, "2026-12-31": { "kills.island.hub": 4 } });
});
afterAll(() => t?.close());

test("both sides of the year's change count in 2026-W53; months split at the calendar", async () => {
  const week = await boardJson(t, "/v1/boards/kills?window=week&at=2026-W53");
  expect(week.rows.map((r) => [r.name, r.value])).toEqual([
    ["Kiritimati", 12],
    ["Honolulu", 7],
  ]);
  expect(week.window.label).toContain("Week 53 of 2026");
  expect((await boardJson(t, "/v1/boards/kills?window=month&at=2026-12")).rows.map((r) => [r.name, r.value])).toEqual([
    ["Honolulu", 7],
    ["Kiritimati", 5],
  ]);
  expect((await boardJson(t, "/v1/boards/kills?window=month&at=2027-01")).rows.map((r) => [r.name, r.value])).toEqual([
    ["Kiritimati", 7],
  ]);
  expect((await boardJson(t, "/v1/boards/kills?window=week&at=2027-W01")).total).toBe(0);
});

test("the viewer's own week is the one of their own day", async () => {
  const page = await boardJson(t, "/v1/boards/kills?window=month", ahead.auth);
  expect(page.window.at).toBe("2027-01");
  expect(page.me[0]!.rank).toBe(1);
});

test("a board file naming a key the catalogue lacks stops start-up with its path", async () => {
  expect(() =>
    parseBoards({ boards: [{ id: "x", title: "X", group: "g", keys: ["mining.ore.{ORE}"] }] }, t.catalogue, "f.json"),
  ).toThrow("boards f.json: /boards/0/keys/0: mining.ore.{ORE} is neither a key nor a pattern of the catalogue");
  expect(() =>
    parseBoards(
      { boards: [{ id: "Bad Id", title: "X", group: "g", keys: ["tally.playtime.total"] }] },
      t.catalogue,
      "f.json",
    ),
  ).toThrow("/boards/0/id");
  const dir = tempDir();
  const file = `${dir}/boards.json`;
  await Bun.write(
    file,
    JSON.stringify({
      boards: [{ id: "play", title: "Play", group: "time", keys: ["tally.playtime.total"], windows: ["all"] }],
    }),
  );
  const loaded = await loadBoards(file, t.catalogue);
  expect(loaded.list.map((b) => [b.id, b.scope, b.kind, b.windows])).toEqual([["play", "account", "count", ["all"]]]);
  await expect(loadBoards(`${dir}/missing.json`, t.catalogue)).rejects.toThrow("no such file");
});

test("a catalogue without the built-in boards' keys leaves those boards out; the service still starts", async () => {
  // An operator's CATALOGUE_FILE need not have the built-in catalogue's keys: the built-in set
  // keeps only the boards it can rank (an operator's BOARDS_FILE is still refused, above).
  const doc = t.catalogue.document;
  const only = buildCatalogue(
    { ...doc, keys: doc.keys.filter((k) => k.key === "tally.playtime.total"), patterns: [] },
    new Uint8Array(),
  );
  const kept = builtInBoards(only);
  expect(kept.list.length).toBeGreaterThan(0);
  expect(kept.list.every((b) => b.matches("tally.playtime.total"))).toBe(true);
  expect(builtInBoards(t.catalogue).list.length).toBeGreaterThan(kept.list.length);
});
