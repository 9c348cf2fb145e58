// Bounds every wait on Postgres, so a database that stops answering without closing anything (a
// frozen server, a stalled disk, a network partition, a lock held by another session) costs a
// request a bounded time and the process bounded memory, and never wedges the pool.
//
// - Acquire: at most `poolMax` units (a statement outside a transaction, or a whole transaction)
//   are handed to postgres.js at once; a unit waits for a slot at most `acquireTimeoutMs`, then
//   fails with DatabaseTimeout (answered 503 database_unavailable). postgres.js itself has no such
//   limit: it queued every request (and its parsed body) for as long as the server was frozen.
// - Statement: the caller waits at most `statementTimeoutMs` for any one round trip (a statement,
//   the begin of a transaction, its commit); Postgres gets the same value as statement_timeout, so a
//   live server cancels a statement stuck on a lock itself. A frozen server cancels nothing: the
//   caller is told DatabaseTimeout and the unit keeps its slot until Postgres really answers (the
//   transaction then commits whole or rolls back whole, never in part), so a frozen pool refuses
//   new work quickly instead of piling it up.
import type { Sql } from "postgres";

export class DatabaseTimeout extends Error {
  override name = "DatabaseTimeout";
  /** Classified with the connection failures (database_unavailable, 503 with Retry-After). */
  readonly code = "DATABASE_TIMEOUT";
  constructor(
    readonly what: "acquire" | "statement",
    readonly ms: number,
  ) {
    super(
      what === "acquire"
        ? `no database connection free within ${ms} ms`
        : `the database did not answer within ${ms} ms`,
    );
  }
}

export type GuardOptions = { poolMax: number; acquireTimeoutMs: number; statementTimeoutMs: number };

/** What /metrics or a test may read: units running, units waiting, timeouts so far. */
export type GuardState = { running: number; waiting: number; acquireTimeouts: number; statementTimeouts: number };

function slots(max: number, timeoutMs: number, state: GuardState) {
  const waiting: { grant: () => void; timer: Timer }[] = [];
  const acquire = () =>
    new Promise<void>((resolve, reject) => {
      if (state.running < max) {
        state.running++;
        return resolve();
      }
      const entry = {
        grant: () => {
          clearTimeout(entry.timer);
          state.running++;
          resolve();
        },
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          state.waiting = waiting.length;
          state.acquireTimeouts++;
          reject(new DatabaseTimeout("acquire", timeoutMs));
        }, timeoutMs),
      };
      waiting.push(entry);
      state.waiting = waiting.length;
    });
  const release = () => {
    state.running--;
    const next = waiting.shift();
    state.waiting = waiting.length;
    next?.grant();
  };
  return { acquire, release };
}

/** Settles like `work`, or rejects with DatabaseTimeout after `ms` (the work itself goes on). */
function deadline<T>(work: PromiseLike<T>, ms: number, state: GuardState, onTimeout?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      state.statementTimeouts++;
      onTimeout?.();
      reject(new DatabaseTimeout("statement", ms));
    }, ms);
    work.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}

type Query = PromiseLike<unknown> & {
  values(): Query;
  cancel(): void;
  active?: boolean;
  then: PromiseLike<unknown>["then"];
};

/**
 * Wraps a postgres.js client (or the client of a transaction, `inTx`) so that drizzle's calls
 * (`unsafe`, `begin`, `savepoint`) are bounded as described above.
 */
export function guardedClient<T extends Sql>(
  client: T,
  o: GuardOptions,
  state: GuardState = { running: 0, waiting: 0, acquireTimeouts: 0, statementTimeouts: 0 },
): T & { guardState: GuardState } {
  const pool = slots(o.poolMax, o.acquireTimeoutMs, state);

  /** A statement's query object whose awaiting is bounded; outside a transaction it also takes a slot. */
  const bounded = (query: Query, inTx: { fail: (e: Error) => void } | null): Query => {
    const run = query.then.bind(query);
    let promise: Promise<unknown> | undefined;
    const start = () => {
      if (inTx)
        return deadline({ then: run }, o.statementTimeoutMs, state, () =>
          inTx.fail(new DatabaseTimeout("statement", o.statementTimeoutMs)),
        );
      return pool.acquire().then(() => {
        const settled = Promise.resolve({ then: run });
        settled.then(pool.release, pool.release);
        // A statement still queued in postgres.js when its time is up leaves the queue (cancel). One
        // already sent is left to Postgres's own statement_timeout: cancelling it would open one more
        // connection per statement, each left hanging while the server is frozen.
        return deadline(settled, o.statementTimeoutMs, state, () => query.active || query.cancel());
      });
    };
    query.then = ((ok, fail) => (promise ??= start()).then(ok, fail)) as Query["then"];
    return query;
  };

  const wrap = (target: Sql, inTx: { fail: (e: Error) => void } | null): Sql =>
    new Proxy(target, {
      get(t, prop, receiver) {
        const value = Reflect.get(t, prop, receiver);
        if (prop === "guardState") return state;
        if (prop === "unsafe")
          return (...args: unknown[]) => bounded((value as (...a: unknown[]) => Query).apply(t, args), inTx);
        if (prop === "savepoint") {
          return (...args: unknown[]) => {
            const body = args.pop() as (tx: Sql) => unknown;
            return (value as (...a: unknown[]) => unknown).call(t, ...args, (tx: Sql) => body(wrap(tx, inTx)));
          };
        }
        if (prop === "begin")
          return (...args: unknown[]) => transaction(t, value as (...a: unknown[]) => Promise<unknown>, args);
        return value;
      },
    });

  /**
   * A transaction: one slot for its whole life. The begin and the commit are bounded like a
   * statement; the time the application's own code runs between statements is not (a job holds
   * its lock transaction while it works through other connections).
   */
  const transaction = async (t: Sql, begin: (...a: unknown[]) => Promise<unknown>, args: unknown[]) => {
    await pool.acquire();
    const body = args.pop() as (tx: Sql) => unknown;
    let timer: Timer | undefined;
    let fail!: (e: Error) => void;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        state.statementTimeouts++;
        fail(new DatabaseTimeout("statement", o.statementTimeoutMs));
      }, o.statementTimeoutMs);
    };
    const disarm = () => clearTimeout(timer);
    arm(); // until the begin is answered and the body starts
    const work = begin.call(t, ...args, async (tx: Sql) => {
      disarm();
      const value = await body(wrap(tx, { fail }));
      arm(); // the commit
      return value;
    });
    work.then(pool.release, pool.release);
    try {
      return await Promise.race([work, failed]);
    } finally {
      disarm();
      failed.catch(() => {});
    }
  };

  return wrap(client, null) as T & { guardState: GuardState };
}
