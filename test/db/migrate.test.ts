// Migrations: applied once on a fresh database, a no-op on a current one, refused when the history
// disagrees with the binary; several instances migrating at once apply each migration once.
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { migrate, MigrationError } from "../../src/db/migrate.ts";
import { migrations } from "../../src/db/migrations.gen.ts";
import { rows, type Database } from "../../src/db/database.ts";
import { backend, createPostgresDatabase, emptyDatabase, postgresUrl, testDatabase } from "../support/db.ts";
import { connectPostgres } from "../../src/db/connect-postgres.ts";
import { activityRates } from "../../src/stats/rates.ts";

// A test of an empty database runs initdb and every migration: slower than the 5 s default on a busy
// machine. A test that starts from a current database takes the migrated seed (on the embedded
// database a copy in milliseconds; on Postgres a new database migrated once), so each full migration
// from empty is paid only where the test is about it.
setDefaultTimeout(30_000);

let opened: Database[] = [];
const keep = (d: Database) => (opened.push(d), d);
const open = async () => keep(await emptyDatabase());
const migrated = async () => keep(await testDatabase());
afterEach(async () => {
  for (const d of opened.reverse()) await d.close();
  opened = [];
});

const tables = async (d: Database) =>
  (
    await rows<{ table_name: string }>(
      d.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    )
  ).map((r) => r.table_name);

