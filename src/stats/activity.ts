// Sessions and timeline events as the statistics pages show them (contract 2.5): the newest first.
import type { Db } from "../db/database.ts";
import { recentEventRows, recentSessionRows } from "./activity.query.ts";

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
