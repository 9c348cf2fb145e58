// A report's line in another language (src/privacy/language.ts, issue 36 session 27): its words are
// not read as handles, its players still are. Every sentence here is a real one of the development
// part (test/privacy/corpus/names.jsonl and clean.jsonl, each with its source there).
import { describe, expect, test } from "bun:test";
import { foreignPersonBefore, languageRules, lineLanguage, wordBefore } from "../../src/privacy/language.ts";
import { scrubText } from "../../src/privacy/scrub.ts";
import { cleanStrings, gameWords, nameLines, stillThere } from "./corpus.ts";
import { scrubKey } from "./scrub-corpus.ts";

/** A development sentence by its text: it must be in the corpus, with its source. */
function corpus(text: string): string {
  const line = cleanStrings.find((c) => c.text === text) ?? nameLines.find((l) => l.text === text);
  if (!line?.source) throw new Error(`not in the development corpus: ${text}`);
  return line.text;
}

const scrub = (text: string) => scrubText(scrubKey, text, { gameWords });

describe("lineLanguage", () => {
  test("reads a player's sentence in Polish, Portuguese, German or French as another language", () => {
    // Close languages share function words ("na", "bez": Polish or Czech); only "not English" is used.
    for (const text of [
      "Na poprzedniej wersji mogę wbić bez problemu.",
      "quando e o proximo patch de correções?",
      "Feuer kann auf gegnerischem Gildengebiet ausgemacht werden",
      "Il est possible de miner tous les minerais moddées avec une pioche en bois.",
    ])
      expect({ text, language: lineLanguage(corpus(text)) || "English" }).not.toEqual({ text, language: "English" });
    expect(lineLanguage(corpus("Feuer kann auf gegnerischem Gildengebiet ausgemacht werden"))).toBe("deu");
  });

  test("answers English for an English sentence, even with words other languages share", () => {
    expect(lineLanguage(corpus("When you're in a party, it levels the mcmmo skill hard"))).toBe("");
    expect(lineLanguage("No player(s) matched selector: Steve")).toBe("");
    expect(lineLanguage("Oh snap! That warp no longer exists!")).toBe("");
    // "will" is German's, "see" Estonian's, "one" Polish's function word too; "don't" ends in "t".
    expect(lineLanguage("I will see that one, don't worry")).toBe("");
  });

  test("cannot tell for a line with no function word of any language, nor for code", () => {
    expect(lineLanguage(corpus("Logi czyste"))).toBeUndefined();
    expect(lineLanguage("ULTIMATE_NO_PAIN_NO_GAIN;1")).toBeUndefined();
  });
});

describe("wordBefore", () => {
  test("finds the word its rule finds, at every place of every corpus line and of edge cases", () => {
    const rule = languageRules.find((r) => r.name === "language_word_before")!.pattern;
    const texts = [...nameLines, ...cleanStrings].map((l) => l.text);
    // Two spaces, three, a tab, a letter outside the BMP, a run longer than the rule's 22 letters.
    texts.push("gracz  Kubus", "gracz   Kubus", "joueur\tX", "𝒜gracz X", `${"a".repeat(23)} X`, `${"ß".repeat(22)} X`);
    let differ = 0;
    let found = 0;
    for (const text of texts)
      for (let at = 0; at <= text.length; at++) {
        const expected = rule.exec(text.slice(Math.max(0, at - 24), at))?.[1];
        if (expected !== undefined) found++;
        if (wordBefore(text, at) !== expected) differ++;
      }
    expect({ differ, someFound: found > 1000 }).toEqual({ differ: 0, someFound: true });
  });
});

describe("a report's line in another language", () => {
  test("keeps its words: before, a Polish sentence lost nearly every word to pseudonyms", () => {
    for (const text of [
      "Na poprzedniej wersji mogę wbić bez problemu.",
      "Testowałeś bez innych pluginów?",
      "Feuer kann auf gegnerischem Gildengebiet ausgemacht werden",
      "quando e o proximo patch de correções?",
    ])
      expect(scrub(corpus(text))).toBe(text);
  });

  test("a line too short to tell takes its report's language, on a line that names a player too", () => {
    // The strict reading of a naming line (scrub.ts strictLines) once read such a line as English,
    // and took its capitalised word ("Pomuzcie", "help me") for a second player.
    const report = `${corpus("Na poprzedniej wersji mogę wbić bez problemu.")}\nTomek2734 Pomuzcie`;
    expect(stillThere(scrub(report), "Tomek2734")).toBe(false);
    expect(scrub(report)).toEndWith(" Pomuzcie");
    // In an English report the same line's capitalised word is read as a second player's.
    expect(
      scrub(`${corpus("When you're in a party, it levels the mcmmo skill hard")}\nTomek2734 Pomuzcie`),
    ).not.toContain("Pomuzcie");
  });

  test("still replaces a handle with a name's mark and a player after the language's word for one", () => {
    const kills = corpus("Nie pisze mi jak kogos zabije czyli Np Tomek2734 zabil (34+) Pllayer (-34) Pomuzcie");
    expect(stillThere(scrub(kills), "Tomek2734")).toBe(false);
    expect(scrub(kills)).toContain("Nie pisze mi jak kogos zabije");
    for (const [text, name] of [
      [
        "Gracz smonv ma 0 smierci i zabojst, a ma 502 pkt(domyslnie 500), po jakims czasie dodaje pkt graczom ;o",
        "smonv",
      ],
      ["Wenn Spieler Simoyd einer Gilde beitritt steht: Du wurdest degradiert!", "Simoyd"],
      ["sou eu de novo, como faz para jogar com meu amigo cossio", "cossio"],
    ] as const)
      expect({ name, left: stillThere(scrub(corpus(text)), name) }).toEqual({ name, left: false });
  });

  test("a line too short to tell is read in the language of the report it stands in", () => {
    const short = corpus("Logi czyste");
    expect(scrub(short)).not.toBe(short); // alone, its words look like handles
    const report = `${corpus("Na poprzedniej wersji mogę wbić bez problemu.")}\n${short}`;
    expect(scrub(report)).toBe(report);
  });

  test("a word for a player, a friend or a nick is read only right before the name", () => {
    const text = "Spieler silwol ist weg";
    expect(foreignPersonBefore(text, text.indexOf("silwol"))).toBe(true);
    expect(foreignPersonBefore(text, text.indexOf("ist"))).toBe(false);
  });
});
