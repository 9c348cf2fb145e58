// The lifetime memo's copy in the database (lifetime-snapshot.table.ts): one row a large profile.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { lockAccountStats } from "./counters.query.ts";

/** The kept figures' JSON and when they were read whole, if kept for exactly this state and these labels. */
export async function snapshotOf(db: Db, uuid: string, profileId: string, state: string, labels: string) {
  const [row] = await rows<{ figures: string; read_at: number }>(
    db,
    sql`select figures, read_at from lifetime_snapshots
      where uuid = ${uuid} and profile_id = ${profileId} and state = ${state} and labels = ${labels}`,
  );
  return row ? { figures: row.figures, readAt: Number(row.read_at) } : null;
}

/**
 * Keeps these figures (JSON) for the profile, replacing any older copy, under the account's stats
 * lock and only while the account holds statistics: a copy read before an erasure (on another
 * instance) is never written after it.
 */
export async function keepSnapshot(
  db: Db,
  s: { uuid: string; profileId: string; state: string; labels: string; readAt: number; figures: string },
) {
  await db.transaction(async (tx) => {
    await lockAccountStats(tx, s.uuid);
    await tx.execute(sql`insert into lifetime_snapshots (uuid, profile_id, state, labels, read_at, figures)
      select ${s.uuid}::text, ${s.profileId}::text, ${s.state}::text, ${s.labels}::text, ${s.readAt}::bigint, ${s.figures}::text
      where exists (select 1 from stat_profiles where uuid = ${s.uuid})
      on conflict (uuid, profile_id) do update set state = excluded.state, labels = excluded.labels,
        read_at = excluded.read_at, figures = excluded.figures`);
  });
}

/** Forgets the account's copies: a write that changes figures without moving the state (retention, import, erasure). */
export async function forgetSnapshots(tx: Db, uuid: string) {
  await tx.execute(sql`delete from lifetime_snapshots where uuid = ${uuid}`);
}
