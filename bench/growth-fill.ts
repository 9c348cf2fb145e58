// The growth benchmark's fixture: a Postgres database filled with realistic history straight by SQL
// (generate_series, not through the endpoint), kept as a TEMPLATE database `tally_growth_<size>`
// and reused across runs; each measurement that writes works on a copy (`create database ... template`).
//
// What it holds, through the module's tables as the migrations define them: `accounts` accounts in three
// zones (a quarter on 120-day retention, the rest 730), 1 or 2 profiles and 1 to 3 installs each,
// 130 days ending today (each account plays on about 6 days in 10, a second install on every fifth
// day), the account's keys out of 600 (count, min, max and gauge keys, named as the catalogue's
// patterns and keys name them), backfill baselines for every fifth account, a session a playing day,
// a timeline event every ninth day, and the last 10 days' uploads (ingest_batches). Account 1 is the
// large one: 300 keys on both profiles every day. After the rows, the jobs run as the service would
// have run them yesterday (rollups, seal, retention, with the module's own functions), from the
// marks an account's uploads would have left (counter_marks), so the
// template holds closed and open days, collapsed days and retention seals, and one day of each is due
// when a measurement runs today.
import postgres from "postgres";
import { connectPostgres } from "../src/db/connect-postgres.ts";
import { migrate } from "../src/db/migrate.ts";
import { fakeClock } from "../src/clock.ts";
import { closeDaysPass } from "../src/stats/rollups.ts";
import { retentionPass, sealPass } from "../src/stats/seal.ts";
import { addDays } from "../src/wire/day.ts";
import { databaseUrlFor } from "../test/support/db.ts";

export const DAYS = 130;
/** Accounts whose day rows one statement of the fill inserts. */
const FILL_ACCOUNTS = 250;
const ZONES = ["UTC", "Europe/Berlin", "America/New_York"];

/** 600 keys of the four kinds, named as the catalogue's patterns and keys are. */
export const growthKeys: { key: string; kind: string; unit: string; category: string }[] = [
  { key: "farming.purse.coins", kind: "gauge", unit: "coins", category: "gathering" },
  { key: "kills.best.hit", kind: "max", unit: "count", category: "combat" },
  { key: "mining.blocks.total", kind: "count", unit: "count", category: "gathering" },
  ...["F", "M"].flatMap((m) =>
    Array.from({ length: 7 }, (_, i) => ({
      key: `dungeon.best_split.${m}${i + 1}.finish`,
      kind: "min",
      unit: "ms",
      category: "combat",
    })),
  ),
  ...Array.from({ length: 60 }, (_, i) => ({
    key: `kills.island.island_${i}`,
    kind: "count",
    unit: "count",
    category: "combat",
  })),
];
while (growthKeys.length < 600)
  growthKeys.push({ key: `loot.item.ITEM_${growthKeys.length}`, kind: "count", unit: "count", category: "combat" });

export type GrowthSize = { label: string; dayRows: number; accounts: number };
export const growthSizes: GrowthSize[] = [
  { label: "1m", dayRows: 1_000_000, accounts: 2000 },
  { label: "10m", dayRows: 10_000_000, accounts: 5000 },
  { label: "50m", dayRows: 50_000_000, accounts: 12000 },
];

export const accountUuid = (a: number) => a.toString(16).padStart(32, "0");
export const accountName = (a: number) => `Growth_${a}`;

/**
 * The day rows of accounts lo..hi, in the primary key's order. Inserted a range of accounts at a
 * time: one statement of 50M rows sorted them all first (a sort spilled to disk of the whole table).
 */
function dayRowsSql(size: GrowthSize, today: string, lo: number, hi: number): string {
  const { first, firstMs, dayMs } = fillShape(size, today);
  return `
insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
  select g.uuid, md5('p' || g.a || '_' || p), k.key, '${first}'::date + d, md5('i' || g.a || '_' || (1 + (g.a + d + x) % g.installs)),
    v.value, case when k.kind = 'gauge' then v.value - 100 end, case when k.kind = 'gauge' then v.value + 100 end,
    ${firstMs} + d::bigint * ${dayMs} + x
  from g_accounts g
    cross join generate_series(1, g.profiles) p
    cross join generate_series(0, ${DAYS - 1}) d
    cross join lateral generate_series(0, case when d % 5 = 0 and g.installs > 1 then 1 else 0 end) x
    cross join generate_series(0, g.keys - 1) j
    join g_keys k on k.idx = (g.a * 7 + j * 13) % ${growthKeys.length}
    cross join lateral (select case k.kind
      when 'count' then 1 + (g.a * 31 + d * 7 + j * 3 + x) % 1000
      when 'gauge' then 1000000 + d * 1000 + g.a
      else 60000 + (g.a * 17 + d * 11 + j) % 30000 end::bigint as value) v
  where g.a between ${lo} and ${hi} and (g.a = 1 or (hashint4(g.a * 1000 + d + p * 7919) & 1023) < 614)
  order by 1, 2, 3, 4, 5;
`;
}

