// Moving the growth bench's large account between instances (issue 37): the account (300 keys on
// two profiles for 154 days = 92 400 day rows, a session a day per profile, an event every ninth
// day, as bench/growth-fill.ts makes account 1), filled by SQL and left as the jobs leave it (rollups
// closed, days past the horizon collapsed), exported by GET /v1/stats/export and imported by
// POST /v1/stats/import into a fresh instance: rows, bytes, time, peak memory above idle, and
// whether the second instance's export is the first's byte for byte (from its statistics on). On the
// embedded database (on disk, as the binary keeps it) and, with DATABASE_URL, on Postgres. Asserts nothing.
//   bun bench/import.ts            (DATABASE_URL=postgres://... for the Postgres half too)
//   bun bench/import.ts --export-only [--repeat 5]: the export alone, its wall and CPU time each of
//   `--repeat` times (the first after a warm-up) and the start of its statistics' SHA-256 (the same fill and
//   clock give the same file: compare two commits' exports), then stops.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { testApp, type TestApp } from "../test/support/app.ts";
import { postgresUrl } from "../test/support/db.ts";
import { textArray } from "../src/db/array-param.ts";
import { markFor } from "../src/stats/horizons.ts";
import { rebuildDerived } from "../src/stats/import.query.ts";
import { closeDaysPass } from "../src/stats/rollups.ts";
import { retentionPass, sealPass } from "../src/stats/seal.ts";
import { growthKeys } from "./growth-fill.ts";
import { fileEvents } from "../src/stats/import-parse.ts";
import { rowChecks } from "../src/stats/import-checks.ts";
import type { Section } from "../src/stats/import-format.ts";

const TODAY = "2026-06-01";
const DAYS = 154;
const KEYS = growthKeys.slice(0, 300);
const UUID = "1".padStart(32, "0");
const PROFILES = ["p1", "p2"].map((p) => new Bun.CryptoHasher("md5").update(p).digest("hex"));
const INSTALL = new Bun.CryptoHasher("md5").update("install").digest("hex");
const settings = { devSignin: true };
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
/** CPU milliseconds this process spent since `from` (the embedded database runs in it; Postgres does not). */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return Math.round((d.user + d.system) / 1000);
};

async function signIn(t: TestApp) {
  const res = await t.postJson("/v1/auth/dev", { uuid: UUID, name: "Large_Account", zone: "UTC" });
  const { token } = (await res.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  await t.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({
      settingsVersion: 1,
      categories: Object.fromEntries(t.catalogue.categories.map((c) => [c, true])),
    }),
  });
  return auth;
}

