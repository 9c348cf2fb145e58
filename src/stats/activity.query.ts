// Reads of sessions and timeline events for the statistics pages: the newest first, bounded.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import type { Amount } from "./activity.table.ts";

export type SessionRow = {
  id: string;
  activity: string;
  day: string;
  started_at: number;
  ended_at: number;
  gains: Amount[];
  costs: Amount[];
};
export type EventRow = { id: string; kind: string; day: string; at: number; key: string | null; value: number | null };

/** One profile's latest sessions (by start, then id, so two reads agree). */
export function recentSessionRows(db: Db, uuid: string, profileId: string, limit: number) {
  return rows<SessionRow>(
    db,
    sql`select id, activity, day::text as day, started_at, ended_at, gains, costs
      from sessions where uuid = ${uuid} and profile_id = ${profileId}
      order by started_at desc, id collate "C" desc limit ${limit}`,
  );
}

/** One profile's latest timeline events (by time, then id). */
export function recentEventRows(db: Db, uuid: string, profileId: string, limit: number) {
  return rows<EventRow>(
    db,
    sql`select id, kind, day::text as day, at, key, value
      from timeline_events where uuid = ${uuid} and profile_id = ${profileId}
      order by at desc, id collate "C" desc limit ${limit}`,
  );
}
