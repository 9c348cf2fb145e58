// What a database error means, in one place. postgres.js, PGlite and Drizzle each wrap the error
// they got (Drizzle's query error keeps the driver's in `.cause`), so every test here walks the
// same short chain of causes and reads its `code`: a Postgres SQLSTATE or a driver's socket code.

/** The code of an error and of each error it wraps, outermost first (at most `depth` deep). */
function codesOf(error: unknown, depth = 5): (string | undefined)[] {
  const codes: (string | undefined)[] = [];
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined;
    e && codes.length < depth;
    e = e.cause as typeof e
  ) {
    codes.push(typeof e.code === "string" ? e.code : undefined);
  }
  return codes;
}

const hasCode = (error: unknown, codes: ReadonlySet<string>, depth = 5) =>
  codesOf(error, depth).some((c) => c !== undefined && codes.has(c));

/** SQLSTATEs of a value past its column's or check's range (23514 check_violation, 22003 numeric_value_out_of_range). */
const outOfRangeCodes = new Set(["23514", "22003"]);

/** True when a database error (or one it wraps) says a value left its allowed range. */
export const isOutOfRange = (error: unknown) => hasCode(error, outOfRangeCodes);

/**
 * The connection is gone or refused, or the server is shutting down (57P01) or starting (57P03);
 * or it is busy or stuck: no connection free, or no answer, in time (DATABASE_TIMEOUT, from
 * src/db/pool-guard.ts), 57014 query_canceled (statement_timeout), 55P03 lock_not_available,
 * 53300 too_many_connections.
 */
const connectionCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "CONNECTION_DESTROYED",
  "57P01",
  "57P03",
  "DATABASE_TIMEOUT",
  "57014",
  "55P03",
  "53300",
]);

/** True for errors meaning "Postgres is not there right now" (answered 503, not 500). */
export const isDatabaseDown = (error: unknown) => hasCode(error, connectionCodes);

/** 53100 disk_full (Postgres, or PGlite's "could not extend file": No space left on device), or a write's own ENOSPC. */
const storageFullCodes = new Set(["53100", "ENOSPC"]);

/** True when the database (or a file write) failed for want of disk space: answered 503 storage_full, not 500. */
export const isStorageFull = (error: unknown) => hasCode(error, storageFullCodes);

/**
 * At start-up: DATABASE_URL names no reachable server (refused, unknown host, timeout), no such
 * database (3D000), or the server refused the credentials (28P01, 28000). Read on the error itself.
 */
const cannotConnectCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "CONNECT_TIMEOUT", "3D000", "28P01", "28000"]);

export const isCannotConnect = (error: unknown) => hasCode(error, cannotConnectCodes, 1);

/** 42P01 undefined_table: the database has not been migrated this far (read on the error and its cause). */
export const isMissingTable = (error: unknown) => hasCode(error, new Set(["42P01"]), 2);