/** The large account's history, straight by SQL, then the jobs as the service runs them. */
async function fill(t: TestApp) {
  const sentAt = Date.parse(`${TODAY}T20:00:00Z`);
  await t.db.execute(sql`insert into counter_keys (key, kind, unit, category, first_seen_at)
    select k, kind, unit, category, 0 from unnest(${textArray(KEYS.map((k) => k.key))}::text[], ${textArray(KEYS.map((k) => k.kind))}::text[],
      ${textArray(KEYS.map((k) => k.unit))}::text[], ${textArray(KEYS.map((k) => k.category))}::text[]) as t(k, kind, unit, category)
    on conflict do nothing`);
  await t.db.execute(sql`insert into stat_profiles (uuid, profile_id, cute_name, first_seen_at, last_seen_at)
    select ${UUID}, p, 'Kiwi', ${sentAt - DAYS * 86_400_000}::bigint, ${sentAt}::bigint from unnest(${textArray(PROFILES)}::text[]) p`);
  await t.db.execute(sql`insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
    select ${UUID}, p, k.key, ${TODAY}::date - d, ${INSTALL},
      case k.kind when 'count' then (d * 7 + k.i) % 1000 + 1 when 'gauge' then 1000000 + d * 13 when 'max' then 5000 + (d * k.i) % 977 else 300000 - (d * k.i) % 5000 end,
      case when k.kind = 'gauge' then 999000 + d end, case when k.kind = 'gauge' then 1002000 + d * 13 end,
      ${sentAt}::bigint - d * 86400000::bigint
    from unnest(${textArray(PROFILES)}::text[]) p,
      unnest(${textArray(KEYS.map((k) => k.key))}::text[], ${textArray(KEYS.map((k) => k.kind))}::text[]) with ordinality as k(key, kind, i),
      generate_series(0, ${DAYS - 1}) d`);
  await t.db.execute(sql`insert into sessions (uuid, id, profile_id, install_id, activity, day, started_at, ended_at, gains, costs)
    select ${UUID}, 's' || p || d, p, ${INSTALL}, 'dungeon', ${TODAY}::date - d, ${sentAt}::bigint - d * 86400000::bigint - 1800000, ${sentAt}::bigint - d * 86400000::bigint,
      '[{"k":"loot.item.ITEM_100","v":3}]'::jsonb, '[]'::jsonb
    from unnest(${textArray(PROFILES)}::text[]) p, generate_series(0, ${DAYS - 1}) d`);
  await t.db.execute(sql`insert into timeline_events (uuid, id, profile_id, install_id, kind, day, at, key, value)
    select ${UUID}, 'e' || p || d, p, ${INSTALL}, 'rare_drop', ${TODAY}::date - d, ${sentAt}::bigint - d * 86400000::bigint, 'loot.item.ITEM_100', 1
    from unnest(${textArray(PROFILES)}::text[]) p, generate_series(0, ${DAYS - 1}, 9) d`);
  await t.db.transaction((tx) => rebuildDerived(tx, UUID, markFor("UTC", t.clock.now())));
  await closeDaysPass(t);
  await sealPass(t);
  await retentionPass(t);
}

/**
 * Peak RSS while `work` runs, sampled every 5 ms (the import yields between its batches), and the
 * longest the event loop went without a turn (what a request that needs no database waits at most).
 */
async function peakDuring<T>(
  work: () => Promise<T>,
): Promise<{ value: T; peak: number; idle: number; stallMs: number; heapAbove: number }> {
  Bun.gc(true);
  const idle = process.memoryUsage().rss;
  let peak = idle;
  let last = performance.now();
  let stallMs = 0;
  const heapIdle = process.memoryUsage().heapUsed;
  let heapPeak = heapIdle;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
    peak = Math.max(peak, process.memoryUsage().rss);
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 5);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peak, idle, stallMs: Math.round(stallMs), heapAbove: heapPeak - heapIdle };
  } finally {
    clearInterval(timer);
  }
}

const args = process.argv.slice(2);
const exportOnly = args.includes("--export-only");
const repeat = args.includes("--repeat") ? Number(args[args.indexOf("--repeat") + 1]) : 5;

const statistics = (text: string) => text.slice(text.indexOf(',"profiles":['));

