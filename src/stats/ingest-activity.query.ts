// The activity of one upload: sessions (and the session_rates they move), timeline events and the
// mirror's sections, each one unnest(...) statement, inside the upload's transaction. A stored copy
// is replaced only by a later one, so uploads delivered out of order give the same rows.
import { sql } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";
import { integerArray, textArray } from "../db/array-param.ts";
import type { Amount } from "./activity.table.ts";

export type SessionRow = {
  id: string;
  profileId: string;
  activity: string;
  day: string;
  startedAt: number;
  endedAt: number;
  gains: Amount[];
  costs: Amount[];
};

/**
 * Answers how many sessions were written (a copy that ended earlier than the stored one is not).
 * The same statement moves session_rates by the difference each write makes (writeSessions).
 */
export async function upsertSessions(tx: Db, uuid: string, installId: string, list: SessionRow[]): Promise<number> {
  const written = await writeSessions(
    tx,
    uuid,
    list.map((s) => ({ ...s, installId })),
    ">=",
  );
  return written.added + written.replaced;
}

/**
 * Writes sessions by id, a stored one replaced by a copy whose end is `replaceWhen` its end (ingest:
 * no earlier; an import: later, so the same file twice changes nothing), and answers how many were
 * added and replaced. The same statement moves session_rates by the difference each write makes:
 * the written copy's lines added, the copy it replaced (read in this statement's snapshot, taken
 * under the account's stats lock, so no other upload of the account wrote it meanwhile) taken away.
 */
export async function writeSessions(
  tx: Db,
  uuid: string,
  list: (SessionRow & { installId: string })[],
  replaceWhen: ">=" | ">",
): Promise<{ added: number; replaced: number }> {
  if (list.length === 0) return { added: 0, replaced: 0 };
  const [row] = await rows<{ added: number; replaced: number }>(
    tx,
    sql`with t as (
      select * from unnest(${textArray(list.map((s) => s.id))}::text[], ${textArray(list.map((s) => s.profileId))}::text[],
                ${textArray(list.map((s) => s.installId))}::text[], ${textArray(list.map((s) => s.activity))}::text[],
                ${textArray(list.map((s) => s.day))}::text[], ${integerArray(list.map((s) => s.startedAt))}::bigint[], ${integerArray(list.map((s) => s.endedAt))}::bigint[],
                ${textArray(list.map((s) => JSON.stringify(s.gains)))}::text[], ${textArray(list.map((s) => JSON.stringify(s.costs)))}::text[])
        as t(id, profile_id, install_id, activity, day, started_at, ended_at, gains, costs)
    ),
    -- A probe of the primary key per session sent (lateral: never a scan of the account's sessions).
    old as (select o.* from t cross join lateral (select * from sessions s where s.uuid = ${uuid} and s.id = t.id) o),
    up as (
      insert into sessions (uuid, id, profile_id, install_id, activity, day, started_at, ended_at, gains, costs)
      select ${uuid}, t.id, t.profile_id, t.install_id, t.activity, t.day::date, t.started_at, t.ended_at, t.gains::jsonb, t.costs::jsonb from t
      on conflict (uuid, id) do update set
        profile_id = excluded.profile_id, install_id = excluded.install_id, activity = excluded.activity, day = excluded.day,
        started_at = excluded.started_at, ended_at = excluded.ended_at, gains = excluded.gains, costs = excluded.costs
      where excluded.ended_at ${sql.raw(replaceWhen)} sessions.ended_at
      returning id, profile_id, activity, day, ended_at - started_at as ms, gains, costs
    ),
    moved as (
      select 1 as sign, up.* from up
      union all
      select -1, o.id, o.profile_id, o.activity, o.day, o.ended_at - o.started_at, o.gains, o.costs from old o join up using (id)
    ),
    deltas as (
      select profile_id, day, activity, '' as side, '' as key, sum(sign * ms)::numeric as amount, sum(sign)::int as sessions
      from moved group by 1, 2, 3
      union all
      select profile_id, day, activity, 'gain', a->>'k', sum(sign * (a->>'v')::numeric), sum(sign)::int
      from moved cross join jsonb_array_elements(moved.gains) a group by 1, 2, 3, 4, 5
      union all
      select profile_id, day, activity, 'cost', a->>'k', sum(sign * (a->>'v')::numeric), sum(sign)::int
      from moved cross join jsonb_array_elements(moved.costs) a group by 1, 2, 3, 4, 5
    ),
    rated as (
      insert into session_rates as r (uuid, profile_id, day, activity, side, key, amount, sessions)
      select ${uuid}, profile_id, day, activity, side, key, amount, sessions from deltas
      on conflict (uuid, profile_id, day, activity, side, key) do update
        set amount = r.amount + excluded.amount, sessions = r.sessions + excluded.sessions
    )
    select (select count(*) from up where id not in (select id from old))::int as added,
      (select count(*) from up where id in (select id from old))::int as replaced`,
  );
  return row!;
}

export type EventRow = {
  id: string;
  profileId: string;
  kind: string;
  day: string;
  at: number;
  key: string | null;
  value: number | null;
};

/** Answers how many events were new (a repeated id is ignored). */
export async function insertEvents(tx: Db, uuid: string, installId: string, list: EventRow[]): Promise<number> {
  if (list.length === 0) return 0;
  const written = await rows(
    tx,
    sql`insert into timeline_events (uuid, id, profile_id, install_id, kind, day, at, key, value)
    select ${uuid}, t.id, t.profile_id, ${installId}, t.kind, t.day::date, t.at, t.key, t.value
    from unnest(${textArray(list.map((e) => e.id))}::text[], ${textArray(list.map((e) => e.profileId))}::text[], ${textArray(list.map((e) => e.kind))}::text[],
                ${textArray(list.map((e) => e.day))}::text[], ${integerArray(list.map((e) => e.at))}::bigint[], ${textArray(list.map((e) => e.key))}::text[],
                ${integerArray(list.map((e) => e.value))}::bigint[]) as t(id, profile_id, kind, day, at, key, value)
    on conflict (uuid, id) do nothing
    returning 1`,
  );
  return written.length;
}

export type MirrorRow = { section: string; values: Amount[] };

/** Answers how many sections were written (an observation not newer than the stored one is not). */
export async function upsertMirror(
  tx: Db,
  uuid: string,
  profileId: string,
  installId: string,
  observedAt: number,
  list: MirrorRow[],
): Promise<number> {
  if (list.length === 0) return 0;
  const written = await rows(
    tx,
    sql`insert into mirror_sections (uuid, profile_id, section, install_id, observed_at, values)
    select ${uuid}, ${profileId}, t.section, ${installId}, ${observedAt}, t.values::jsonb
    from unnest(${textArray(list.map((m) => m.section))}::text[], ${textArray(list.map((m) => JSON.stringify(m.values)))}::text[]) as t(section, values)
    on conflict (uuid, profile_id, section) do update set install_id = excluded.install_id, observed_at = excluded.observed_at, values = excluded.values
    where excluded.observed_at > mirror_sections.observed_at
    returning 1`,
  );
  return written.length;
}
