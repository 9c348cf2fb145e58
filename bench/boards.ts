// Boards (issue 35): a board page (a random page, the viewer's own rank pinned with the players
// around it) at 100 000 ranked players on the embedded database and 1 000 000 on Postgres, filled
// by bulk insert through the boards' own query functions; and the CPU of an upload of an opted-in
// account with boards kept and without (the same run, alternating). Reports; asserts nothing.
//   bun bench/boards.ts [--players 100000] [--runs 300] [--uploads 40]
//   DATABASE_URL=postgres://... bun bench/boards.ts            (1 000 000 by default)
import { testApp } from "../test/support/app.ts";
import { backend } from "../test/support/db.ts";
import { envelope, uploader } from "../test/support/uploads.ts";
import {
  insertScoresBulk,
  recountBuckets,
  scoresOfAccount,
  settleScores,
  type RankedRow,
} from "../src/boards/ranking.query.ts";
import { bucketOf, sortValueOf } from "../src/boards/buckets.ts";
import { boardPage } from "../src/boards/ranking.ts";
import { builtInBoards, parseBoards } from "../src/boards/definitions.ts";
import { refreshBoards, scoresAfterUpload } from "../src/boards/scores.ts";
import { ingest, type IngestDeps } from "../src/stats/ingest.ts";
import { rng } from "../test/support/random.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const players = flag("--players", backend === "postgres" ? 1_000_000 : 100_000);
const runs = flag("--runs", 300);
const uploads = flag("--uploads", 40);
const R = rng(35);

const t = await testApp({ settings: { devSignin: true }, now: "2026-11-18T12:00:00Z" });
const boards = builtInBoards(t.catalogue);
const BOARD = "kills";
const WINDOW = "week:2026-W47";

// Kills in a week: most players few, a long tail many (log-normal), so low values tie in crowds.
const hex = (n: number) => n.toString(16).padStart(32, "0");
let t0 = performance.now();
const CHUNK = 20_000;
for (let from = 0; from < players; from += CHUNK) {
  const list: RankedRow[] = [];
  for (let i = from; i < Math.min(players, from + CHUNK); i++) {
    const normal = Math.sqrt(-2 * Math.log(1 - R.next())) * Math.cos(2 * Math.PI * R.next());
    const value = BigInt(Math.max(1, Math.floor(Math.exp(5 + 2 * normal))));
    const sortValue = sortValueOf(value, true);
    list.push({
      uuid: hex(i + 1),
      profileId: "4f1c2a3b4d5e6f708192a3b4c5d6e7f8",
      value: value.toString(),
      sortValue: sortValue.toString(),
      bucket: bucketOf(sortValue),
      reachedAt: 1_763_000_000_000 + R.int(600_000_000),
      cuteName: "Mango",
    });
  }
  await insertScoresBulk(t.db, BOARD, WINDOW, list);
}
await recountBuckets(t.db, BOARD, WINDOW);
// Postgres's autovacuum would do this amid the timings; the embedded database never vacuums.
if (backend === "postgres") await settleScores(t.db);
const fillMs = performance.now() - t0;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const deps = { db: t.db, clock: t.clock, boards };
const pages = Math.ceil(players / 100);
/** Wall and CPU times (this process's: on the embedded database, the database's too) of `runs` calls. */
const timed = async (what: () => Promise<unknown>) => {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 20; i++) await what(); // warm up
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const s = performance.now();
    await what();
    wall.push(performance.now() - s);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall, cpu };
};
const viewer = () => ({ uuid: hex(1 + R.int(players)), name: "Bench", zone: "Europe/Berlin" });
// The same run's baseline: one score read by its primary key (what the machine's load does to a statement).
const baseline = await timed(() => scoresOfAccount(t.db, BOARD, WINDOW, hex(1 + R.int(players))));
const randomPage = await timed(() =>
  boardPage(deps, BOARD, { window: "week", at: "2026-W47", page: 1 + R.int(pages) }, null),
);
const pinned = await timed(() =>
  boardPage(deps, BOARD, { window: "week", at: "2026-W47", page: 1 + R.int(pages) }, viewer()),
);
const lastPage = await timed(() => boardPage(deps, BOARD, { window: "week", at: "2026-W47", page: pages }, viewer()));

