// Bug intake looks a report's words up as players' names (src/privacy/known-names.ts, issue 36). A
// stranger's report must not make that look-up cost what the report holds: at most
// MOST_NAMES_LOOKED_UP words are asked for, in one query of each table, and picking them is linear.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { MOST_NAMES_LOOKED_UP, nameCandidates } from "../../src/privacy/known-names.ts";
import { testDatabase } from "../support/db.ts";
import type { Database } from "../../src/db/database.ts";
import { loopbackFetch, testApp } from "../support/app.ts";
import { report } from "../reports/report.ts";
import { hostile, time } from "./hostile-text.ts";
import { accountNamesAmong } from "../../src/accounts/accounts.ts";
import { cachedNamesAmong } from "../../src/profiles/caches.ts";
import { receiveReport } from "../../src/reports/intake.ts";

setDefaultTimeout(30_000);

/** `n` distinct handles no dictionary holds: "qzv0aa", "qzv0ab", ... */
const handles = (n: number) => Array.from({ length: n }, (_, i) => `qzv${i.toString(36).padStart(4, "0")}x`);

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

describe("a report's words looked up as players' names", () => {
  test(`are at most ${MOST_NAMES_LOOKED_UP}, however many distinct unknown words the report holds`, () => {
    const words = handles(4000);
    const picked = nameCandidates({ title: "x", message: words.slice(0, 400).join(" "), stackTrace: words.join("\n") });
    expect(picked.length).toBe(MOST_NAMES_LOOKED_UP);
    // The report's own words first: the message's 400 are all asked for.
    expect(picked.slice(0, 400)).toEqual(words.slice(0, 400));
  });

  test.each(hostile)("are picked in linear time from %s", (_what, text) => {
    expect(time(() => nameCandidates({ title: "x", message: text, stackTrace: text }))).toBeLessThan(250);
  });

  test("the intake asks each table once, with at most that many words, for the largest report it takes", async () => {
    const t = await testApp({ database, fetch: loopbackFetch });
    try {
      const asked: number[] = [];
      const deps = {
        db: t.db,
        clock: t.clock,
        config: t.config,
        pseudonymKey: async () => "a-test-key-that-is-long-enough-0123456789",
        knownPlayers: async (words: string[]) => {
          asked.push(words.length);
          return new Set([...(await accountNamesAmong(t.db, words)), ...(await cachedNamesAmong(t.db, words))]);
        },
      };
      const words = handles(6000);
      const body = report({
        title: words.slice(0, 20).join(" "),
        message: words.slice(20, 500).join(" ").slice(0, 4000),
        steps: words.slice(500, 1000).join(" ").slice(0, 4000),
        stackTrace: words.slice(1000).join(" ").slice(0, 32768),
      });
      await receiveReport(deps, "general", body as Parameters<typeof receiveReport>[2]);
      expect(asked).toEqual([MOST_NAMES_LOOKED_UP]);
    } finally {
      await t.close();
    }
  });
});
