// Reads for the export: every stats table that holds the account's data, a page at a time in primary-key
// order (keyset pagination), so an account of any size streams in flat memory.
import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";

type Source = { table: string; columns: string[]; order: string[] };

/** The statistics an export holds, in the order they are written (after the device sessions, auth's). */
export const exportSources: Record<string, Source> = {
  profiles: {
    table: "stat_profiles",
    columns: ["profile_id", "cute_name", "first_seen_at", "last_seen_at"],
    order: ["profile_id"],
  },
  dayRows: {
    table: "counter_days",
    columns: ["profile_id", "key", "day", "install_id", "value", "low", "high", "sent_at"],
    order: ["profile_id", "key", "day", "install_id"],
  },
  backfills: {
    table: "counter_backfills",
    columns: ["profile_id", "key", "install_id", "day", "value", "sent_at"],
    order: ["profile_id", "key", "install_id"],
  },
  seals: { table: "counter_seals", columns: ["profile_id", "key", "day", "value"], order: ["profile_id", "key"] },
  sessions: {
    table: "sessions",
    columns: ["id", "profile_id", "install_id", "activity", "day", "started_at", "ended_at", "gains", "costs"],
    order: ["id"],
  },
  timelineEvents: {
    table: "timeline_events",
    columns: ["id", "profile_id", "install_id", "kind", "day", "at", "key", "value"],
    order: ["id"],
  },
  mirrorSections: {
    table: "mirror_sections",
    columns: ["profile_id", "section", "install_id", "observed_at", "values"],
    order: ["profile_id", "section"],
  },
};

const list = (names: string[], map: (n: string) => SQL = (n) => sql`${sql.identifier(n)}`) =>
  sql.join(names.map(map), sql`, `);

/** One page of a source after the row `after` (its order columns' values), or the first page. */
export function exportPage(db: Db, uuid: string, source: Source, after: unknown[] | null, size: number) {
  const columns = list(source.columns, (c) =>
    c === "day" ? sql`${sql.identifier(c)}::text as day` : sql`${sql.identifier(c)}`,
  );
  const keyset = after
    ? sql` and (${list(source.order)}) > (${sql.join(
        after.map((v) => sql`${v}`),
        sql`, `,
      )})`
    : sql``;
  return rows<Record<string, unknown>>(
    db,
    sql`select ${columns} from ${sql.identifier(source.table)} where uuid = ${uuid}${keyset} order by ${list(source.order)} limit ${size}`,
  );
}
