// Opting in to boards (issue 35): off by default, by group or all; leaving removes a player from
// every board and page on the next request; a player not opted in never appears; a row names only
// a findable player; unknown boards and windows answer 404 with a code; ETag and 304.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { boardJson, boardPlayer, optIn, upload, type BoardPlayer } from "./support.ts";
import { sql } from "drizzle-orm";
import { rows } from "../../src/db/database.ts";
import { postgresUrl } from "../support/db.ts";
import * as q from "../../src/boards/boards.query.ts";

let t: TestApp;
let shown: BoardPlayer;
let hidden: BoardPlayer;
let combatOnly: BoardPlayer;
let never: BoardPlayer;
const DAY = "2026-11-18";
const kills = (n: number) => ({ [DAY]: { "kills.island.hub": n, "dungeon.best_split.F7.finish": 300_000 + n } });

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-11-18T12:00:00Z" });
  shown = await boardPlayer(t, "Findable_One", { findable: true });
  hidden = await boardPlayer(t, "Secret_Two", { findable: false });
  combatOnly = await boardPlayer(t, "Combat_Only", { findable: true, optIn: { all: false, groups: ["combat"] } });
  never = await boardPlayer(t, "Never_In", { findable: true, optIn: null });
  await upload(t, shown, kills(30));
  await upload(t, hidden, kills(20));
  await upload(t, combatOnly, kills(10));
  await upload(t, never, kills(99));
});
afterAll(() => t?.close());

test("boards are off by default: the membership says so and the player never appears", async () => {
  const res = await t.request("/v1/boards/membership", { headers: never.auth });
  const body = (await res.json()) as { all: boolean; groups: { id: string; on: boolean }[] };
  expect(body.all).toBe(false);
  expect(body.groups.every((g) => !g.on)).toBe(true);
  for (const board of ["kills", "floor-7"])
    for (const w of ["week", "month", "all"]) {
      const page = await boardJson(t, `/v1/boards/${board}?window=${w}`);
      expect(page.rows.some((r) => r.name === "Never_In" || r.value === 99)).toBe(false);
    }
  const html = await (await t.request("/boards/kills")).text();
  expect(html).not.toContain("Never_In");
});

test("a row names a findable player; another is 'a player', name and cute name withheld", async () => {
  const page = await boardJson(t, "/v1/boards/kills");
  expect(page.rows.map((r) => [r.rank, r.name, r.value])).toEqual([
    [1, "Findable_One", 30],
    [2, null, 20],
    [3, "Combat_Only", 10],
  ]);
  expect(page.rows[1]!.cuteName).toBeNull();
  const html = await (await t.request("/boards/kills")).text();
  expect(html).toContain('href="/u/Findable_One"');
  expect(html).not.toContain("Secret_Two");
  expect(html).toContain("A player");
  // The hidden player sees their own name on their own view.
  const own = await boardJson(t, "/v1/boards/kills", hidden.auth);
  expect(own.me[0]!.rows.find((r) => r.you)).toMatchObject({ name: "Secret_Two", rank: 2 });
});

test("opting in to a group ranks on its boards only", async () => {
  const f7 = await boardJson(t, "/v1/boards/floor-7");
  // A min board: the least time first; Combat_Only opted in to combat only, so is not on it.
  expect(f7.rows.map((r) => [r.name, r.value])).toEqual([
    [null, 300_020],
    ["Findable_One", 300_030],
  ]);
});

test("leaving removes the player from every board and window on the next request", async () => {
  const before = await t.request("/v1/boards/kills?window=all");
  const etag = before.headers.get("etag")!;
  expect(before.headers.get("cache-control")).toBe("no-cache");
  expect((await t.request("/v1/boards/kills?window=all", { headers: { "if-none-match": etag } })).status).toBe(304);

  const left = await optIn(t, shown, { all: false, groups: [] });
  expect(left.removed).toBe(6); // two boards, three windows
  for (const board of ["kills", "floor-7"])
    for (const w of ["week", "month", "all"]) {
      const page = await boardJson(t, `/v1/boards/${board}?window=${w}`);
      expect(page.rows.some((r) => r.name === "Findable_One")).toBe(false);
    }
  expect((await t.request("/v1/boards/kills?window=all", { headers: { "if-none-match": etag } })).status).toBe(200);
  expect(await (await t.request("/boards/kills")).text()).not.toContain("Findable_One");
  // Uploads after leaving rank nothing.
  await upload(t, shown, kills(50));
  expect((await boardJson(t, "/v1/boards/kills")).rows.some((r) => r.value === 50)).toBe(false);
  // Leaving one group keeps the other's scores.
  await optIn(t, hidden, { all: false, groups: ["dungeons"] });
  expect((await boardJson(t, "/v1/boards/kills")).rows.map((r) => r.value)).toEqual([10]);
  expect((await boardJson(t, "/v1/boards/floor-7")).rows.map((r) => r.value)).toEqual([300_020]);
});

