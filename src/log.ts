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

function serialise(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
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
