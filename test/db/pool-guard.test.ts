// A Postgres that stops answering without closing anything: a row lock held by an operator's
// session. The service's waits are bounded (DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_ACQUIRE_TIMEOUT_MS),
// the refusal is database_unavailable, the waiting transaction leaves nothing behind, and the pool
// serves again the moment the lock goes. (A frozen server, SIGSTOP, is the fault runner's scenario 6.)
// Postgres only: the embedded database has one connection and no other session to hold a lock.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { sql } from "drizzle-orm";
import { connectPostgres } from "../../src/db/connect-postgres.ts";
import { rows, type Database } from "../../src/db/database.ts";
import { DatabaseTimeout } from "../../src/db/pool-guard.ts";
import { isDatabaseDown } from "../../src/db/errors.ts";
import { createPostgresDatabase, postgresUrl } from "../support/db.ts";

const STATEMENT_MS = 400;
const ACQUIRE_MS = 300;

describe.skipIf(!postgresUrl)("bounded waits on a stuck Postgres", () => {
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let database: Database;
  let operator: postgres.Sql;

  beforeAll(async () => {
    created = await createPostgresDatabase();
    database = await connectPostgres(created.url, 3, true, {
      statementTimeoutMs: STATEMENT_MS,
      acquireTimeoutMs: ACQUIRE_MS,
    });
    operator = postgres(created.url, { max: 1, onnotice: () => {} });
    await operator`create table t (id int primary key, v int not null)`;
    await operator`insert into t values (1, 0)`;
  });
  afterAll(async () => {
    await operator?.end();
    await database?.close();
    await created?.drop();
  });

  const elapsed = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    const error = await fn().then(
      () => null,
      (e: unknown) => e,
    );
    return { error, ms: performance.now() - t0 };
  };

  test("a transaction blocked on a lock another session holds is refused in bounded time, whole", async () => {
    const held = operator.reserve();
    const op = await held; // the operator's one connection, until released
    await op`begin`;
    await op`update t set v = 100 where id = 1`;
    try {
      const { error, ms } = await elapsed(() =>
        database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into t values (2, 2)`);
          await tx.execute(sql`update t set v = v + 1 where id = 1`); // waits on the operator's lock
        }),
      );
      expect(isDatabaseDown(error)).toBe(true); // answered 503 database_unavailable, Retry-After
      expect(ms).toBeLessThan(STATEMENT_MS + 500 + 2000);
      // Nothing of it stayed: the row inserted before the blocked statement was rolled back.
      expect(await op`select id from t where id = 2`).toHaveLength(0);
    } finally {
      await op`rollback`;
      op.release();
    }
    // The pool is not wedged: the same connections serve at once.
    const [row] = await rows<{ v: number }>(database.db, sql`update t set v = v + 1 where id = 1 returning v`);
    expect(row!.v).toBe(1);
  });

  test("when every connection is stuck, more work waits for a connection only the acquire timeout", async () => {
    const held = await operator.reserve();
    await held`begin`;
    await held`lock table t in access exclusive mode`;
    try {
      // Three stuck statements take the pool of three; the fourth never reaches postgres.js's queue.
      const stuck = [1, 2, 3].map(() => elapsed(() => database.db.execute(sql`select count(*) from t`)));
      await Bun.sleep(50);
      const fourth = await elapsed(() => database.db.execute(sql`select 1`));
      const cause = (fourth.error as { cause?: unknown }).cause; // drizzle wraps what the driver threw
      expect(cause).toBeInstanceOf(DatabaseTimeout);
      expect((cause as DatabaseTimeout).what).toBe("acquire");
      expect(fourth.ms).toBeLessThan(ACQUIRE_MS + 1000);
      for (const s of await Promise.all(stuck)) expect(isDatabaseDown(s.error)).toBe(true);
    } finally {
      await held`rollback`;
      held.release();
    }
    expect(await rows(database.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });
});
