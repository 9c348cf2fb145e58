// One account with many distinct keys (issue 22: keys such as loot.item.<ITEM_ID> are open-ended):
// at each size, an upload of that many new keys (two days of rows, one upload), an upload of the
// same keys again (values changed), the findable page /u/<name> (server time, bytes, charts) and
// whether the health check answers while the page renders. In-process, on Postgres when
// DATABASE_URL is set, else the embedded database. Reports a table and JSON; asserts nothing.
//   bun bench/keys.ts [--keys 500,2000,10000] [--runs 5] [--days 2] [--warm]
// `--days`: the day blocks of each upload (today and the days before it); 1 is the mod's live upload.
// `--warm`: another account first uploads as many other new keys, so the timed upload runs on
// compiled code as in a service that has taken uploads before (without: the first upload after start).
// The embedded database is in a folder on disk, as the binary keeps it (`--memory`: in memory).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testApp } from "../test/support/app.ts";
import { backend } from "../test/support/db.ts";
import { envelope, uploader, PROFILE } from "../test/support/uploads.ts";
import { addDays, dayIn } from "../src/wire/day.ts";

const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const sizes = (arg("--keys") ?? "500,2000,10000").split(",").map(Number);
const runs = Number(arg("--runs")) || 5;
const days = Number(arg("--days")) || 2;
const inMemory = args.includes("--memory");
const warm = args.includes("--warm");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

type Row = {
  keys: number;
  uploadNewMs: number;
  uploadNewCpuMs: number;
  uploadAgainMs: number;
  uploadAgainCpuMs: number;
  pageP50Ms: number;
  pageCpuP50Ms: number;
  pageBytes: number;
  charts: number;
  healthDuringPageMs: number;
  cachedPageP50Ms: number;
};
const rows: Row[] = [];

for (const n of sizes) {
  const dataDir = inMemory ? undefined : mkdtempSync(join(tmpdir(), "tally-keys-"));
  const t = await testApp({
    settings: { devSignin: true, statsMaxKeysPerProfile: Math.max(n, 10_000), pageRateLimit: 0 },
    now: "2026-06-01T12:00:00Z",
    dataDir,
  });
  const name = `Keys_${n}`;
  const player = await uploader(t, { name, zone: "UTC" });
  const current = (await (await t.request("/v1/stats/settings", { headers: player.auth })).json()) as {
    settingsVersion: number;
  };
  await t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...player.auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: current.settingsVersion, findable: true }),
  });
  const today = dayIn("UTC", t.clock.now());
  const keys = Array.from({ length: n }, (_, i) => `loot.item.BENCH_${String(i).padStart(5, "0")}`);
  const upload = (bump: number, of = keys) =>
    envelope(t, {
      zone: { id: "UTC" },
      counters: Array.from({ length: days }, (_, d) => addDays(today, d + 1 - days)).map((day, d) => ({
        profileId: PROFILE,
        scope: "day" as const,
        day,
        rows: of.map((k, i) => ({ k, v: 1 + ((i * 7 + d + bump) % 50) })),
      })),
    });
  // CPU time of the process (the embedded database runs in it too): on a loaded machine, wall time
  // says more about the neighbours than about the upload.
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const timed = async (env: unknown) => {
    const s = performance.now();
    const c = cpuMs();
    const res = await player.send(env, { gzip: true });
    const ms = performance.now() - s;
    if (res.status !== 200) throw new Error(`upload of ${n} keys: ${res.status} ${await res.text()}`);
    return { ms, cpu: cpuMs() - c };
  };
  if (warm) {
    const other = await uploader(t, { name: `Warm_${n}`, zone: "UTC" });
    const res = await other.send(
      upload(
        0,
        keys.map((k) => k.replace("BENCH", "WARM")),
      ),
      { gzip: true },
    );
    if (res.status !== 200) throw new Error(`warm-up upload: ${res.status}`);
  }
  const uploadNew = await timed(upload(0));
  const uploadAgain = await timed(upload(1));

  const path = `/u/${name}`;
  // Each run asks for a page no cache holds: a fresh upload (one row) before each timed run.
  const pageTimes: number[] = [];
  const pageCpu: number[] = [];
  let html = "";
  for (let i = 0; i < runs; i++) {
    t.clock.advance(1000); // a later upload: the kept copy no longer answers
    await player.send(
      envelope(t, {
        zone: { id: "UTC" },
        counters: [{ profileId: PROFILE, scope: "day", day: today, rows: [{ k: keys[0]!, v: 100 + i }] }],
      }),
    );
    const s = performance.now();
    const c = cpuMs();
    const res = await t.request(path);
    html = await res.text();
    pageTimes.push(performance.now() - s);
    pageCpu.push(cpuMs() - c);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  }
  // Health while the page renders: both started at once; how long health waited.
  t.clock.advance(1000);
  await player.send(
    envelope(t, {
      zone: { id: "UTC" },
      counters: [{ profileId: PROFILE, scope: "day", day: today, rows: [{ k: keys[1]!, v: 999 }] }],
    }),
  );
  const pageDone = t.request(path).then((r) => r.text());
  const h0 = performance.now();
  await t.request("/v1/health");
  const healthDuringPageMs = performance.now() - h0;
  await pageDone;
  const cached: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await (await t.request(path)).text();
    cached.push(performance.now() - s);
  }
  rows.push({
    keys: n,
    uploadNewMs: r1(uploadNew.ms),
    uploadNewCpuMs: r1(uploadNew.cpu),
    uploadAgainMs: r1(uploadAgain.ms),
    uploadAgainCpuMs: r1(uploadAgain.cpu),
    pageP50Ms: r1(median(pageTimes)),
    pageCpuP50Ms: r1(median(pageCpu)),
    pageBytes: new TextEncoder().encode(html).length,
    charts: (html.match(/<svg /g) ?? []).length,
    healthDuringPageMs: r1(healthDuringPageMs),
    cachedPageP50Ms: r1(median(cached)),
  });
  console.log(JSON.stringify(rows.at(-1)));
  await t.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

console.log(`keys on the ${backend} database: one account, ${days} day(s) of rows per key, ${runs} page runs\n`);
console.log("(wall ms / process CPU ms)");
console.log(
  `${"keys".padStart(6)} ${"upload new".padStart(17)} ${"upload again".padStart(17)} ${"page p50".padStart(15)} ${"bytes".padStart(9)} ${"charts".padStart(6)} ${"health wait".padStart(12)} ${"cached p50".padStart(11)}`,
);
for (const r of rows)
  console.log(
    `${String(r.keys).padStart(6)} ${`${r.uploadNewMs} / ${r.uploadNewCpuMs}`.padStart(17)} ${`${r.uploadAgainMs} / ${r.uploadAgainCpuMs}`.padStart(17)} ${`${r.pageP50Ms} / ${r.pageCpuP50Ms}`.padStart(15)} ${String(r.pageBytes).padStart(9)} ${String(r.charts).padStart(6)} ${(r.healthDuringPageMs + " ms").padStart(12)} ${(r.cachedPageP50Ms + " ms").padStart(11)}`,
  );
console.log("\n" + JSON.stringify({ bench: "keys", backend, runs, rows }));
