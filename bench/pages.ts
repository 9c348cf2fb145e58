// The statistics page /u/<name> with a year of data: server render time p50 (in-process, request
// in, bytes out) and page weight with all its assets (the HTML and the one stylesheet; the page
// loads nothing else), plain and as transferred with gzip. On Postgres when DATABASE_URL is set,
// else the embedded database. Reports a table and JSON; asserts nothing.
//   bun bench/pages.ts [--runs 50]
import { lifetimeMemo } from "../src/stats/lifetime-memo.ts";
import { workGate } from "../src/http/work-gate.ts";
import { pageParams } from "../src/web/page-params.ts";
import { sql } from "drizzle-orm";
import { rows } from "../src/db/database.ts";
import { testApp } from "../test/support/app.ts";
import { backend } from "../test/support/db.ts";
import { fixtureCatalogue } from "../test/support/fixtures.ts";
import { accountByName } from "../src/accounts/accounts.ts";
import { profileHandle } from "../src/web/stats-page.ts";
import { statsView } from "../src/web/stats-reads.ts";
import { StatsPage } from "../src/web/stats-view.tsx";
import { closeDaysPass } from "../src/stats/rollups.ts";

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1]) || 50;
const uuid = "e".repeat(32);
const profile = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
const account = "0".repeat(32);
const name = "Bench_Player";

// Every run renders: no kept copy of the page, no rate limit.
const t = await testApp({
  settings: { catalogueFile: fixtureCatalogue, pageCacheTtlMs: 0, pageRateLimit: 0 },
  now: "2026-06-30T12:00:00Z",
});
const db = t.db;

// 40 profile keys of every kind and unit, plus the account's playtime: 365 days, 2 installs.
const keys = [
  ...Array.from({ length: 12 }, (_, i) => ({
    key: `loot.item.BENCH_ITEM_${i}`,
    kind: "count",
    unit: "count",
    category: "combat",
  })),
  ...Array.from({ length: 10 }, (_, i) => ({
    key: `kills.island.island_${i}`,
    kind: "count",
    unit: "count",
    category: "combat",
  })),
  ...Array.from({ length: 8 }, (_, i) => ({
    key: `mining.bench.ore_${i}`,
    kind: "count",
    unit: "count",
    category: "gathering",
  })),
  ...Array.from({ length: 5 }, (_, i) => ({
    key: `dungeon.best_split.F${i + 1}.finish`,
    kind: "min",
    unit: "ms",
    category: "combat",
  })),
  ...Array.from({ length: 4 }, (_, i) => ({
    key: `farming.bench.purse_${i}`,
    kind: "gauge",
    unit: "coins",
    category: "gathering",
  })),
  { key: "kills.best.hit", kind: "max", unit: "count", category: "combat" },
];
const t0 = performance.now();
await db.execute(
  sql`insert into accounts (uuid, name, zone, created_at, retention_days, findable, consented) values (${uuid}, ${name}, 'UTC', 0, 730, true, '{combat,gathering,service}')`,
);
await db.execute(
  sql`insert into stat_profiles (uuid, profile_id, cute_name, first_seen_at, last_seen_at) values (${uuid}, ${profile}, 'Pomegranate', 0, 1)`,
);
for (const k of [...keys, { key: "tally.playtime.total", kind: "count", unit: "ms", category: "service" }]) {
  await db.execute(
    sql`insert into counter_keys (key, kind, unit, category, first_seen_at) values (${k.key}, ${k.kind}, ${k.unit}, ${k.category}, 0) on conflict do nothing`,
  );
}
for (const install of ["a".repeat(32), "b".repeat(32)]) {
  // Every key on most days; every seventh day is a day off (a gap in every chart).
  await db.execute(sql`insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
    select ${uuid}, ${profile}, k.key, date '2025-07-01' + d, ${install},
      case when k.kind = 'min' then 300000 - d * 100 + n when k.kind = 'gauge' then 1000000 + d * 1000 else d * 10 + n end,
      case when k.kind = 'gauge' then 1000000 + d * 900 end, case when k.kind = 'gauge' then 1000000 + d * 1100 end, d
    from generate_series(0, 364) as d, (select key, kind, row_number() over (order by key) as n from counter_keys where key <> 'tally.playtime.total') as k
    where d % 7 <> 3`);
  await db.execute(sql`insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
    select ${uuid}, ${account}, 'tally.playtime.total', date '2025-07-01' + d, ${install}, 3600000 + d * 1000, null, null, d
    from generate_series(0, 364) as d where d % 7 <> 3`);
  await db.execute(sql`insert into counter_backfills (uuid, profile_id, key, install_id, day, value, sent_at)
    select ${uuid}, ${profile}, key, ${install}, date '2025-06-30', 50000, 0 from counter_keys where kind = 'count' and key <> 'tally.playtime.total'`);
}
for (let i = 0; i < 30; i++) {
  const at = Date.parse("2026-06-01T18:00:00Z") + i * 3_600_000;
  await db.execute(sql`insert into sessions (uuid, id, profile_id, install_id, activity, day, started_at, ended_at, gains, costs)
    values (${uuid}, ${"s" + i}, ${profile}, ${"a".repeat(32)}, 'dungeon', '2026-06-01', ${at}, ${at + 1_500_000}, ${JSON.stringify([{ k: "loot.item.BENCH_ITEM_1", v: 3 }])}::jsonb, ${JSON.stringify([{ k: "farming.bench.purse_0", v: 50000 }])}::jsonb)`);
  await db.execute(sql`insert into timeline_events (uuid, id, profile_id, install_id, kind, day, at, key, value)
    values (${uuid}, ${"e" + i}, ${profile}, ${"a".repeat(32)}, ${i % 3 ? "rare_drop" : "found_a_secret_room"}, '2026-06-01', ${at}, 'loot.item.BENCH_ITEM_2', 1)`);
}
// Rows were written directly, so close them into the rollups as the stats.rollups job does.
await closeDaysPass({ db, clock: t.clock });
if (backend === "postgres") await db.execute(sql`analyze`);
const [{ n: dayRows }] = (await rows<{ n: number }>(db, sql`select count(*)::int as n from counter_days`)) as [
  { n: number },
];
const loadSeconds = (performance.now() - t0) / 1000;