describe(`migrations on the ${backend} database`, () => {
  test("a fresh database gets every migration, in order, and its tables", async () => {
    const d = await open();
    expect(await tables(d)).toEqual([]);
    expect(await migrate(d.db)).toEqual(migrations.map((m) => m.tag));
    expect(await tables(d)).toEqual(expect.arrayContaining(["service_meta", "tally_migrations"]));
    const applied = await rows<{ tag: string }>(d.db, sql`select tag from tally_migrations order by tag`);
    expect(applied.map((r) => r.tag)).toEqual(migrations.map((m) => m.tag));
  });

  test("running again applies nothing and changes nothing", async () => {
    const d = await migrated();
    await migrate(d.db);
    await d.db.execute(sql`insert into service_meta (key, value, updated_at) values ('probe', 'kept', 1)`);
    expect(await migrate(d.db)).toEqual([]);
    expect(await rows(d.db, sql`select value from service_meta where key = 'probe'`)).toEqual([{ value: "kept" }]);
  });

  test("a later migration is applied on top of an earlier history", async () => {
    const d = await migrated();
    await migrate(d.db);
    const next = [
      ...migrations,
      {
        tag: "9999_probe",
        sql: "create table probe_a (id int);\n--> statement-breakpoint\ncreate table probe_b (id int);",
      },
    ];
    expect(await migrate(d.db, next)).toEqual(["9999_probe"]);
    expect(await tables(d)).toEqual(expect.arrayContaining(["probe_a", "probe_b"]));
  });

  test("0018 sums the sessions already stored, so the rates of a database migrated from before it are unchanged", async () => {
    const d = await open();
    const at = migrations.findIndex((m) => m.tag.startsWith("0018_"));
    await migrate(d.db, migrations.slice(0, at));
    const profile = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
    const session = (id: string, activity: string, day: string, ms: number, gains: string, costs: string) =>
      sql`insert into sessions (uuid, id, profile_id, install_id, activity, day, started_at, ended_at, gains, costs)
        values ('u1', ${id}, ${profile}, 'i', ${activity}, ${day}::date, 0, ${ms}, ${gains}::jsonb, ${costs}::jsonb)`;
    await d.db.execute(session("a", "mining", "2026-05-30", 3_600_000, '[{"k":"mining.blocks.stone","v":300}]', "[]"));
    await d.db.execute(
      session(
        "b",
        "mining",
        "2026-05-31",
        1_800_000,
        '[{"k":"mining.blocks.stone","v":100}]',
        '[{"k":"farming.purse.coins","v":50}]',
      ),
    );
    await d.db.execute(session("c", "fishing", "2026-05-31", 0, "[]", "[]"));
    await migrate(d.db);
    expect(await activityRates(d.db, "u1", profile, "2026-05-01", "2026-06-01")).toEqual({
      since: "2026-05-01",
      activities: [
        { activity: "fishing", sessions: 1, ms: 0, gains: [], costs: [] },
        {
          activity: "mining",
          sessions: 2,
          ms: 5_400_000,
          gains: [{ k: "mining.blocks.stone", v: 400, perHour: 400 / 1.5 }],
          costs: [{ k: "farming.purse.coins", v: 50, perHour: 50 / 1.5 }],
        },
      ],
    });
  });

  test("0019 bounds each account's parts as stored: rollups plus open days of its count keys", async () => {
    const d = await open();
    const at = migrations.findIndex((m) => m.tag.startsWith("0019_"));
    await migrate(d.db, migrations.slice(0, at));
    const profile = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
    await d.db.execute(sql`insert into counter_keys (key, kind, unit, category, first_seen_at) values
      ('mining.a', 'count', 'count', 'gathering', 0), ('mining.b', 'count', 'count', 'gathering', 0), ('mining.g', 'gauge', 'count', 'gathering', 0)`);
    await d.db.execute(
      sql`insert into counter_marks (uuid, closed_through) values ('u1', '2026-05-30'), ('u2', '2026-05-30')`,
    );
    const rollup = (key: string, pos: number, neg: number) =>
      sql`insert into counter_rollups (uuid, profile_id, key, sum, pos, neg, max, min, first_day, last_day, last_value, last_sent_at, last_install, stale)
        values ('u1', ${profile}, ${key}, ${pos + neg}, ${pos}, ${neg}, 0, 0, '2026-05-01', '2026-05-30', 0, 0, 'i', false)`;
    await d.db.execute(rollup("mining.a", 100, -5));
    await d.db.execute(rollup("mining.b", 120, -40));
    const day = (key: string, on: string, value: number) =>
      sql`insert into counter_days (uuid, profile_id, key, day, install_id, value, sent_at) values ('u1', ${profile}, ${key}, ${on}::date, 'i', ${value}, 0)`;
    await d.db.execute(day("mining.a", "2026-05-20", 999)); // closed: already in its rollup
    await d.db.execute(day("mining.a", "2026-05-31", 50)); // open
    await d.db.execute(day("mining.a", "2026-06-01", -7)); // open
    await d.db.execute(day("mining.g", "2026-05-31", 10_000)); // a gauge never adds
    await migrate(d.db);
    const marks = await rows<{ uuid: string; pos_bound: string; neg_bound: string }>(
      d.db,
      sql`select uuid, pos_bound::text, neg_bound::text from counter_marks order by uuid`,
    );
    expect(marks).toEqual([
      { uuid: "u1", pos_bound: "150", neg_bound: "-40" },
      { uuid: "u2", pos_bound: "0", neg_bound: "0" },
    ]);
  });

  test("0020 notes where each account's rows lie: first and last day, first per-install day from its seal mark", async () => {
    const d = await open();
    const at = migrations.findIndex((m) => m.tag.startsWith("0020_"));
    await migrate(d.db, migrations.slice(0, at));
    const profile = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
    await d.db.execute(
      sql`insert into counter_marks (uuid, closed_through) values ('u1', '2026-05-30'), ('u2', '2026-05-30'), ('u3', '2026-05-30')`,
    );
    // u1: sealed through 2026-05-10 (a collapsed row before its mark, another one after it), then installs.
    // u2: no seal mark, one per-install row. u3: nothing stored.
    await d.db.execute(sql`insert into counter_seal_marks (uuid, sealed_before) values ('u1', '2026-05-10')`);
    const day = (uuid: string, on: string, install: string) =>
      sql`insert into counter_days (uuid, profile_id, key, day, install_id, value, sent_at) values (${uuid}, ${profile}, 'mining.a', ${on}::date, ${install}, 1, 0)`;
    await d.db.execute(day("u1", "2026-05-01", ""));
    await d.db.execute(day("u1", "2026-05-12", ""));
    await d.db.execute(day("u1", "2026-05-14", "i"));
    await d.db.execute(day("u1", "2026-06-02", "i"));
    await d.db.execute(day("u2", "2026-04-20", "i"));
    await migrate(d.db);
    const marks = await rows<{
      uuid: string;
      first_day: string | null;
      last_day: string | null;
      unsealed_from: string | null;
    }>(d.db, sql`select uuid, first_day::text, last_day::text, unsealed_from::text from counter_marks order by uuid`);
    expect(marks).toEqual([
      { uuid: "u1", first_day: "2026-05-01", last_day: "2026-06-02", unsealed_from: "2026-05-14" },
      { uuid: "u2", first_day: "2026-04-20", last_day: "2026-04-20", unsealed_from: "2026-04-20" },
      { uuid: "u3", first_day: null, last_day: null, unsealed_from: null },
    ]);
    expect(await tables(d)).not.toContain("counter_seal_marks");
  });

  test("a failing migration leaves nothing half-applied", async () => {
    const d = await migrated();
    await migrate(d.db);
    const broken = [
      ...migrations,
      { tag: "9999_broken", sql: "create table half (id int);\n--> statement-breakpoint\nthis is not sql;" },
    ];
    await expect(migrate(d.db, broken)).rejects.toThrow();
    expect(await tables(d)).not.toContain("half");
    expect(await migrate(d.db)).toEqual([]);
  });

  test("a migration edited after it was applied is refused", async () => {
    const d = await migrated();
    await migrate(d.db);
    const edited = migrations.map((m, i) => (i === 0 ? { ...m, sql: m.sql + "\n-- edited" } : m));
    await expect(migrate(d.db, edited)).rejects.toThrow(MigrationError);
    await expect(migrate(d.db, edited)).rejects.toThrow(/changed after it was applied/);
  });

  test("a database migrated by a newer binary is refused, not downgraded", async () => {
    const d = await migrated();
    await migrate(d.db, [...migrations, { tag: "9999_newer", sql: "create table newer (id int);" }]);
    await expect(migrate(d.db)).rejects.toThrow(/newer tally/);
  });

  test.skipIf(!postgresUrl)("several instances migrating at once apply each migration exactly once", async () => {
    const created = await createPostgresDatabase();
    const instances = await Promise.all([1, 2, 3, 4].map(() => connectPostgres(created.url, 2)));
    try {
      const results = await Promise.all(instances.map((x) => migrate(x.db)));
      expect(results.flat().sort()).toEqual(migrations.map((m) => m.tag).sort());
      expect(results.filter((r) => r.length > 0)).toHaveLength(1);
    } finally {
      for (const i of instances) await i.close();
      await created.drop();
    }
  });
});
