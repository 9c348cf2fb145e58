// Boundary: state a stranger can make one process hold (issue 22, finding 9). The ingest's memo of
// key pins grew with every key any upload ever named (keys such as loot.item.<ITEM_ID> are
// open-ended); it now keeps at most PINS_KEPT, forgetting the least recently learned first, and
// a forgotten pin is read again from the database (pins never change once written).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { BoundedMap, PINS_KEPT } from "../../src/stats/pins-memo.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE } from "../support/uploads.ts";

setDefaultTimeout(60_000);

test("the memo keeps at most its bound, the most recent entries, however many keys arrive", () => {
  const memo = new BoundedMap<string, number>(1000);
  for (let i = 0; i < 5000; i++) memo.set(`loot.item.ITEM_${i}`, i);
  expect(memo.size).toBe(1000);
  expect(memo.has("loot.item.ITEM_0")).toBe(false);
  expect(memo.get("loot.item.ITEM_4999")).toBe(4999);
  // Setting a key again makes it the most recent.
  memo.set("loot.item.ITEM_4000", 1);
  for (let i = 5000; i < 5999; i++) memo.set(`loot.item.ITEM_${i}`, i);
  expect(memo.get("loot.item.ITEM_4000")).toBe(1);
  expect(PINS_KEPT).toBeGreaterThanOrEqual(10_000);
});

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true } });
});
afterAll(() => t.close());

test("pins through the memo: a later upload declaring another kind for a pinned key is warned", async () => {
  const u = await uploader(t);
  const day = new Date(t.clock.now()).toISOString().slice(0, 10);
  const rows = (n: number, m?: "count" | "max") =>
    Array.from({ length: n }, (_, i) => ({ k: `mining.block.B_${i}`, v: i + 1, ...(m ? { m } : {}) }));
  expect(
    (
      await u.send(envelope(t, { counters: [{ profileId: PROFILE, scope: "day", day, rows: rows(10, "count") }] }), {
        gzip: true,
      })
    ).status,
  ).toBe(200);
  const again = await u.send(
    envelope(t, { counters: [{ profileId: PROFILE, scope: "day", day, rows: rows(1, "max") }] }),
    { gzip: true },
  );
  const answer = (await again.json()) as { warnings: { code: string; key?: string }[] };
  expect(answer.warnings.map((w) => w.key)).toContain("mining.block.B_0");
});
