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

/**
 * One profile's longest session that began on a day of [from, to] (ties: the earliest start, then
 * id). Bounded by its start too (a day of the account's zone begins within 14 hours of UTC's), so
 * the index on (uuid, profile, start) reads the period's sessions only.
 */
export function longestSessionRow(db: Db, uuid: string, profileId: string, from: string, to: string) {
  const lo = Date.parse(`${from}T00:00:00Z`) - 86_400_000;
  const hi = Date.parse(`${to}T00:00:00Z`) + 2 * 86_400_000;
  return rows<{ activity: string; day: string; ms: number | string }>(
    db,
    sql`select activity, day::text as day, ended_at - started_at as ms
      from sessions where uuid = ${uuid} and profile_id = ${profileId}
        and started_at >= ${lo} and started_at < ${hi} and day between ${from}::date and ${to}::date
      order by ended_at - started_at desc, started_at, id collate "C" limit 1`,
  );
}

/**
 * One profile's timeline events of one kind on the days [from, to] (bounded by time like
 * longestSessionRow): how many, and the latest `limit` of them.
 */
export async function eventsOfKindRows(
  db: Db,
  uuid: string,
  profileId: string,
  kind: string,
  from: string,
  to: string,
  limit: number,
) {
  const lo = Date.parse(`${from}T00:00:00Z`) - 86_400_000;
  const hi = Date.parse(`${to}T00:00:00Z`) + 2 * 86_400_000;
  const where = sql`uuid = ${uuid} and profile_id = ${profileId} and at >= ${lo} and at < ${hi}
    and day between ${from}::date and ${to}::date and kind = ${kind}`;
  const [count] = await rows<{ n: number }>(db, sql`select count(*)::int as n from timeline_events where ${where}`);
  const latest = await rows<EventRow>(
    db,
    sql`select id, kind, day::text as day, at, key, value from timeline_events where ${where}
      order by at desc, id collate "C" desc limit ${limit}`,
  );
  return { count: count!.n, latest };
}
