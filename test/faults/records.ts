// The idempotency records (ingest_batches) of the scenario's accounts, read straight from the
// database once the service has stopped: one record per batchId, each holding its stored answer.
import { join } from "node:path";
import postgres from "postgres";
import { openPglite } from "../../src/db/connect-embedded.ts";

export type Records = { records: number; withoutAnswer: number; distinctBatches: number };

const QUERY = `select count(*)::int as records, count(*) filter (where answer is null)::int as "withoutAnswer",
  count(distinct (uuid, batch_id))::int as "distinctBatches" from ingest_batches where uuid = any($1::text[])`;

/** `where`: a Postgres URL, or a DATA_DIR whose service is stopped. */
export async function batchRecords(where: string, uuids: string[]): Promise<Records> {
  if (/^postgres(ql)?:/.test(where)) {
    const sql = postgres(where, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql.unsafe<Records[]>(QUERY, [uuids]);
      return row!;
    } finally {
      await sql.end();
    }
  }
  const pg = await openPglite(join(where, "pg"));
  try {
    return (await pg.query<Records>(QUERY, [uuids])).rows[0]!;
  } finally {
    await pg.close();
  }
}
