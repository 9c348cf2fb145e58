// Structured JSON logs, one object per line. Every line a request causes carries its request id.
export type Level = "debug" | "info" | "warn" | "error";
import { systemClock } from "./clock.ts";

const rank: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type Fields = Record<string, unknown>;
export type Log = {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  /** A logger whose every line also carries these fields. */
  child(fields: Fields): Log;
};

type ErrorLike = Error & { code?: unknown; cause?: unknown; query?: unknown; params?: unknown };

/**
 * An error as a log field: its name, message, code and stack, and what it wraps (`cause`, a few
 * deep: a failed statement's cause is the database's own error, a disk that is full says how full).
 * Drizzle's query error ends its message with the statement's parameters, which hold what a request
 * sent (token hashes, names): only the statement is logged, and its stack (Drizzle's own frames).
 */
function serialise(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  const e = value as ErrorLike;
  const failedQuery = typeof e.query === "string" && Array.isArray(e.params);
  return {
    name: e.name,
    message: failedQuery ? `Failed query: ${e.query}` : e.message,
    ...(typeof e.code === "string" ? { code: e.code } : {}),
    ...(failedQuery ? {} : { stack: e.stack }),
    ...(e.cause !== undefined && depth < 3 ? { cause: serialise(e.cause, depth + 1) } : {}),
  };
}

export function createLog(
  opts: { level?: Level; write?: (line: string) => void; now?: () => number; base?: Fields } = {},
): Log {
  const min = rank[opts.level ?? "info"];
  const write = opts.write ?? ((line: string) => process.stdout.write(line + "\n"));
  const now = opts.now ?? systemClock.now;
  const base = opts.base ?? {};
  const emit = (level: Level) => (msg: string, fields?: Fields) => {
    if (rank[level] < min) return;
    const record: Fields = { time: new Date(now()).toISOString(), level, msg, ...base };
    for (const [k, v] of Object.entries(fields ?? {})) record[k] = serialise(v);
    write(JSON.stringify(record));
  };
  return {
    debug: emit("debug"),
    info: emit("info"),
    warn: emit("warn"),
    error: emit("error"),
    child: (fields) => createLog({ ...opts, base: { ...base, ...fields } }),
  };
}

/** A log that keeps its records in memory (tests assert on what was logged). */
export function memoryLog(level: Level = "debug") {
  const lines: Fields[] = [];
  const log = createLog({ level, write: (line) => lines.push(JSON.parse(line)) });
  return Object.assign(log, { lines });
}
