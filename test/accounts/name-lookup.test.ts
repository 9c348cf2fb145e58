// The /u/<name> page finds its account by name, case-insensitively, through an index on lower(name)
// (accounts_name_lower_idx) rather than by reading every account: the index's expression must be
// the query's exactly, which EXPLAIN shows.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import { rows } from "../../src/db/database.ts";
import { accountByName, accountByNameQuery, upsertAtSignIn } from "../../src/accounts/accounts.query.ts";

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  await upsertAtSignIn(t.db, {
    uuid: "42".padStart(32, "c"),
    name: "Name_42",
    zone: "UTC",
    now: 0,
    retentionDays: 365,
  });
  // Enough other players that reading every account would cost more than the index.
  await t.db.execute(sql`insert into accounts (uuid, name, zone, created_at, retention_days)
    select lpad(i::text, 32, 'd'), 'Player_' || i, 'UTC', i, 365 from generate_series(1, 20000) as i`);
  await t.db.execute(sql`analyze accounts`);
});
afterAll(() => t.close());

test("a name is found whatever its case", async () => {
  expect((await accountByName(t.db, "nAME_42"))?.uuid).toBe("42".padStart(32, "c"));
  expect(await accountByName(t.db, "Name_4200")).toBeUndefined();
});

test("the look-up reads accounts_name_lower_idx", async () => {
  const { sql: text, params } = accountByNameQuery(t.db, "nAME_42").toSQL();
  // The statement as the page sends it, its parameters written in (EXPLAIN takes no parameters).
  const literal = text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = params[Number(n) - 1];
    return typeof v === "number" ? String(v) : `'${String(v).replaceAll("'", "''")}'`;
  });
  const plan = (await rows<{ "QUERY PLAN": string }>(t.db, sql.raw(`explain ${literal}`)))
    .map((r) => r["QUERY PLAN"])
    .join("\n");
  expect(plan).toContain("accounts_name_lower_idx");
  expect(plan).not.toContain("Seq Scan");
});
