// Sessions and timeline events as the statistics pages show them (contract 2.5): the newest first.
import type { Db } from "../db/database.ts";
import { eventsOfKindRows, longestSessionRow, recentEventRows, recentSessionRows } from "./activity.query.ts";

export async function recentSessions(db: Db, uuid: string, profileId: string, limit: number) {
  return (await recentSessionRows(db, uuid, profileId, limit)).map((r) => ({
    id: r.id,
    activity: r.activity,
    day: r.day,
    startedAt: Number(r.started_at),
    endedAt: Number(r.ended_at),
    gains: r.gains,
    costs: r.costs,
  }));
}

export async function recentEvents(db: Db, uuid: string, profileId: string, limit: number) {
  return (await recentEventRows(db, uuid, profileId, limit)).map((r) => ({
    id: r.id,
    kind: r.kind,
    day: r.day,
    at: Number(r.at),
    key: r.key,
    value: r.value === null ? null : Number(r.value),
  }));
}

export type RecentSession = Awaited<ReturnType<typeof recentSessions>>[number];
export type RecentEvent = Awaited<ReturnType<typeof recentEvents>>[number];

/** The longest session of one profile that began in [from, to], or null (recaps). */
export async function longestSession(db: Db, uuid: string, profileId: string, from: string, to: string) {
  const [r] = await longestSessionRow(db, uuid, profileId, from, to);
  return r ? { activity: r.activity, day: r.day, ms: Number(r.ms) } : null;
}

/** Timeline events of one kind (say "personal_best") of one profile in [from, to]: the count and the latest `limit`. */
export async function eventsOfKind(
  db: Db,
  uuid: string,
  profileId: string,
  kind: string,
  from: string,
  to: string,
  limit: number,
) {
  const { count, latest } = await eventsOfKindRows(db, uuid, profileId, kind, from, to, limit);
  return {
    count,
    latest: latest.map((r) => ({
      day: r.day,
      at: Number(r.at),
      key: r.key,
      value: r.value === null ? null : Number(r.value),
    })),
  };
}