test("unknown boards, windows and groups answer with a code", async () => {
  const code = async (path: string) =>
    ((await (await t.request(path)).json()) as { error: { code: string } }).error.code;
  expect(await code("/v1/boards/nope")).toBe("unknown_board");
  expect((await t.request("/v1/boards/nope")).status).toBe(404);
  expect(await code("/v1/boards/kills?window=week&at=2027-W53")).toBe("unknown_board_window");
  expect(await code("/v1/boards/kills?window=month&at=2026-13")).toBe("unknown_board_window");
  expect((await t.request("/boards/nope")).status).toBe(404);
  const res = await t.request("/v1/boards/membership", {
    method: "PUT",
    headers: { ...never.auth, "content-type": "application/json" },
    body: JSON.stringify({ all: false, groups: ["nope"] }),
  });
  expect(res.status).toBe(422);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unknown_board_group");
  expect((await t.request("/v1/boards/membership")).status).toBe(401);
});

test("the list names every board in words", async () => {
  const list = (await (await t.request("/v1/boards")).json()) as { boards: { id: string; title: string }[] };
  expect(list.boards.map((b) => b.id)).toContain("kills");
  const html = await (await t.request("/boards")).text();
  expect(html).toContain("Fastest Floor 7 finish");
});

test("erasing the statistics takes the scores made of them; erasing the account, the opt-in too", async () => {
  expect((await boardJson(t, "/v1/boards/kills?window=all")).rows.some((r) => r.name === "Combat_Only")).toBe(true);
  expect((await t.request("/v1/stats/data", { method: "DELETE", headers: combatOnly.auth })).status).toBe(200);
  expect((await boardJson(t, "/v1/boards/kills?window=all")).rows.some((r) => r.name === "Combat_Only")).toBe(false);
  const still = (await (await t.request("/v1/boards/membership", { headers: combatOnly.auth })).json()) as {
    groups: { id: string; on: boolean }[];
  };
  expect(still.groups.find((g) => g.id === "combat")?.on).toBe(true);
  expect((await t.request("/v1/stats/account", { method: "DELETE", headers: hidden.auth })).status).toBe(200);
  expect((await boardJson(t, "/v1/boards/floor-7?window=all")).total).toBe(0);
});

// Postgres only: the embedded database runs one transaction at a time, so the two cannot overlap.
test.skipIf(!postgresUrl)("an opt-out that commits while an upload waits for the scores' lock stays out", async () => {
  const racer = await boardPlayer(t, "Racing_Rita", { findable: true });
  await upload(t, racer, kills(40));
  expect((await boardJson(t, "/v1/boards/kills?window=all")).rows.some((r) => r.name === "Racing_Rita")).toBe(true);
  let sent: Promise<void> | undefined;
  await t.db.transaction(async (tx) => {
    // The opt-out's own steps (setMembership), holding the account's lock while the upload starts:
    // the upload reads the opt-in before the lock, then waits for it.
    await q.lockAccountScores(tx, racer.uuid);
    sent = upload(t, racer, kills(50));
    for (;;) {
      const [w] = await rows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%pg_advisory_xact_lock%'`,
      );
      if ((w?.n ?? 0) > 0) break;
    }
    await q.replaceOptins(tx, racer.uuid, [], t.clock.now());
    await q.deleteAccountScores(tx, racer.uuid);
  });
  await sent;
  for (const board of ["kills", "floor-7"])
    for (const w of ["week", "month", "all"])
      expect((await boardJson(t, `/v1/boards/${board}?window=${w}`)).rows.some((r) => r.name === "Racing_Rita")).toBe(
        false,
      );
});

// Postgres only (the embedded database runs one transaction at a time). An upload's bucket counts
// are written in (board, window, level, bucket) order; an opt-out's must be too, or the two wait on
// each other and Postgres aborts one (the opt-out answered 500).
test.skipIf(!postgresUrl)("an opt-out and another player's upload never deadlock on the bucket counts", async () => {
  const leaver = await boardPlayer(t, "Leaving_Lou", { findable: true });
  await upload(t, leaver, kills(70));
  const held = await rows<{ board: string; window: string; level: number; bucket: number }>(
    t.db,
    sql`select b.board, b."window", b.level, b.bucket from board_buckets b join board_scores s
      on s.board = b.board and s."window" = b."window" and s.uuid = ${leaver.uuid}
      and b.bucket = case when b.level = 0 then s.bucket else floor(s.bucket / 100.0)::int end
      order by b.board collate "C", b."window" collate "C", b.level, b.bucket`,
  );
  // A pair an unordered write could take the other way round: a group count (level 1) of one
  // board's window, then a bucket count (level 0) of a later one.
  const i = held.findIndex((r) => r.level === 1);
  const j = held.findLastIndex((r) => r.level === 0);
  expect(i).toBeLessThan(j);
  const [first, last] = [held[i]!, held[j]!];
  const touch = (r: typeof first) =>
    sql`update board_buckets set n = n where board = ${r.board} and "window" = ${r.window} and level = ${r.level} and bucket = ${r.bucket}`;
  let left: Promise<Response> | undefined;
  await t.db.transaction(async (tx) => {
    // Another account's upload, in the order uploads take: the first of these rows, then the last.
    await tx.execute(touch(first));
    left = t.request("/v1/boards/membership", {
      method: "PUT",
      headers: { ...leaver.auth, "content-type": "application/json" },
      body: JSON.stringify({ all: false, groups: [] }),
    });
    for (;;) {
      const [w] = await rows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%board_buckets%'`,
      );
      if ((w?.n ?? 0) > 0) break;
    }
    await tx.execute(touch(last));
  });
  expect((await left!).status).toBe(200);
  expect((await boardJson(t, "/v1/boards/kills?window=all")).rows.some((r) => r.name === "Leaving_Lou")).toBe(false);
});