/**
 * Counts the statements the app sends: the driver's one entry point (postgres.js `unsafe`, PGlite
 * `query`) behind drizzle's session. A transaction's own client is not counted; a page read opens
 * one only to rebuild stale rollups, and the bench has none.
 */
let statements = 0;
const session = (db as unknown as { session: { client: Record<string, unknown> } }).session;
session.client = new Proxy(session.client, {
  get(target, prop, receiver) {
    const value = Reflect.get(target, prop, receiver);
    if ((prop === "unsafe" || prop === "query") && typeof value === "function") {
      return (...args: unknown[]) => (statements++, (value as (...a: unknown[]) => unknown).apply(target, args));
    }
    // Every other method on the client itself (PGlite's transaction reads its private fields).
    return typeof value === "function" ? value.bind(target) : value;
  },
});
async function statementsOf(path: string) {
  const before = statements;
  if ((await t.request(path)).status !== 200) throw new Error(path);
  return statements - before;
}

async function p50(path: string) {
  return p50Of(async () => {
    const res = await t.request(path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return res.text();
  });
}

async function p50Of(once: () => unknown) {
  for (let i = 0; i < 5; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await once();
    times.push(performance.now() - s);
  }
  return Math.round([...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]! * 10) / 10;
}

/** Bytes of the page and of every asset it links (plain), and as a browser accepting gzip gets them. */
async function weight(path: string) {
  const html = await (await t.request(path)).text();
  const assets = [...html.matchAll(/<(?:link|img|script)\b[^>]*\b(?:href|src)="(\/[^"]*)"/g)].map((m) => m[1]!);
  let plain = new TextEncoder().encode(html).length;
  let transferred = (await (await t.request(path, { headers: { "accept-encoding": "gzip" } })).arrayBuffer())
    .byteLength;
  for (const a of assets) {
    plain += (await (await t.request(a)).arrayBuffer()).byteLength;
    transferred += (await (await t.request(a, { headers: { "accept-encoding": "gzip" } })).arrayBuffer()).byteLength;
  }
  return { plain, transferred, requests: 1 + assets.length, charts: (html.match(/<svg /g) ?? []).length };
}

const page = `/u/${name}`;
const pages = [
  { what: "/u/<name>, 90-day charts (default)", path: page },
  { what: "/u/<name>, 365-day charts", path: `${page}?range=365` },
].map((r) => ({ ...r, p50Ms: 0, statements: 0, ...{ plain: 0, transferred: 0, requests: 0, charts: 0 } }));
for (const r of pages)
  Object.assign(r, { p50Ms: await p50(r.path), statements: await statementsOf(r.path) }, await weight(r.path));
// Where the time goes: the page's reads (fold totals, per-day values, sessions, timeline) and
// turning the read data into HTML.
const owner = (await accountByName(db, name))!;
const readView = () =>
  statsView(
    // No lifetime figures kept between reads: each read here is a page's first.
    {
      db,
      clock: t.clock,
      catalogue: t.catalogue,
      config: t.config,
      lifetimes: lifetimeMemo({ maxFigures: 0, ttlMs: 0, clock: t.clock }),
      renders: workGate({ atOnce: 0, queue: 0 }),
    },
    owner,
    pageParams(new URL(`http://bench${page}`)),
    {
      title: name,
      heading: name,
      path: page,
      noindex: false,
    },
    profileHandle(`tally page ${owner.uuid}`),
  );
const readsMs = await p50Of(readView);
const view = await readView();
const renderMs = await p50Of(() => StatsPage(view));
await t.close();

console.log(
  `pages on the ${backend} database: ${keys.length} keys + playtime, 365 days, 2 installs = ${dayRows} day rows (loaded in ${loadSeconds.toFixed(1)} s), ${runs} runs\n`,
);
console.log(
  `${"page".padEnd(38)} ${"render p50".padStart(11)} statements ${"bytes".padStart(9)} ${"gzip".padStart(8)} requests charts`,
);
for (const r of pages)
  console.log(
    `${r.what.padEnd(38)} ${(r.p50Ms + " ms").padStart(11)} ${String(r.statements).padStart(10)} ${String(r.plain).padStart(9)} ${String(r.transferred).padStart(8)} ${String(r.requests).padStart(8)} ${String(r.charts).padStart(6)}`,
  );
console.log(
  `\nof the default page: reads (fold totals, per-day values, sessions, timeline) p50 ${readsMs} ms, HTML from the read data p50 ${renderMs} ms`,
);
console.log(
  "\n" +
    JSON.stringify({
      bench: "pages",
      backend,
      dayRows,
      runs,
      readsP50Ms: readsMs,
      htmlP50Ms: renderMs,
      pages: pages.map(({ what: _, ...r }) => r),
    }),
);
