// An error in the log: a failed statement is logged by its text and its cause, never by the values
// it carried (Drizzle's error message ends with them: a request's token hash, a player's name).
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { memoryLog } from "../../src/log.ts";
import { emptyDatabase } from "../support/db.ts";

describe("errors in the log", () => {
  test("a failed statement shows its text and the database's own error, not its parameters", async () => {
    const database = await emptyDatabase();
    const log = memoryLog();
    try {
      const secret = "Notch-and-his-token-hash-0123456789abcdef";
      const error = await database.db
        .execute(sql`select * from no_such_table where name = ${secret}`)
        .catch((e: unknown) => e);
      log.error("unhandled error", { error });
      const line = JSON.stringify(log.lines[0]);
      expect(line).not.toContain(secret);
      const logged = log.lines[0]!.error as { message: string; stack?: string; cause?: { code?: string } };
      expect(logged.message).toContain("select * from no_such_table where name = $1");
      expect(logged.stack).toBeUndefined();
      // The database's own error is there, with its SQLSTATE (42P01 undefined_table).
      expect(logged.cause?.code).toBe("42P01");
    } finally {
      await database.close();
    }
  });

  test("an error that wraps another keeps both messages, a few deep", () => {
    const log = memoryLog();
    let error: Error = Object.assign(new Error("disk"), { code: "ENOSPC" });
    for (let i = 0; i < 6; i++) error = new Error(`wrapper ${i}`, { cause: error });
    log.error("x", { error });
    const logged = log.lines[0]!.error as { message: string; cause?: unknown };
    expect(logged.message).toBe("wrapper 5");
    let depth = 0;
    for (let c = logged.cause as { cause?: unknown } | undefined; c; c = c.cause as typeof c) depth++;
    expect(depth).toBe(3);
  });
});
