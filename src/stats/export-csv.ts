// The CSV export (issue 16): one line per (profile, key, day) with the day's value, its installs
// folded by kind as every read folds them, with the key's kind and unit (a gauge also with the
// day's low and high). RFC 4180: a header line, CRLF line ends, a field with a comma, a quote or a
// line break in double quotes with its quotes doubled. Streamed a page at a time like the JSON
// export (export.ts): each page is its own short read, and other requests are served between pages.
//
// Spreadsheets run a cell that starts with `=`, `+`, `-` or `@` (or tab, CR, LF) as a formula
// (CWE-1236; OWASP "CSV Injection"). The key grammar keeps those from starting a key, but a key may
// hold `;` then `+` or `-`, which a spreadsheet splitting at `;` (the separator in many locales)
// would start a cell with, and display names come from a catalogue an operator may replace. So a
// field holding `;` or a tab is quoted (a CSV parser reads it unchanged), and a field that starts
// with one of those characters and is not a plain number gets a leading `'`, quoted (a spreadsheet
// shows it as text; a parser reads the `'`). Numbers, negative ones too, are written as they are:
// a number is no formula, and a parser must read it back.
import type { Db } from "../db/database.ts";
import { csvPage, type CsvRow, type Group } from "./export-csv.query.ts";
import { pageTurns, textStream } from "./export.ts";

export const CSV_COLUMNS = ["profile", "profile_name", "key", "kind", "unit", "day", "value", "low", "high"] as const;

const FORMULA_START = /^[=+\-@\t\r\n]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/** One field as RFC 4180 writes it, a spreadsheet formula made text (see above). */
export function csvField(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  const formula = FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
  const field = formula ? `'${text}` : text;
  return formula || /[",;\t\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}

const line = (fields: (string | number | null)[]) => `${fields.map(csvField).join(",")}\r\n`;

const rowLine = (r: CsvRow) =>
  line([
    r.profile_id,
    r.cute_name,
    r.key,
    r.kind,
    r.unit,
    r.day,
    r.value,
    r.kind === "gauge" ? r.low : null,
    r.kind === "gauge" ? r.high : null,
  ]);

/**
 * The account's day rows as CSV, a stream of UTF-8 chunks: a page of `pageRows` stored rows (and
 * the rest of its last group) at a time. `end` is called once the stream ends, fails or is cancelled.
 */
export function csvStream(db: Db, uuid: string, pageRows: number, end?: () => void): ReadableStream<Uint8Array> {
  async function* chunks() {
    const betweenPages = pageTurns(db);
    yield line([...CSV_COLUMNS]);
    let from: Group | null = null;
    for (;;) {
      const page = await csvPage(db, uuid, from, pageRows);
      if (page.rows.length > 0) yield page.rows.map(rowLine).join("");
      if (!page.end) break;
      from = page.end;
      await betweenPages();
    }
  }
  return textStream(chunks(), end);
}

/** The headers of a CSV download for an account. */
export const csvHeaders = (uuid: string) => ({
  "content-type": "text/csv; charset=utf-8; header=present",
  "content-disposition": `attachment; filename="tally-days-${uuid}.csv"`,
  "cache-control": "no-store",
});
