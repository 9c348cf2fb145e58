// Boards ranked against a fold in JavaScript over random uploads with ties (issue 35): a count
// board (kills on every island, added up) and a min board (fastest Floor 7), in the week, the month
// and all time; pages walked through the bucket counts at every offset; the documented tie rule
// (the same value: reached earlier first, then the account's uuid).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { rng } from "../support/random.ts";
import { boardJson, boardPlayer, optIn, upload, type BoardPlayer } from "./support.ts";
import { insertScoresBulk, rankedPage, rankOf, recountBuckets } from "../../src/boards/ranking.query.ts";
import { bucketOf, sortValueOf } from "../../src/boards/buckets.ts";

let t: TestApp;
const R = rng(35);
const DAYS = ["2026-11-10", "2026-11-12", "2026-11-15", "2026-11-16", "2026-11-17", "2026-11-18"];
const WEEK = ["2026-11-16", "2026-11-17", "2026-11-18"]; // W47; W46 closed on the 18th (its end + 1 day passed)
const ISLANDS = ["kills.island.hub", "kills.island.spider_den", "kills.island.crimson_isle"];
const F7 = "dungeon.best_split.F7.finish";

type Model = { p: BoardPlayer; values: Map<string, number>; reached: Map<string, number>; shown: Map<string, number> };
const players: Model[] = [];
let outsider: BoardPlayer;

function figure(m: Model, board: "kills" | "floor-7", days: string[] | null): number | null {
  const list: number[] = [];
  for (const [k, v] of m.values) {
    const [day, key] = k.split("|") as [string, string];
    if (days && !days.includes(day)) continue;
    if (board === "kills" ? key.startsWith("kills.island.") : key === F7) list.push(v);
  }
  if (list.length === 0) return null;
  return board === "kills" ? list.reduce((a, b) => a + b, 0) : Math.min(...list);
}

const WINDOWS = { week: WEEK, month: DAYS, all: null } as const;

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-11-18T12:00:00Z" });
  for (let i = 0; i < 14; i++) {
    const p = await boardPlayer(t, `Ranked_${String(i).padStart(2, "0")}`, { findable: true });
    players.push({ p, values: new Map(), reached: new Map(), shown: new Map() });
  }
  outsider = await boardPlayer(t, "Not_Opted_In", { findable: true, optIn: null });
  // Random uploads: each replaces absolute values of a few keys on a few days (small values: ties).
  for (let round = 0; round < 60; round++) {
    const m = R.pick(players);
    const days: Record<string, Record<string, number>> = {};
    for (let d = 0; d < 1 + R.int(3); d++) {
      const day = R.pick(DAYS);
      days[day] ??= {};
      for (let k = 0; k < 1 + R.int(2); k++) days[day]![R.pick(ISLANDS)] = R.int(4);
      if (R.chance(0.5)) days[day]![F7] = 400_000 + R.int(3) * 1000;
    }
    // Up to an hour apart: equal figures fall in different time slots of their bucket, and in one.
    t.clock.advance(1000 + R.int(3) * 1_800_000);
    await upload(t, m.p, days);
    for (const [day, rows] of Object.entries(days))
      for (const [k, v] of Object.entries(rows)) m.values.set(`${day}|${k}`, v);
    // When each figure last changed (ties: the earlier reached ranks first).
    for (const board of ["kills", "floor-7"] as const)
      for (const [w, list] of Object.entries(WINDOWS)) {
        const touches = w === "all" || Object.keys(days).some((d) => (list as readonly string[]).includes(d));
        const f = figure(m, board, list as string[] | null);
        const id = `${board}/${w}`;
        if (touches && f !== m.shown.get(id)) {
          m.reached.set(id, t.clock.now());
          if (f === null) m.shown.delete(id);
          else m.shown.set(id, f);
        }
      }
    // The outsider uploads too: never ranked.
    if (round % 10 === 0) await upload(t, outsider, { "2026-11-18": { [ISLANDS[0]!]: 99 } });
  }
});
afterAll(() => t?.close());

function expected(board: "kills" | "floor-7", w: keyof typeof WINDOWS) {
  const id = `${board}/${w}`;
  return players
    .map((m) => ({
      name: m.p.name,
      uuid: m.p.uuid,
      value: figure(m, board, WINDOWS[w] as string[] | null),
      at: m.reached.get(id)!,
    }))
    .filter(
      (x): x is { name: string; uuid: string; value: number; at: number } =>
        x.value !== null && (board === "floor-7" || x.value > 0),
    )
    .sort((a, b) =>
      a.value !== b.value
        ? board === "kills"
          ? b.value - a.value
          : a.value - b.value
        : a.at - b.at || (a.uuid < b.uuid ? -1 : 1),
    );
}

