// The pseudonym key: PSEUDONYM_KEY when set, else one generated once and kept in the database, so
// every instance and every restart gives a name the same pseudonym.
import { afterAll, describe, expect, test } from "bun:test";
import { pseudonymKey } from "../../src/privacy/pseudonym.ts";
import { testDatabase } from "../support/db.ts";
import { fakeClock } from "../../src/clock.ts";

const database = await testDatabase();
afterAll(() => database.close());
const clock = fakeClock();

describe("pseudonymKey", () => {
  test("without PSEUDONYM_KEY, the first instance generates a key and every later one gets the same", async () => {
    const first = await pseudonymKey({ db: database.db, clock, config: { pseudonymKey: "" } });
    const [a, b] = await Promise.all(
      [1, 2].map(() => pseudonymKey({ db: database.db, clock, config: { pseudonymKey: "" } })),
    );
    expect(first.length).toBeGreaterThanOrEqual(40);
    expect(a).toBe(first);
    expect(b).toBe(first);
  });

  test("PSEUDONYM_KEY, when set, is the key", async () => {
    const configured = "k".repeat(40);
    expect(await pseudonymKey({ db: database.db, clock, config: { pseudonymKey: configured } })).toBe(configured);
  });
});