// Ingest CPU: one opted-in account's uploads of 600 rows (30 kill islands, 8 floors, 400 loot items,
// the rest keys of no board), with the boards kept after each (the app's hook) and without.
const p = await uploader(t, { name: "Bench_Upload" });
await t.request("/v1/boards/membership", {
  method: "PUT",
  headers: { ...p.auth, "content-type": "application/json" },
  body: JSON.stringify({ all: true, groups: [] }),
});
const keys = [
  ...Array.from({ length: 30 }, (_, i) => `kills.island.island_${i}`),
  ...Array.from({ length: 8 }, (_, i) => `dungeon.best_split.F${i}.finish`),
  ...Array.from({ length: 400 }, (_, i) => `loot.item.ITEM_${i}`),
  ...Array.from({ length: 162 }, (_, i) => `mining.ore.ore_${i}`),
];
const base = {
  db: t.db,
  clock: t.clock,
  log: t.log,
  catalogue: t.catalogue,
  config: t.config,
  pins: new Map() as IngestDeps["pins"],
};
const withBoards = {
  ...base,
  afterUpload: (u: Parameters<typeof scoresAfterUpload>[1]) => scoresAfterUpload({ ...base, boards }, u),
};
// BOARDS_REFRESH_MS > 0: the upload notes its scores; the refresh moves them (timed on its own).
const noted = {
  ...base,
  afterUpload: (u: Parameters<typeof scoresAfterUpload>[1]) =>
    scoresAfterUpload({ ...base, boards, refreshMs: 5000 }, u),
};
const noBoards = parseBoards({ boards: [] }, t.catalogue, "(none)");
const without = {
  ...base,
  afterUpload: (u: Parameters<typeof scoresAfterUpload>[1]) => scoresAfterUpload({ ...base, boards: noBoards }, u),
};
const cpu = { with: [] as number[], without: [] as number[], noted: [] as number[], refresh: [] as number[] };
const wall = { with: [] as number[], without: [] as number[], noted: [] as number[], refresh: [] as number[] };
for (let i = 0; i < uploads * 3 + 6; i++) {
  const which = (["with", "without", "noted"] as const)[i % 3]!;
  t.clock.advance(1000);
  const env = envelope(t, {
    counters: [
      {
        profileId: "4f1c2a3b4d5e6f708192a3b4c5d6e7f8",
        scope: "day",
        day: "2026-11-18",
        rows: keys.map((k, j) => ({ k, v: i * 10 + j + 1 })),
      },
    ],
  });
  const c = process.cpuUsage();
  const s = performance.now();
  await ingest(which === "with" ? withBoards : which === "noted" ? noted : without, p.uuid, env);
  const used = process.cpuUsage(c);
  const took = performance.now() - s;
  // The refresh that moves a noted upload's scores, off the upload's path.
  const rc = process.cpuUsage();
  const rs = performance.now();
  if (which === "noted") await refreshBoards({ ...base, boards, refreshMs: 5000 });
  const refreshUsed = process.cpuUsage(rc);
  if (i < 6) continue; // warm-up
  cpu[which].push((used.user + used.system) / 1000);
  wall[which].push(took);
  if (which === "noted") {
    cpu.refresh.push((refreshUsed.user + refreshUsed.system) / 1000);
    wall.refresh.push(performance.now() - rs);
  }
}
await t.close();

const f = (x: number) => x.toFixed(2);
console.log(
  `bench/boards.ts on ${backend}: ${players.toLocaleString("en-GB")} ranked players (filled in ${(fillMs / 1000).toFixed(1)} s), ${runs} runs each`,
);
console.log("| what | p50 ms | p99 ms | CPU p50 ms |");
console.log("| --- | ---: | ---: | ---: |");
const row = (what: string, x: { wall: number[]; cpu: number[] }) =>
  console.log(`| ${what} | ${f(pct(x.wall, 0.5))} | ${f(pct(x.wall, 0.99))} | ${f(pct(x.cpu, 0.5))} |`);
row("baseline: one score by its primary key", baseline);
row("board page, random page, nobody signed in", randomPage);
row("board page, random page, own rank pinned (random player)", pinned);
row("board page, last page, own rank pinned", lastPage);
console.log("");
console.log("| upload of 600 rows, opted in | CPU p50 ms | CPU p99 ms | wall p50 ms | wall p99 ms |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const [what, on] of [
  ["boards kept in the upload (BOARDS_REFRESH_MS=0)", "with"],
  ["scores noted by the upload (BOARDS_REFRESH_MS>0)", "noted"],
  ["no boards", "without"],
  ["the refresh of one noted upload (off the upload's path)", "refresh"],
] as const)
  console.log(
    `| ${what} | ${f(pct(cpu[on], 0.5))} | ${f(pct(cpu[on], 0.99))} | ${f(pct(wall[on], 0.5))} | ${f(pct(wall[on], 0.99))} |`,
  );
