// An import moves what an upload moves (issue 37): the boards' scores of the account that took the
// file, in the windows still open and in all time, as if its rows had been uploaded there; the
// rollups and the calendar are rebuilt from what is stored (import.test.ts checks the export after).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardJson, boardPlayer, upload, type BoardPlayer } from "../boards/support.ts";

async function exportOf(t: TestApp, auth: Record<string, string>): Promise<string> {
  const res = await t.request("/v1/stats/export", { headers: auth });
  expect(res.status).toBe(200);
  return res.text();
}

const importTo = (t: TestApp, auth: Record<string, string>, file: string) =>
  t.request("/v1/stats/import", {
    method: "POST",
    body: Bun.gzipSync(new TextEncoder().encode(file)),
    headers: { ...auth, "content-type": "application/json", "content-encoding": "gzip" },
  });

setDefaultTimeout(60_000);

const NOW = "2026-11-18T12:00:00Z";
let source: TestApp;
let target: TestApp;
let player: BoardPlayer;

beforeAll(async () => {
  source = await testApp({ settings: { devSignin: true }, now: NOW });
  target = await testApp({ settings: { devSignin: true }, now: NOW });
  player = await boardPlayer(source, "Moving_Player", { findable: true });
  // This week (W47), earlier this month, and last month: each window its own figure.
  await upload(source, player, {
    "2026-11-17": { "kills.island.hub": 5, "kills.island.spider_den": 2 },
    "2026-11-03": { "kills.island.hub": 11 },
    "2026-10-02": { "kills.island.hub": 100 },
  });
});
afterAll(async () => {
  await source?.close();
  await target?.close();
});

const figures = async (t: TestApp) => {
  const out: Record<string, number | undefined> = {};
  for (const w of ["week", "month", "all"])
    out[w] = (await boardJson(t, `/v1/boards/kills?window=${w}`)).rows.find((r) => r.name === "Moving_Player")?.value;
  return out;
};

test("an imported history ranks on the boards as its uploads did on the instance it came from", async () => {
  expect(await figures(source)).toEqual({ week: 7, month: 18, all: 118 });
  const file = await exportOf(source, player.auth);
  // The same account on the new instance, findable and on the boards, before its history arrives.
  const moved = await boardPlayer(target, "Moving_Player", { findable: true, uuid: player.uuid });
  expect(await figures(target)).toEqual({ week: undefined, month: undefined, all: undefined });
  const res = await importTo(target, moved.auth, file);
  expect(res.status).toBe(200);
  expect(await figures(target)).toEqual({ week: 7, month: 18, all: 118 });
  // The same file again changes nothing, the boards included.
  expect((await importTo(target, moved.auth, file)).status).toBe(200);
  expect(await figures(target)).toEqual({ week: 7, month: 18, all: 118 });
});

test("a player who is on no board is never put on one by an import", async () => {
  const other = await testApp({ settings: { devSignin: true }, now: NOW });
  try {
    const file = await exportOf(source, player.auth);
    const moved = await boardPlayer(other, "Moving_Player", { findable: true, uuid: player.uuid, optIn: null });
    expect((await importTo(other, moved.auth, file)).status).toBe(200);
    expect(await figures(other)).toEqual({ week: undefined, month: undefined, all: undefined });
  } finally {
    await other.close();
  }
});
