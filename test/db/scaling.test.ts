// The plan past one Postgres (docs/scaling.md) cannot silently break: every table of the migrated
// schema is placed (distributed by uuid, reference, or kept on the coordinator) in
// docs/scaling.tables.json, and each distributed table's primary key and every unique index leads
// with uuid, as Citus requires of a table distributed by it (a unique index that does not hold the
// distribution column cannot be enforced across shards; one that leads with it is an index range
// read of one account, on one shard).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { join } from "node:path";
import { rows, type Database } from "../../src/db/database.ts";
import { backend, testDatabase } from "../support/db.ts";

const docs = join(import.meta.dir, "../../docs");
const plan = (await Bun.file(join(docs, "scaling.tables.json")).json()) as {
  distributionColumn: string;
  distributed: string[];
  reference: string[];
  coordinator: string[];
};

let d: Database;
beforeAll(async () => (d = await testDatabase()));
afterAll(() => d.close());

/** Every unique index (primary keys included) of the public schema, with its leading column (null: an expression). */
const uniqueIndexes = () =>
  rows<{ table: string; index: string; first: string | null; primary: boolean }>(
    d.db,
    sql`select t.relname as table, i.relname as index, a.attname as first, x.indisprimary as primary
        from pg_index x
          join pg_class i on i.oid = x.indexrelid
          join pg_class t on t.oid = x.indrelid
          join pg_namespace n on n.oid = t.relnamespace
          left join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0] and x.indkey[0] <> 0
        where n.nspname = 'public' and x.indisunique
        order by 1, 2`,
  );

describe(`the scaling plan on the ${backend} database`, () => {
  test("every table of the schema is placed once: distributed, reference or coordinator", async () => {
    const tables = (
      await rows<{ table_name: string }>(
        d.db,
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
      )
    ).map((r) => r.table_name);
    const placed = [...plan.distributed, ...plan.reference, ...plan.coordinator];
    expect(new Set(placed).size).toBe(placed.length);
    expect([...placed].sort()).toEqual(tables);
  });

  test("each distributed table's primary key and unique indexes lead with uuid", async () => {
    const indexes = await uniqueIndexes();
    for (const table of plan.distributed) {
      const own = indexes.filter((i) => i.table === table);
      // A distributed table without a primary key could not be upserted by account.
      expect({ table, primaryKey: own.some((i) => i.primary) }).toEqual({ table, primaryKey: true });
      for (const i of own)
        expect({ table, index: i.index, first: i.first }).toEqual({
          table,
          index: i.index,
          first: plan.distributionColumn,
        });
    }
  });

  test("the check itself sees a unique index that does not lead with uuid", async () => {
    await d.db.execute(
      sql`create unique index scaling_probe_idx on counter_days (key, uuid, profile_id, day, install_id)`,
    );
    try {
      const probe = (await uniqueIndexes()).find((i) => i.index === "scaling_probe_idx");
      expect(probe).toEqual({ table: "counter_days", index: "scaling_probe_idx", first: "key", primary: false });
    } finally {
      await d.db.execute(sql`drop index scaling_probe_idx`);
    }
  });

  test("docs/scaling.md names every distributed and reference table", async () => {
    const doc = await Bun.file(join(docs, "scaling.md")).text();
    for (const table of [...plan.distributed, ...plan.reference])
      expect({ table, named: doc.includes(`\`${table}\``) }).toEqual({ table, named: true });
  });
});
