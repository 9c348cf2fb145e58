// Deleting a player's data (contract 1.1 rule 3): every table that holds it, counted.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { forgetSnapshots } from "./lifetime-snapshot.query.ts";

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
    const [row] = await rows<{ n: number }>(
      tx,
      sql`with gone as (delete from ${sql.identifier(table)} where uuid = ${uuid} returning 1) select count(*)::int as n from gone`,
    );
    removed[name] = row!.n;
  }
  // The account's marks (counter_marks: where its rows lie, for the jobs), the calendar's counts of
  // its keys per day (counter_day_keys) and the sums of its sessions (session_rates) are bookkeeping of the rollups, the seal and the rates, not recorded
  // data: gone with them, not counted. A later upload starts new ones.
  await tx.execute(sql`delete from counter_marks where uuid = ${uuid}`);
  await tx.execute(sql`delete from counter_day_keys where uuid = ${uuid}`);
  await tx.execute(sql`delete from session_rates where uuid = ${uuid}`);
  // And the copies of its lifetime figures the pages keep (lifetime-snapshot.table.ts).
  await forgetSnapshots(tx, uuid);
  return removed;
}
