// The item list (issue 34) at the real list's size: the refresh (fetch from a local server, parse,
// check, store), an instance's load of the stored names into its Map, a label's look-up, and the
// heap the names take. The body is the recorded real list's items (test/support/recorded/hypixel/
// skyblock-items.json, values verbatim) repeated under numbered ids to --items entries (the real
// list held about 4 700 in 2025), with the skin texture of a real item on every one, so the bytes
// per item are the real list's. On Postgres when DATABASE_URL is set, else the embedded database.
// Reports; asserts nothing.
//   bun bench/items.ts [--items 5000]
import { testApp, loopbackFetch } from "../test/support/app.ts";
import { recordedItemList } from "../test/support/recorded.ts";
import { backend } from "../test/support/db.ts";
import { itemNames, refreshItemList } from "../src/items/item-names.ts";
import { describeKey } from "../src/stats/fold.ts";

const args = process.argv.slice(2);
const count = Number(args[args.indexOf("--items") + 1]) || 5000;
const recorded = recordedItemList().items as Record<string, unknown>[];
// A real skin value's length (the first recorded item's skin, ~700 characters, and its ~690-character signature).
const skin = { value: "e".repeat(700), signature: "s".repeat(690) };
const items = Array.from({ length: count }, (_, i) => {
  const r = recorded[i % recorded.length]!;
  return { ...r, skin, id: `${r.id as string}_${i}` };
});
const body = JSON.stringify({ success: true, lastUpdated: 1750689718432, items });
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
});
const t = await testApp({
  settings: { gameApiUrl: `http://127.0.0.1:${server.port}`, itemNamesReloadMs: 0 },
  fetch: loopbackFetch,
});
const deps = { ...t, log: t.log };

const refreshMs: number[] = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  const done = await refreshItemList(deps, { force: true });
  refreshMs.push(performance.now() - started);
  if (done.items !== count) throw new Error(`stored ${done.items} of ${count}`);
}
Bun.gc(true);
const heapBefore = process.memoryUsage().heapUsed;
const names = itemNames(t);
const loadMs: number[] = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  await names.current();
  loadMs.push(performance.now() - started);
}
Bun.gc(true);
const heapAfter = process.memoryUsage().heapUsed;
const lookups = 1_000_000;
let found = 0;
const started = performance.now();
for (let i = 0; i < lookups; i++)
  if (names.itemName(`${recorded[i % recorded.length]!.id as string}_${i % count}`)) found++;
const lookupNs = ((performance.now() - started) * 1e6) / lookups;
const labelStarted = performance.now();
for (let i = 0; i < 100_000; i++) describeKey(t.catalogue, `loot.item.MANDRAA_${i % count}`, names);
const labelNs = ((performance.now() - labelStarted) * 1e6) / 100_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const report = {
  backend,
  items: count,
  bodyBytes: body.length,
  refreshMsMedian: Math.round(median(refreshMs)),
  refreshMsMax: Math.round(Math.max(...refreshMs)),
  loadMsMedian: Math.round(median(loadMs)),
  namesHeldBytes: heapAfter - heapBefore,
  lookupNs: Math.round(lookupNs),
  labelNs: Math.round(labelNs),
  found,
};
console.log(JSON.stringify(report, null, 2));
await t.close();
server.stop(true);
