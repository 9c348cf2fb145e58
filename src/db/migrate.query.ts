// SQL of the migrator: its bookkeeping table, the advisory lock, and the statements it applies.
import { sql } from "drizzle-orm";
import { rows, type Db } from "./database.ts";

/** Advisory lock key every instance takes while migrating ("tally.migrate"). */
const MIGRATE_LOCK = 7_340_012_001;

export async function lockMigrations(tx: Db) {
  await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATE_LOCK})`);
}

export async function ensureMigrationsTable(tx: Db) {
  await tx.execute(sql`create table if not exists tally_migrations (
    tag text primary key,
    hash text not null,
    applied_at timestamptz not null default now()
  )`);
}

export function appliedMigrations(tx: Db) {
  return rows<{ tag: string; hash: string }>(tx, sql`select tag, hash from tally_migrations order by tag`);
}

export async function applyStatement(tx: Db, statement: string) {
  await tx.execute(sql.raw(statement));
}

export async function recordMigration(tx: Db, tag: string, hash: string) {
  await tx.execute(sql`insert into tally_migrations (tag, hash) values (${tag}, ${hash})`);
}

export async function recordCreated(tx: Db, at: number) {
  await tx.execute(sql`insert into service_meta (key, value, updated_at)
    values ('created_at', ${new Date(at).toISOString()}, ${at}) on conflict (key) do nothing`);
}
