// Array parameters built as literals (src/db/array-param.ts) must reach Postgres as exactly the
// arrays given, whatever the elements hold: quotes, backslashes, commas, braces, blanks, the word
// NULL, non-ASCII text, SQL NULL, negative and large safe integers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { integerArray, integerArrayLiteral, textArray } from "../../src/db/array-param.ts";
import { rows, type Database } from "../../src/db/database.ts";
import { testDatabase } from "../support/db.ts";

describe("array parameters as literals", () => {
  let database: Database;
  beforeAll(async () => {
    database = await testDatabase();
  });
  afterAll(() => database.close());
  const db = () => database.db;

  // Read back element by element (unnest in order), so no driver's array parser is in the way.
  const roundTrip = async (texts: (string | null)[], ints: (number | null)[]) => ({
    texts: (
      await rows<{ v: string | null }>(
        db(),
        sql`select t.v from unnest(${textArray(texts)}::text[]) with ordinality as t(v, i) order by t.i`,
      )
    ).map((r) => r.v),
    ints: (
      await rows<{ v: number | null }>(
        db(),
        sql`select t.v from unnest(${integerArray(ints)}::bigint[]) with ordinality as t(v, i) order by t.i`,
      )
    ).map((r) => (r.v === null ? null : Number(r.v))),
  });

  test("text arrays keep every element as given", async () => {
    const texts = [
      "mining.ore.iron",
      'a "quoted" key',
      "back\\slash",
      "\\",
      '"',
      "a,b",
      "{braces}",
      " leading and trailing ",
      "NULL",
      "null",
      "",
      "Ünïcødé ✓ 日本",
      null,
      "§6colour§r",
    ];
    expect((await roundTrip(texts, [])).texts).toEqual(texts);
  });

  test("the fast path (no quote, backslash or null) and the empty array", async () => {
    expect((await roundTrip(["a", "b.c", "d e"], [])).texts).toEqual(["a", "b.c", "d e"]);
    expect((await roundTrip([], [])).texts).toEqual([]);
    // One element that needs escaping among plain ones takes the quoting path, wherever it is.
    for (const odd of ['say "hi"', "back\\slash"]) {
      expect((await roundTrip(["a", "b", odd], [])).texts).toEqual(["a", "b", odd]);
      expect((await roundTrip([odd, "a"], [])).texts).toEqual([odd, "a"]);
    }
  });

  test("integer arrays keep every value, null included", async () => {
    const ints = [0, 1, -1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, null, 42];
    expect((await roundTrip([], ints)).ints).toEqual(ints);
    expect((await roundTrip([], [5, 6])).ints).toEqual([5, 6]);
  });

  test("a value that is not a safe integer is refused before it is sent", () => {
    expect(() => integerArrayLiteral([1, 1.5])).toThrow(/not a safe integer/);
    expect(() => integerArrayLiteral([2 ** 53])).toThrow(/not a safe integer/);
    expect(() => integerArrayLiteral([Number.NaN])).toThrow(/not a safe integer/);
  });
});