/** Keys per playing day chosen so the rows come near `dayRows`, and the fill's first day. */
function fillShape(size: GrowthSize, today: string) {
  // rows per account ~ 1.5 profiles x DAYS x 0.6 playing x keys x 1.13 installs
  const keys = Math.max(2, Math.round(size.dayRows / (size.accounts * DAYS * 1.5 * 0.6 * 1.13)));
  const first = addDays(today, -(DAYS - 1));
  return { keys, first, firstMs: Date.parse(`${first}T12:00:00Z`), dayMs: 86_400_000 };
}

/** The fill's statements but the day rows (dayRowsSql); `today` is the fill's UTC day. */
function fillSql(size: GrowthSize, today: string, nowMs: number): string {
  const { keys, first, firstMs, dayMs } = fillShape(size, today);
  return `
create temp table g_keys as
  select (ord - 1)::int as idx, key, kind from unnest(array[${growthKeys.map((k) => `'${k.key}'`).join(",")}], array[${growthKeys.map((k) => `'${k.kind}'`).join(",")}]) with ordinality as t(key, kind, ord);
insert into counter_keys (key, kind, unit, category, first_seen_at)
  select key, kind, unit, category, ${firstMs} from unnest(array[${growthKeys.map((k) => `'${k.key}'`).join(",")}], array[${growthKeys.map((k) => `'${k.kind}'`).join(",")}], array[${growthKeys.map((k) => `'${k.unit}'`).join(",")}], array[${growthKeys.map((k) => `'${k.category}'`).join(",")}]) as t(key, kind, unit, category);
create temp table g_accounts as
  select a, lpad(to_hex(a), 32, '0') as uuid, case when a = 1 then 2 else 1 + a % 2 end as profiles, 1 + a % 3 as installs,
    case when a = 1 then 300 else ${keys} end as keys
  from generate_series(1, ${size.accounts}) a;
insert into accounts (uuid, name, zone, created_at, settings_version, consented, retention_days, findable, last_upload_at)
  select uuid, 'Growth_' || a, (array[${ZONES.map((z) => `'${z}'`).join(",")}])[1 + a % ${ZONES.length}], ${firstMs}, 2,
    '{combat,gathering,service}', case when a % 4 = 0 then 120 else 730 end, true, ${nowMs}
  from g_accounts;
insert into stat_profiles (uuid, profile_id, cute_name, first_seen_at, last_seen_at)
  select g.uuid, md5('p' || g.a || '_' || p), (array['Kiwi','Mango','Apple'])[p], ${firstMs}, ${nowMs}
  from g_accounts g, generate_series(1, g.profiles) p;
insert into counter_backfills (uuid, profile_id, key, install_id, day, value, sent_at)
  select g.uuid, md5('p' || g.a || '_1'), k.key, md5('i' || g.a || '_1'), '${first}'::date - 1, 10000 + g.a, ${firstMs}
  from g_accounts g cross join generate_series(0, least(g.keys, 3) - 1) j
    join g_keys k on k.idx = (g.a * 7 + j * 13) % ${growthKeys.length} and k.kind = 'count'
  where g.a % 5 = 0;
insert into sessions (uuid, id, profile_id, install_id, activity, day, started_at, ended_at, gains, costs)
  select g.uuid, md5('s' || g.a || '_' || d), md5('p' || g.a || '_1'), md5('i' || g.a || '_1'), 'mining', '${first}'::date + d,
    ${firstMs} + d::bigint * ${dayMs}, ${firstMs} + d::bigint * ${dayMs} + 3600000,
    '[{"k":"mining.blocks.total","v":1200}]'::jsonb, '[]'::jsonb
  from g_accounts g cross join generate_series(0, ${DAYS - 1}) d
  where (hashint4(g.a * 1000 + d + 7919) & 1023) < 614;
insert into timeline_events (uuid, id, profile_id, install_id, kind, day, at, key, value)
  select g.uuid, md5('t' || g.a || '_' || d), md5('p' || g.a || '_1'), md5('i' || g.a || '_1'), 'milestone', '${first}'::date + d,
    ${firstMs} + d::bigint * ${dayMs}, 'mining.blocks.total', 1000 * d
  from g_accounts g cross join generate_series(0, ${DAYS - 1}, 9) d;
insert into ingest_batches (uuid, batch_id, received_at, answer)
  select g.uuid, md5('b' || g.a || '_' || d), ${nowMs} - d::bigint * ${dayMs}, null
  from g_accounts g cross join generate_series(0, 9) d;
`;
}

