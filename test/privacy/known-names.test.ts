// Names this instance knows are players' (src/privacy/known-names.ts, issue 36): which of a report's
// words are looked up, and how a name found so is replaced. The database side is
// test/reports/known-players.test.ts; the bound, test/security/known-names.test.ts.
import { describe, expect, test } from "bun:test";
import { nameCandidates, playerNamesIn } from "../../src/privacy/known-names.ts";
import { scrubFields } from "../../src/privacy/scrub.ts";
import { pseudonym } from "../../src/privacy/pseudonym.ts";
import { gameWords } from "./corpus.ts";

const KEY = "a-test-key-that-is-long-enough-0123456789";

describe("nameCandidates", () => {
  test("asks for the words nothing knows, lower-case and once, in the order they stand", () => {
    const fields = {
      title: "Crash after Tezkerek joined",
      message: "then helped Tezkerek and tezkerek_2, the Hyperion broke",
      steps: undefined,
    };
    expect(nameCandidates(fields, gameWords)).toEqual(["tezkerek", "tezkerek_2"]);
  });

  test("reads no stack frame, no word longer than a name, and no number", () => {
    const stackTrace = [
      "java.lang.NullPointerException: Zorvath",
      "\tat dev.mod.Quintrix.tick(Quintrix.java:3)",
      "seed 1234567 and aVeryLongIdentifierOfThirtyChars",
    ].join("\n");
    expect(nameCandidates({ stackTrace }, gameWords)).toEqual(["zorvath"]);
  });
});

describe("a report's words that are known players' names", () => {
  test("are replaced wherever they stand as a word of free text, in every field, as the rules' names are", () => {
    const players = new Set(["tezkerek"]);
    const { fields, names } = scrubFields(
      KEY,
      {
        title: "Scythes gone after helping Tezkerek",
        message: "then helped TEZKEREK, then the server crashed",
        stackTrace: "java.lang.IllegalStateException: no party\n\tat dev.mod.Tezkerek.run(Tezkerek.java:9)",
      },
      { gameWords, players },
    );
    expect(names).toBe(2); // the name as written twice: each its own pseudonym of the same lower-case name
    expect(fields.title).toBe(`Scythes gone after helping ${pseudonym(KEY, "Tezkerek")}`);
    expect(fields.message).toBe(`then helped ${pseudonym(KEY, "TEZKEREK")}, then the server crashed`);
    expect(pseudonym(KEY, "TEZKEREK")).toBe(pseudonym(KEY, "Tezkerek"));
    // A stack frame keeps its Java names.
    expect(fields.stackTrace).toContain("dev.mod.Tezkerek.run(Tezkerek.java:9)");
  });

  test("playerNamesIn finds each name as it is written", () => {
    expect([...playerNamesIn("Tezkerek and tezkerek, not Tezkerek_2", new Set(["tezkerek"]))]).toEqual([
      "Tezkerek",
      "tezkerek",
    ]);
  });
});
