// Array parameters as Postgres array literals, built with one join. Both drivers serialize an
// array parameter element by element (postgres.js and PGlite alike: a serializer call, two regex
// replaces and a concatenation per element); a string given for an array parameter passes through
// as it is. A 600-row upload's arrays cost the service 1.3 ms of its 8.4 ms of CPU that way
// (bench/ingest-cost.ts under --cpu-prof); built here, a few hundredths of that.
import { sql, type SQL } from "drizzle-orm";

const SPECIAL = /["\\]/;

/** Quotes one element: inside double quotes only `"` and `\` need a backslash. */
const quoted = (s: string) => `"${s.replace(/["\\]/g, "\\$&")}"`;

/**
 * A text[] literal; cast it in the statement (`${textArray(keys)}::text[]`). Every element is
 * quoted, so commas, braces, blanks and the word NULL stay text; null is SQL NULL.
 */
export function textArrayLiteral(xs: readonly (string | null)[]): string {
  if (xs.length === 0) return "{}";
  // The test reads the elements joined by a comma: joined by '","' it would always find a quote.
  if (!xs.includes(null) && !SPECIAL.test(xs.join(","))) return `{"${xs.join('","')}"}`;
  return `{${xs.map((x) => (x === null ? "NULL" : quoted(x))).join(",")}}`;
}

/**
 * A bigint[] (or int[]) literal of safe integers; null is SQL NULL. A value that is not an integer
 * is refused here rather than sent for Postgres to misread.
 */
export function integerArrayLiteral(xs: readonly (number | null)[]): string {
  for (const x of xs)
    if (x !== null && !Number.isSafeInteger(x)) throw new TypeError(`not a safe integer for an integer array: ${x}`);
  if (xs.length === 0) return "{}";
  return xs.includes(null) ? `{${xs.map((x) => (x === null ? "NULL" : String(x))).join(",")}}` : `{${xs.join(",")}}`;
}

/** The text[] parameter of a statement. */
export const textArray = (xs: readonly (string | null)[]): SQL => sql`${textArrayLiteral(xs)}`;

/** The integer-array parameter of a statement. */
export const integerArray = (xs: readonly (number | null)[]): SQL => sql`${integerArrayLiteral(xs)}`;