describe.each(["kills", "floor-7"] as const)("board %s", (board) => {
  test.each(["week", "month", "all"] as const)("the %s ranks as the fold in JavaScript does", async (w) => {
    const page = await boardJson(t, `/v1/boards/${board}?window=${w}`);
    const want = expected(board, w);
    expect(want.length).toBeGreaterThan(3);
    expect(page.rows.map((r) => [r.rank, r.name, r.value])).toEqual(want.map((x, i) => [i + 1, x.name, x.value]));
    expect(page.total).toBe(want.length);
    expect(page.rows.some((r) => r.name === "Not_Opted_In")).toBe(false);
  });

  test("any offset through the bucket counts, and every rank, agree with the whole list", async () => {
    const windowId = "month:2026-11";
    const { total, rows: all } = await rankedPage(t.db, board, windowId, 0, 1000);
    expect(total).toBe(all.length);
    for (let offset = 0; offset <= all.length; offset++) {
      const part = await rankedPage(t.db, board, windowId, offset, 3);
      expect(part.total).toBe(all.length);
      expect(part.rows.map((r) => r.uuid)).toEqual(all.slice(offset, offset + 3).map((r) => r.uuid));
    }
    for (let i = 0; i < all.length; i++) expect(await rankOf(t.db, board, windowId, all[i]!)).toBe(i + 1);
  });
});

test("a closed week is not recomputed: W46 has no scores though its days were uploaded on the 18th", async () => {
  const page = await boardJson(t, "/v1/boards/kills?window=week&at=2026-W46");
  expect(page.total).toBe(0);
  expect(page.window.open).toBe(false);
});

test("the signed-in viewer's own rank is pinned with the players around it", async () => {
  const want = expected("kills", "month");
  const mid = want[Math.floor(want.length / 2)]!;
  const me = players.find((m) => m.p.name === mid.name)!;
  const page = await boardJson(t, "/v1/boards/kills?window=month", me.p.auth);
  const rank = want.indexOf(mid) + 1;
  expect(page.me).toHaveLength(1);
  expect(page.me[0]!.rank).toBe(rank);
  expect(page.me[0]!.rows.map((r) => [r.rank, r.name])).toEqual(
    want.slice(Math.max(0, rank - 3), rank + 2).map((x) => [want.indexOf(x) + 1, x.name]),
  );
  expect(page.me[0]!.rows.find((r) => r.you)?.name).toBe(mid.name);
});

test("values over many magnitudes, with crowds of ties: every offset and rank through the groups, buckets and time slots", async () => {
  const W = "week:2030-W01";
  const rnd = rng(7);
  const list = Array.from({ length: 3000 }, (_, i) => {
    const magnitude = rnd.int(12);
    const value = rnd.chance(0.3) ? BigInt(rnd.int(5)) : BigInt(Math.floor(10 ** magnitude * (1 + rnd.next())));
    const sortValue = sortValueOf(value, true);
    return {
      uuid: i.toString(16).padStart(32, "0"),
      profileId: "0".repeat(32),
      value: value.toString(),
      sortValue: sortValue.toString(),
      bucket: bucketOf(sortValue),
      // Ties in time too, within an exact-value bucket's time slots and across them (and the first slot).
      reachedAt: rnd.chance(0.1) ? 1_000 + rnd.int(5) : 1_900_000_000_000 + rnd.int(300) * 1_200_000,
      cuteName: null,
    };
  });
  await insertScoresBulk(t.db, "bulk", W, list);
  await recountBuckets(t.db, "bulk", W);
  const want = [...list].sort(
    (a, b) =>
      Number(BigInt(a.sortValue) - BigInt(b.sortValue)) || a.reachedAt - b.reachedAt || (a.uuid < b.uuid ? -1 : 1),
  );
  for (let offset = 0; offset < 3000; offset += 37) {
    const page = await rankedPage(t.db, "bulk", W, offset, 50);
    expect(page.total).toBe(3000);
    expect(page.rows.map((r) => r.uuid)).toEqual(want.slice(offset, offset + 50).map((r) => r.uuid));
  }
  for (let i = 0; i < 3000; i += 61) expect(await rankOf(t.db, "bulk", W, want[i]! as never)).toBe(i + 1);
});

test("an opt-out takes its scores out of their buckets' and time slots' counts: every rank left agrees with the list", async () => {
  const gone = players[3]!.p;
  await optIn(t, gone, { all: false, groups: [] });
  for (const board of ["kills", "floor-7"])
    for (const windowId of ["week:2026-W47", "month:2026-11", "all"]) {
      const { total, rows: all } = await rankedPage(t.db, board, windowId, 0, 1000);
      expect(total).toBe(all.length);
      expect(all.some((r) => r.uuid === gone.uuid)).toBe(false);
      for (let i = 0; i < all.length; i++) expect(await rankOf(t.db, board, windowId, all[i]!)).toBe(i + 1);
      for (let offset = 0; offset < all.length; offset++)
        expect((await rankedPage(t.db, board, windowId, offset, 2)).rows.map((r) => r.uuid)).toEqual(
          all.slice(offset, offset + 2).map((r) => r.uuid),
        );
    }
});
