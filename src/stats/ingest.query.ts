// The writes of one upload that are its bookkeeping, inside the upload's transaction: the batchId
// claimed and its stored answer (ingest_batches), the profile noted, the keys pinned (counter_keys).
// The day rows are in ingest-days.query.ts, sessions, events and the mirror in ingest-activity.query.ts.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { textArray } from "../db/array-param.ts";
import { statsLock } from "./counters.query.ts";

/**
 * Takes the account's stats lock (see lockAccountStats) and claims the batchId in one statement: true
 * if the batchId is new (or its last use is older than `windowStart`). Either order of the two is
 * safe: a concurrent copy of the batch waits on the claimed row or on the lock, never both ways.
 *
 * An account without a counter_marks row (its first upload) gets one closing through `firstMark`
 * (its today minus 2), so its early history goes through the rollups, with its parts' bounds at 0
 * (it has no day rows: the mark is written before any, and erasure deletes both); an existing mark
 * is left alone. The mark's row is written only once the lock is held (it reads the lock's CTE), so the
 * rollups job, which writes marks under the same lock, never waits on it the other way round.
 * The mark is not read here: this statement's snapshot is older than the lock it waited for.
 */
export async function lockAndClaimBatch(
  tx: Db,
  uuid: string,
  batchId: string,
  now: number,
  windowStart: number,
  firstMark: string,
): Promise<boolean> {
  const [row] = await rows<{ claimed: number }>(
    tx,
    sql`with claim as (
        insert into ingest_batches (uuid, batch_id, received_at) values (${uuid}, ${batchId}, ${now})
        on conflict (uuid, batch_id) do update set received_at = excluded.received_at, answer = null
        where ingest_batches.received_at < ${windowStart}
        returning batch_id
      ),
      locked as (select ${statsLock(uuid)}::text as locked),
      marked as (
        insert into counter_marks (uuid, closed_through, pos_bound, neg_bound) select ${uuid}, ${firstMark}::date, 0, 0 from locked
        on conflict (uuid) do nothing
      )
      select (select count(*) from claim)::int as claimed, (select locked from locked) as locked`,
  );
  return row!.claimed === 1;
}

export async function storedAnswer(tx: Db, uuid: string, batchId: string): Promise<string | null> {
  const [row] = await rows<{ answer: string | null }>(
    tx,
    sql`select answer from ingest_batches where uuid = ${uuid} and batch_id = ${batchId}`,
  );
  return row?.answer ?? null;
}

export async function purgeBatches(db: Db, before: number): Promise<number> {
  return (await rows(db, sql`delete from ingest_batches where received_at < ${before} returning 1`)).length;
}

/**
 * Ends an applied upload in one statement: stores its answer for duplicates of its batchId and,
 * when `profile` is given, notes the profile and its display name as of the upload's sentAt
 * (display only: a profile is never found by its name). The name of the latest-sent upload wins,
 * whatever the arrival order. A profile new to an account that holds `maxProfiles` already is not
 * noted: answers false, and the caller refuses the upload (issue 40).
 */
export async function finishUpload(
  tx: Db,
  uuid: string,
  batchId: string,
  answer: string,
  profile?: { profileId: string; cuteName: string; sentAt: number; maxProfiles: number },
): Promise<boolean> {
  const store = sql`update ingest_batches set answer = ${answer} where uuid = ${uuid} and batch_id = ${batchId}`;
  if (!profile) {
    await tx.execute(store);
    return true;
  }
  const { profileId, cuteName, sentAt, maxProfiles } = profile;
  const [row] = await rows<{ noted: number }>(
    tx,
    sql`with held as (
      select count(*) < ${maxProfiles} or coalesce(bool_or(profile_id = ${profileId}), false) as room
      from stat_profiles where uuid = ${uuid}
    ),
    touched as (
      insert into stat_profiles (uuid, profile_id, cute_name, first_seen_at, last_seen_at)
      select ${uuid}, ${profileId}, ${cuteName}, ${sentAt}, ${sentAt} from held where room
      on conflict (uuid, profile_id) do update set
        cute_name = case when excluded.last_seen_at >= stat_profiles.last_seen_at then excluded.cute_name else stat_profiles.cute_name end,
        first_seen_at = least(stat_profiles.first_seen_at, excluded.first_seen_at),
        last_seen_at = greatest(stat_profiles.last_seen_at, excluded.last_seen_at)
      returning 1
    ),
    stored as (${store} returning 1)
    select (select count(*) from touched)::int as noted`,
  );
  return row!.noted === 1;
}

export type KeyPin = { key: string; kind: string; unit: string; category: string };

/**
 * Pins the keys not seen before and answers the pinned kind, unit and category of each key given.
 * When every key is new (the insert wrote them all, as given) nothing is read back; otherwise the
 * pins are read, so a key pinned before (or by an upload that committed meanwhile) keeps its pin.
 * The insert answers only its count: 10 000 pins read back as rows cost the embedded database
 * 50 ms of a 130 ms write.
 */
export async function pinKeys(tx: Db, pins: KeyPin[], now: number): Promise<KeyPin[]> {
  if (pins.length === 0) return [];
  const keys = pins.map((x) => x.key);
  const [row] = await rows<{ n: number }>(
    tx,
    sql`with pinned as (
      insert into counter_keys (key, kind, unit, category, first_seen_at)
      select t.key, t.kind, t.unit, t.category, ${now}
      from unnest(${textArray(keys)}::text[], ${textArray(pins.map((x) => x.kind))}::text[], ${textArray(pins.map((x) => x.unit))}::text[], ${textArray(pins.map((x) => x.category))}::text[])
        as t(key, kind, unit, category)
      on conflict (key) do nothing
      returning 1
    )
    select count(*)::int as n from pinned`,
  );
  if (row!.n === pins.length) return pins;
  return rows<KeyPin>(
    tx,
    sql`select key, kind, unit, category from counter_keys where key = any(${textArray(keys)}::text[])`,
  );
}