async function measure(backend: "embedded" | "postgres") {
  const dirs = [mkdtempSync(join(tmpdir(), "tally-import-a-")), mkdtempSync(join(tmpdir(), "tally-import-b-"))];
  const options = (dir: string) =>
    backend === "embedded"
      ? { settings, now: `${TODAY}T12:00:00Z`, dataDir: dir, backend }
      : { settings, now: `${TODAY}T12:00:00Z` };
  const source = await testApp(options(dirs[0]!));
  const target = await testApp(options(dirs[1]!));
  try {
    const sourceAuth = await signIn(source);
    await fill(source);
    const get = (t: TestApp, auth: Record<string, string>) =>
      t.request("/v1/stats/export", { headers: auth }).then((r) => r.text());
    await get(source, sourceAuth); // warm
    if (exportOnly) {
      for (let i = 0; i < repeat; i++) {
        const t = performance.now();
        const c = process.cpuUsage();
        const text = await get(source, sourceAuth);
        const ms = Math.round(performance.now() - t);
        const sha = new Bun.CryptoHasher("sha256").update(statistics(text)).digest("hex").slice(0, 16);
        console.log(`${backend} export: ${ms} ms, ${cpuSince(c)} ms CPU, ${text.length} bytes, sha256 ${sha}`);
      }
      return null;
    }
    let t0 = performance.now();
    let cpu = process.cpuUsage();
    const file = await get(source, sourceAuth);
    const exportMs = performance.now() - t0;
    const exportCpuMs = cpuSince(cpu);
    // Counted, not kept: the parsed document held alive made every collection in the runs below slower.
    const dayRows = (JSON.parse(file) as { dayRows: unknown[] }).dayRows.length;
    t0 = performance.now();
    const gz = Bun.gzipSync(new TextEncoder().encode(file));
    const gzipMs = performance.now() - t0;
    // Yardsticks of this machine's speed now (the machine is shared): JSON.parse of the whole file,
    // and the import's check pass alone (gunzip, the streamed reader, every row's checks).
    t0 = performance.now();
    JSON.parse(file);
    const jsonParseMs = performance.now() - t0;
    t0 = performance.now();
    const checks = rowChecks(target.catalogue, target.clock.now(), { maxKeysPerProfile: 10_000, maxProfiles: 100 });
    const limits = { maxBytes: 2 ** 31, maxValueChars: 2 ** 18, maxDepth: 8 };
    const sections = new Set([
      "deviceSessions",
      "profiles",
      "dayRows",
      "backfills",
      "seals",
      "sessions",
      "timelineEvents",
      "mirrorSections",
    ]);
    for await (const e of fileEvents(new Blob([gz]).stream(), limits, (n) => sections.has(n)))
      if (e.kind === "row" && e.section !== "deviceSessions") checks.check(e.section as Section, e.index, e.value);
    const checkPassMs = performance.now() - t0;
    const targetAuth = await signIn(target);
    t0 = performance.now();
    cpu = process.cpuUsage();
    const run = await peakDuring(() =>
      target.request("/v1/stats/import", {
        method: "POST",
        body: gz,
        headers: { ...targetAuth, "content-type": "application/json", "content-encoding": "gzip" },
      }),
    );
    const importMs = performance.now() - t0;
    const importCpuMs = cpuSince(cpu);
    const answer = (await run.value.json()) as Record<string, unknown>;
    const again = await get(target, targetAuth);
    return {
      backend,
      dayRows,
      exportBytes: file.length,
      gzipBytes: gz.byteLength,
      exportMs: Math.round(exportMs),
      exportCpuMs,
      importCpuMs,
      gzipMs: Math.round(gzipMs),
      importMs: Math.round(importMs),
      jsonParseMs: Math.round(jsonParseMs),
      checkPassMs: Math.round(checkPassMs),
      importPeakAboveIdleMiB: mib(run.peak - run.idle),
      longestStallMs: run.stallMs,
      importHeapPeakAboveIdleMiB: mib(run.heapAbove),
      identical: statistics(again) === statistics(file),
      status: run.value.status,
      counts: answer.counts ?? answer,
    };
  } finally {
    await source.close();
    await target.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

const measured = [await measure("embedded")];
if (postgresUrl) measured.push(await measure("postgres"));
else console.error("bench/import.ts: the Postgres half skipped; set DATABASE_URL");
const results = measured.filter((r) => r !== null);
for (const r of results)
  console.log(
    `${r.backend.padEnd(8)} ${r.dayRows} day rows: export ${r.exportMs} ms, ${r.exportCpuMs} ms of this process's CPU (${r.exportBytes} bytes, ${r.gzipBytes} gzip in ${r.gzipMs} ms); ` +
      `import ${r.importMs} ms, ${r.importCpuMs} ms of this process's CPU (${r.status}; its check pass alone ${r.checkPassMs} ms; JSON.parse of the file ${r.jsonParseMs} ms), peak ${r.importPeakAboveIdleMiB} MiB above idle (JS heap ${r.importHeapPeakAboveIdleMiB} MiB), event loop stalled at most ${r.longestStallMs} ms; export again identical: ${r.identical}`,
  );
console.log(JSON.stringify(results, null, 2));
