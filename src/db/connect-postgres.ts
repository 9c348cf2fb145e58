// Postgres over DATABASE_URL (postgres.js): the pool, its reconnect backoff, prepared statements,
// and the two waits (a free connection, one answer) guarded by pool-guard.ts.
import postgres, { type Sql } from "postgres";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { Database, Db } from "./database.ts";
import * as schema from "./schema.ts";
import { guardedClient } from "./pool-guard.ts";

export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "****";
    return u.toString();
  } catch {
    return "(unparseable url)";
  }
}

/**
 * Seconds a pooled connection waits before connecting again after a failed attempt. postgres.js
 * counts failures across the whole pool and by default waits up to 20 s (3^n / 100), so a few
 * seconds of outage left every request waiting 10-20 s after Postgres was back. Capped at 1 s
 * (jittered, so several instances do not knock at once): while Postgres is down a request is
 * answered 503 within about a second, and once it is back the service serves within about one.
 */
const reconnectBackoff = (failures: number) => (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** failures, 1);

/**
 * drizzle's postgres.js adapter runs every statement unprepared (drizzle-orm issue 6096), which
 * postgres.js sends as two round trips (describe, then execute), and Postgres parses each twice.
 * The statements here are fixed texts (values travel as parameters and arrays), so each connection
 * prepares each text once. Transactions and savepoints hand out clients wrapped the same way.
 */
function preparingStatements<T extends Sql>(client: T): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "unsafe") {
        return (query: string, params?: unknown[], options?: object) =>
          target.unsafe(query, params as never, { ...options, prepare: true });
      }
      if (prop === "begin" || prop === "savepoint") {
        return (...args: unknown[]) => {
          const body = args.pop() as (tx: Sql) => unknown;
          return (value as (...a: unknown[]) => unknown).call(target, ...args, (tx: Sql) =>
            body(preparingStatements(tx)),
          );
        };
      }
      return value;
    },
  });
}

/** Waits on Postgres (pool-guard.ts): a free connection, and one round trip (also Postgres's statement_timeout). */
export type PostgresTimeouts = { acquireTimeoutMs: number; statementTimeoutMs: number };
const defaultTimeouts: PostgresTimeouts = { acquireTimeoutMs: 5000, statementTimeoutMs: 30_000 };

/** The caller waits this much longer than Postgres's own statement_timeout, so a live server's cancel is what it sees. */
const STATEMENT_GRACE_MS = 500;

export async function connectPostgres(
  url: string,
  poolMax: number,
  prepare = true,
  timeouts: PostgresTimeouts = defaultTimeouts,
): Promise<Database> {
  const client = postgres(url, {
    max: poolMax,
    onnotice: () => {},
    connect_timeout: 10,
    backoff: reconnectBackoff,
    // Prepared statements keep a plan for each parameter set (custom plans): a generic plan would
    // guess the size of an unnest'ed array, and uploads range from one row to thousands. Measured
    // (bench/ingest-cost.ts, live 600-row upload): planning is 1.7-1.8 ms of its 7.5 ms of Postgres
    // CPU; generic plans ("auto") planned in 0.6 ms but executed 0.3-0.6 ms slower, and a generic
    // plan sized for 10 rows may join 10 000 by nested loops. Kept.
    connection: {
      application_name: "tally",
      statement_timeout: timeouts.statementTimeoutMs,
      // No JIT: every statement here is short, and a plan priced high by a planner setting (a
      // forbidden nested loop costs 10^10) spent seconds compiling a one-row answer (issue 40).
      jit: "off",
      ...(prepare ? { plan_cache_mode: "force_custom_plan" } : {}),
    },
    // int8 as a JavaScript number, as PGlite answers it: every stored value is a safe integer
    // (contract 1.2), and both backends must fold to the same bytes.
    types: {
      int8: { to: 20, from: [20], parse: (x: string) => Number(x), serialize: (x: number | bigint) => String(x) },
    },
  });
  await client`select 1`; // fail at start, not on the first request
  const guarded = guardedClient(prepare ? preparingStatements(client) : client, {
    poolMax,
    acquireTimeoutMs: timeouts.acquireTimeoutMs,
    statementTimeoutMs: timeouts.statementTimeoutMs + STATEMENT_GRACE_MS,
  });
  return {
    db: drizzlePostgres(guarded, { schema }) as unknown as Db,
    kind: "postgres",
    where: maskUrl(url),
    close: () => client.end({ timeout: 5 }),
  };
}
