// Everything ingest stored for an account, in a fixed order, so tests compare it whole.
import { asc, eq, getTableColumns } from "drizzle-orm";
import type { Db } from "../../src/db/database.ts";
import { counterBackfills, counterDays, statProfiles } from "../../src/stats/counters.table.ts";
import { mirrorSections, sessions, timelineEvents } from "../../src/stats/activity.table.ts";

/** A day row's columns as data; `replaced_value` is the write's own bookkeeping, not what was recorded. */
const { replacedValue: _bookkeeping, ...dayColumns } = getTableColumns(counterDays);

export async function storedState(db: Db, uuid: string) {
  return {
    days: await db
      .select(dayColumns)
      .from(counterDays)
      .where(eq(counterDays.uuid, uuid))
      .orderBy(asc(counterDays.profileId), asc(counterDays.key), asc(counterDays.day), asc(counterDays.installId)),
    backfills: await db
      .select()
      .from(counterBackfills)
      .where(eq(counterBackfills.uuid, uuid))
      .orderBy(asc(counterBackfills.profileId), asc(counterBackfills.key), asc(counterBackfills.installId)),
    sessions: await db.select().from(sessions).where(eq(sessions.uuid, uuid)).orderBy(asc(sessions.id)),
    events: await db.select().from(timelineEvents).where(eq(timelineEvents.uuid, uuid)).orderBy(asc(timelineEvents.id)),
    profiles: await db
      .select()
      .from(statProfiles)
      .where(eq(statProfiles.uuid, uuid))
      .orderBy(asc(statProfiles.profileId)),
    mirror: await db
      .select()
      .from(mirrorSections)
      .where(eq(mirrorSections.uuid, uuid))
      .orderBy(asc(mirrorSections.profileId), asc(mirrorSections.section)),
  };
}

export const isEmpty = (s: Awaited<ReturnType<typeof storedState>>) =>
  Object.values(s).every((rows) => rows.length === 0);
