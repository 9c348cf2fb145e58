// Reads for the export: every stats table that holds the account's data, a page at a time in primary-key
// order (keyset pagination), so an account of any size streams in flat memory and linear time.
import { sql, type SQL } from "drizzle-orm";
import { rows, type Db } from "../db/database.ts";

/**
 * `pinned`: each row also carries its key's pinned kind (counter_keys), read after the column `key`.
 * `jsonb`: it has jsonb columns, so its rows are written by JSON.stringify (Postgres writes jsonb
 * as text with spaces, which would change the file's bytes); the others are written by Postgres.
 */
type Source = { table: string; columns: string[]; order: string[]; pinned?: boolean; jsonb?: boolean };

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
    pinned: true,
  },
  backfills: {
    table: "counter_backfills",
    columns: ["profile_id", "key", "install_id", "day", "value", "sent_at"],
    order: ["profile_id", "key", "install_id"],
    pinned: true,
  },
  seals: {
    table: "counter_seals",
    columns: ["profile_id", "key", "day", "value"],
    order: ["profile_id", "key"],
    pinned: true,
  },
  sessions: {
    table: "sessions",
    columns: ["id", "profile_id", "install_id", "activity", "day", "started_at", "ended_at", "gains", "costs"],
    order: ["id"],
    jsonb: true,
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
    jsonb: true,
  },
};

/** A column's name in the document: profile_id -> profileId. */
export const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

const list = (names: string[], map: (n: string) => SQL = (n) => sql`${sql.identifier(n)}`) =>
  sql.join(names.map(map), sql`, `);

/**
 * Runs one page's reads in a short transaction of their own in which the planner walks an index in
 * its order. Without statistics (the embedded database never gathers them; Postgres not before
 * autovacuum first analyzes a grown table) it takes "the account's rows after the keyset" for a few
 * dozen, reads every one of them by a bitmap scan and sorts them to keep the page: each page read
 * every later row, quadratic in the account (issue 40: 1 000 000 day rows took 1 439 s as CSV).
 * With an index walked in order, a page reads its own rows and stops. JIT is off too: the plans
 * the switches rule out still count in the cost, which then passes Postgres's JIT threshold, and
 * compiling the page's expressions took 400 ms a page (on Postgres 15; the embedded one has none).
 */
export function inKeyOrder<T>(db: Db, read: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true), set_config('enable_sort', 'off', true), set_config('jit', 'off', true)`,
    );
    return read(tx);
  });
}

/**
 * One page of a source after the row `after` (its order columns' values), or the first page, as
 * the document's text: its rows' JSON joined by commas, how many, and the last row's order values.
 * A source without jsonb columns is written by Postgres (row_to_json, which writes what
 * JSON.stringify writes for these columns: numbers, text, null), one text a page: answered as
 * rows, each row's fields were parsed out of the database's answer into objects and stringified
 * again, which was most of an export's time on the embedded database (and its garbage).
 */
export async function exportPage(
  db: Db,
  uuid: string,
  source: Source,
  after: unknown[] | null,
  size: number,
): Promise<{ text: string; rows: number; last: unknown[] | null }> {
  if (source.jsonb) {
    const page = await inKeyOrder(db, (tx) => rows<Record<string, unknown>>(tx, pageQuery(uuid, source, after, size)));
    const last = page.at(-1);
    return {
      text: page.map((row) => JSON.stringify(row)).join(","),
      rows: page.length,
      last: last ? source.order.map((c) => last[camel(c)]) : null,
    };
  }
  // The aggregate takes the page's rows in the order its Limit hands them over (one input, no
  // grouping, nothing between them to reorder it), which is the keyset's; an ORDER BY inside it
  // sorted every page again (0.7 s of the large account's 1.5 s of CPU, embedded).
  const [page] = await inKeyOrder(db, (tx) =>
    rows<{ text: string | null; rows: number }>(
      tx,
      sql`select string_agg(row_to_json(p)::text, ',') as text, count(*)::int as rows
      from (${pageQuery(uuid, source, after, size)}) p`,
    ),
  );
  const text = page?.text ?? "";
  return { text, rows: page?.rows ?? 0, last: page?.rows ? lastRowKeys(text, source) : null };
}

/**
 * The order values of a page's last row, read from the page's text rather than gathered by the
 * database: an array of every row's values built to keep the last (array_agg of json_build_array)
 * was a tenth of the large account's export CPU (embedded: its pages 851 ms, 754 ms without).
 * Each row is an object whose first member is the source's first column, and `{"` occurs nowhere
 * else in rows without jsonb columns (inside a JSON string a quote is always escaped as `\"`), so
 * the last `{"firstColumn":` starts the last row.
 */
function lastRowKeys(text: string, source: Source): unknown[] {
  const row = JSON.parse(text.slice(text.lastIndexOf(`{${JSON.stringify(camel(source.columns[0]!))}:`))) as Record<
    string,
    unknown
  >;
  return source.order.map((c) => row[camel(c)]);
}

function pageQuery(uuid: string, source: Source, after: unknown[] | null, size: number) {
  // Named as the document names them (camelCase), so a page's rows are written as they come.
  const columns = list(source.columns, (c) =>
    c === "day"
      ? sql`${sql.identifier(c)}::text as day`
      : c === "key" && source.pinned
        ? sql`t.key, (select k.kind from counter_keys k where k.key = t.key) as kind`
        : sql`${sql.identifier(c)} as ${sql.identifier(camel(c))}`,
  );
  const keyset = after
    ? sql` and (${list(source.order)}) > (${sql.join(
        after.map((v) => sql`${v}`),
        sql`, `,
      )})`
    : sql``;
  // Ordered by the table's columns (`t.day`, a date), not the output's `day` (text), which no index holds.
  const order = list(source.order, (c) => sql`t.${sql.identifier(c)}`);
  return sql`select ${columns} from ${sql.identifier(source.table)} t where uuid = ${uuid}${keyset} order by ${order} limit ${size}`;
}