/** The template's name for a size. */
export const templateName = (size: GrowthSize) => `tally_growth_${size.label}`;

/**
 * The template of this size, made when missing (or left half-made by an interrupted fill). Answers
 * its name and the fill's figures (from the template itself when it was made by an earlier run).
 */
export async function ensureTemplate(
  adminUrl: string,
  size: GrowthSize,
  log: (line: string) => void,
): Promise<{ name: string; filledOn: string; fillSeconds: number; dayRows: number }> {
  const name = templateName(size);
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
    if (exists) {
      const t = postgres(databaseUrlFor(adminUrl, name), { max: 1, onnotice: () => {} });
      try {
        const [done] = await t`select filled_on::text, fill_seconds, day_rows from growth_fill`.catch(() => []);
        if (done)
          return { name, filledOn: done.filled_on, fillSeconds: done.fill_seconds, dayRows: Number(done.day_rows) };
      } finally {
        await t.end();
      }
      await admin.unsafe(`alter database "${name}" is_template false`);
      await admin.unsafe(`drop database "${name}" with (force)`);
    }
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = databaseUrlFor(adminUrl, name);
  const t0 = performance.now();
  const database = await connectPostgres(url, 4);
  await migrate(database.db);
  await database.close();
  const now = Date.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  log(`filling ${name}: ${size.accounts} accounts, about ${size.dayRows} day rows`);
  await sql.unsafe(fillSql(size, today, now));
  await sql.unsafe("set work_mem = '256MB'");
  for (let lo = 1; lo <= size.accounts; lo += FILL_ACCOUNTS) {
    await sql.unsafe(dayRowsSql(size, today, lo, Math.min(size.accounts, lo + FILL_ACCOUNTS - 1)));
    if (lo > 1 && (lo - 1) % (FILL_ACCOUNTS * 10) === 0)
      log(`  accounts ${lo - 1} of ${size.accounts} in ${Math.round((performance.now() - t0) / 1000)} s`);
  }
  // Each account's marks as its uploads would have left them (counter_marks): nothing closed yet,
  // its first and last day, its first per-install day (all are, before the seal), and the bounds of
  // its count keys' parts (as migration 0019 computes them; the jobs keep them from here).
  await sql.unsafe(`insert into counter_marks (uuid, closed_through, first_day, last_day, unsealed_from, pos_bound, neg_bound)
    select k.uuid, min(k.first) - 1, min(k.first), max(k.last), min(k.first), greatest(max(k.pos), 0), least(min(k.neg), 0)
    from (
      select d.uuid, d.profile_id, d.key, min(d.day) as first, max(d.day) as last,
        sum(greatest(d.value, 0)) filter (where c.kind = 'count') as pos, sum(least(d.value, 0)) filter (where c.kind = 'count') as neg
      from counter_days d join counter_keys c on c.key = d.key
      group by d.uuid, d.profile_id, d.key
    ) k group by k.uuid`);
  const rowsSeconds = (performance.now() - t0) / 1000;
  log(`  rows in ${rowsSeconds.toFixed(0)} s; running yesterday's jobs`);
  // The jobs as the service would have run them yesterday (module functions, their own statements).
  const jobsDb = await connectPostgres(url, 4);
  const yesterday = fakeClock(now - 86_400_000);
  const rollups = await closeDaysPass({ db: jobsDb.db, clock: yesterday });
  const seal = await sealPass({ db: jobsDb.db, clock: yesterday });
  const retention = await retentionPass({ db: jobsDb.db, clock: yesterday });
  await jobsDb.close();
  log(
    `  jobs: rollups ${rollups.rollups} in ${rollups.accounts} accounts, seal removed ${seal.rowsRemoved}, retention removed ${retention.rowsRemoved}`,
  );
  await sql`vacuum analyze`;
  const [{ n }] = (await sql`select count(*)::bigint as n from counter_days`) as unknown as [{ n: string }];
  const fillSeconds = Math.round((performance.now() - t0) / 1000);
  await sql`create table growth_fill as select ${today}::date as filled_on, ${fillSeconds}::int as fill_seconds, ${n}::bigint as day_rows`;
  await sql.end();
  const a2 = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await a2.unsafe(`alter database "${name}" is_template true`);
  await a2.end();
  log(`  ${n} day rows in ${fillSeconds} s (${Math.round(Number(n) / fillSeconds)} rows/s)`);
  return { name, filledOn: today, fillSeconds, dayRows: Number(n) };
}
