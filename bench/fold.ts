// Fold reads and lifecycle passes on one big profile: 365 days x 500 keys x 2 installs. Reports
// p50 of all lifetime totals and of one key's 365-day series, and seal and retention throughput,
// on the database under test (Postgres when DATABASE_URL is set, else embedded). Asserts nothing.
//   bun bench/fold.ts [--runs 30]
import { sql } from "drizzle-orm";
import { testDatabase, backend } from "../test/support/db.ts";
import { loadCatalogue } from "../src/catalogue/load.ts";
import { fakeClock } from "../src/clock.ts";
import { keysWithLifetime, series } from "../src/stats/fold.ts";
import { retentionPass, sealPass } from "../src/stats/seal.ts";
import { ingest } from "../src/stats/ingest.ts";
import { closeDaysPass } from "../src/stats/rollups.ts";
import { createLog } from "../src/log.ts";
import { addDays } from "../src/wire/day.ts";

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1]) || 30;
const uuid = "f".repeat(32);
const profile = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
const database = await testDatabase();
const db = database.db;
const catalogue = await loadCatalogue("");
const clock = fakeClock("2026-06-30T12:00:00Z");

const t0 = performance.now();
await db.execute(sql`insert into accounts (uuid, name, zone, created_at, retention_days, consented, settings_version)
  values (${uuid}, 'Bench', 'UTC', 0, 120, '{gathering}', 2)`);
// Loaded through ingest itself (one upload per install and day), so the rollups are kept as in use.
const ingestDeps = {
  db,
  clock,
  log: createLog({ level: "error" }),
  catalogue,
  config: {
    ingestMaxRows: 50_000,
    clockSkewWarnMs: 86_400_000_000,
    statsMaxKeysPerProfile: 10_000,
    statsMaxProfilesPerAccount: 100,
    privacyUnknownWords: true,
  },
  pins: new Map(),
};
const kinds = ["gauge", "max", "count", "count", "count", "count", "count", "count", "count", "count"] as const;
for (let d = 0; d < 365; d++) {
  const day = addDays("2025-07-01", d);
  clock.set(`${day}T12:00:05Z`); // each day is uploaded on that day, while it is writable
  for (const [i, install] of ["a".repeat(32), "b".repeat(32)].entries()) {
    await ingest(ingestDeps, uuid, {
      schema: 1,
      batchId: (d * 2 + i + 1).toString(16).padStart(32, "0"),
      sentAt: Date.parse(`${day}T12:00:00Z`) + i,
      mode: "live",
      client: { install, modVersion: "bench", minecraft: "1.21.4", catalogue: catalogue.version },
      zone: { id: "UTC" },
      settingsVersion: 2,
      profile: { id: profile, cuteName: "Kiwi" },
      categories: ["gathering"],
      counters: [
        {
          profileId: profile,
          scope: "day",
          day,
          rows: Array.from({ length: 500 }, (_, k) => ({ k: `mining.bench.k${k}`, v: d * 10 + k, m: kinds[k % 10]! })),
        },
      ],
    });
  }
  await closeDaysPass({ db, clock }); // as the stats.rollups job does, every 10 minutes
}
clock.set("2026-06-30T12:00:00Z");
// The stats.rollups job (every 10 min in service) has closed every day but today and yesterday.
await closeDaysPass({ db, clock });
const loadSeconds = (performance.now() - t0) / 1000;
if (backend === "postgres") await db.execute(sql`analyze counter_days`);

async function p50(fn: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn();
    times.push(performance.now() - s);
  }
  return Math.round([...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]! * 10) / 10;
}

const deps = { db, catalogue };
const keys = await keysWithLifetime(deps, uuid, profile);
if (keys.length !== 500) throw new Error(`expected 500 keys, got ${keys.length}`);
const lifetimeMs = await p50(() => keysWithLifetime(deps, uuid, profile));
const seriesMs = await p50(() => series(deps, uuid, profile, "mining.bench.k7", "2025-07-01", "2026-06-30"));

const rowsBefore = 365 * 500 * 2;
let s = performance.now();
const sealed = await sealPass({ db, clock });
const sealSeconds = (performance.now() - s) / 1000;
s = performance.now();
const retained = await retentionPass({ db, clock });
const retentionSeconds = (performance.now() - s) / 1000;
await database.close();

const rows = [
  { what: "all lifetime totals (500 keys)", p50Ms: lifetimeMs },
  { what: "one key's 365-day series", p50Ms: seriesMs },
];
console.log(
  `fold on the ${backend} database: 365 days x 500 keys x 2 installs = ${rowsBefore} day rows (ingested in ${loadSeconds.toFixed(1)} s: ${Math.round(rowsBefore / loadSeconds)} rows/s)\n`,
);
for (const r of rows) console.log(`${r.what.padEnd(34)} p50 ${r.p50Ms} ms`);
console.log(
  `seal pass       ${sealed.rowsRemoved} rows collapsed in ${sealSeconds.toFixed(2)} s: ${Math.round(sealed.rowsRemoved / sealSeconds)} rows/s`,
);
console.log(
  `retention pass  ${retained.rowsRemoved} rows folded and deleted in ${retentionSeconds.toFixed(2)} s: ${Math.round(retained.rowsRemoved / retentionSeconds)} rows/s`,
);
console.log(
  "\n" +
    JSON.stringify({
      bench: "fold",
      backend,
      dayRows: rowsBefore,
      lifetimeP50Ms: lifetimeMs,
      seriesP50Ms: seriesMs,
      sealRowsPerSec: Math.round(sealed.rowsRemoved / sealSeconds),
      retentionRowsPerSec: Math.round(retained.rowsRemoved / retentionSeconds),
    }),
);
