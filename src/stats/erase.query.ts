// Deleting a player's data (contract 1.1 rule 3): every table that holds it, counted.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";

/** The tables of recorded statistics, by the name the answer uses. */
export const statsTables = {
  dayRows: "counter_days",
  backfills: "counter_backfills",
  seals: "counter_seals",
  rollups: "counter_rollups",
  sessions: "sessions",
  timelineEvents: "timeline_events",
  mirrorSections: "mirror_sections",
  profiles: "stat_profiles",
  uploads: "ingest_batches",
} as const;

export type Removed = Record<keyof typeof statsTables, number>;

export async function deleteStats(tx: Db, uuid: string): Promise<Removed> {
  const removed = {} as Removed;
  for (const [name, table] of Object.entries(statsTables) as [keyof Removed, string][]) {
    const [row] = await rows<{ n: number }>(tx, sql`with gone as (delete from ${sql.identifier(table)} where uuid = ${uuid} returning 1) select count(*)::int as n from gone`);
    removed[name] = row!.n;
  }
  // The account's mark (counter_marks) is bookkeeping of the rollups, not recorded data: gone with
  // them, not counted. A later upload starts a new one.
  await tx.execute(sql`delete from counter_marks where uuid = ${uuid}`);
  return removed;
}

/** Deletes the account row; its device sessions and page tokens go with it (foreign keys cascade). */
export async function deleteAccountRow(tx: Db, uuid: string) {
  const [row] = await rows<{ accounts: number; device_sessions: number; page_tokens: number }>(
    tx,
    sql`with s as (select count(*)::int as n from device_sessions where uuid = ${uuid}),
         p as (select count(*)::int as n from page_tokens where uuid = ${uuid}),
         gone as (delete from accounts where uuid = ${uuid} returning 1)
    select (select count(*)::int from gone) as accounts, (select n from s) as device_sessions, (select n from p) as page_tokens`,
  );
  return { account: row!.accounts, deviceSessions: row!.accounts ? row!.device_sessions : 0, pageTokens: row!.accounts ? row!.page_tokens : 0 };
}
