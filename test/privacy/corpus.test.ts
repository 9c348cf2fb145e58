// The real-text corpus (issue 13), every line: each name a line carries is gone after scrubbing,
// with and without formatting codes, and the codes around it stay (but the development part's known
// misses, `miss`); ingest's denylist refuses every such line; no clean string (item ids and keys, item names and lore, mob names, NPC and system
// lines, profile names, islands, versions) is altered or refused.
import { describe, expect, test } from "bun:test";
import { families } from "../../src/privacy/families.ts";
import { findNames } from "../../src/privacy/find.ts";
import { findDenylisted } from "../../src/privacy/denylist.ts";
import { scrubFields, scrubText } from "../../src/privacy/scrub.ts";
import { isIdentifierPath } from "../../src/wire/envelope.ts";
import {
  cleanStrings,
  identifierFamilies,
  measureKey,
  nameLines,
  namesLeft,
  stillThere,
  altered,
  refused,
  heldOutBatches,
  type CleanString,
  type NameLine,
} from "./corpus.ts";

/** Both held-out batches (the second gathered after the rules were written). */
const [batch1, batch2, ...later] = heldOutBatches;
const heldOutNameLines = [...batch1!.names, ...batch2!.names];
const heldOutCleanStrings = [...batch1!.clean, ...batch2!.clean];

const codes = (s: string) => (s.match(/§./g) ?? []).join("");

describe("the corpus itself", () => {
  test("holds at least 600 lines with names, half of the game's with their formatting codes, each with its source", () => {
    expect(nameLines.length).toBeGreaterThanOrEqual(600);
    // Players' own words in a report (report_prose, session 26) carry no codes.
    const game = nameLines.filter((l) => l.family !== "report_prose");
    expect(game.filter((l) => l.text.includes("§")).length * 2).toBeGreaterThanOrEqual(game.length);
    expect(nameLines.filter((l) => !l.source || l.names.length === 0)).toEqual([]);
    for (const l of nameLines)
      for (const n of l.names) expect({ n, in: stillThere(l.text, n) }).toEqual({ n, in: true });
  });

  test("every held-out name stands as a word of its line (else the measure counts it replaced untouched)", () => {
    for (const b of heldOutBatches)
      for (const l of b.names)
        for (const n of l.names)
          expect({ batch: b.ordinal, n, in: stillThere(l.text, n) }).toEqual({ batch: b.ordinal, n, in: true });
  });

  test("holds at least 5 000 clean strings, every NEU item id bare and as a loot.item key", () => {
    expect(cleanStrings.length).toBeGreaterThanOrEqual(5000);
    const ids = cleanStrings.filter((s) => s.family === "item_id").map((s) => s.text);
    const keys = new Set(cleanStrings.filter((s) => s.family === "item_key").map((s) => s.text));
    expect(ids.length).toBeGreaterThan(8000);
    expect(ids.filter((id) => !keys.has(`loot.item.${id}`))).toEqual([]);
  });
});

describe("every line with a name", () => {
  test.each(nameLines.map((l) => [l.family, l.text, l]))(
    "[%s] %j: scrubbed, codes kept, refused at ingest",
    (_f, _t, line) => {
      // A known miss (`miss`, 22 names of 2 503) stays listed until a rule catches it.
      expect(namesLeft(line)).toEqual(line.miss ?? []);
      const out = scrubText(measureKey, line.text);
      expect(codes(out)).toBe(codes(line.text));
      // A text of one word is left to the families at ingest (denylist.ts: an upload's field holds no
      // sentences, and a word alone is a key or an id as often): a report that is a name alone ("HymasterPL").
      if (line.miss || !/\S\s+\S/.test(line.text)) return;
      expect(
        findDenylisted({ client: { modVersion: line.text } }, isIdentifierPath, { unknownWords: true }),
      ).toMatchObject({ path: "/client/modVersion" });
    },
  );
});

/**
 * Clean families past 1%, held at their count (session 26): log lines (19 of 673: the layer's
 * Pascal-case words of a Paper server's start and a Forge mod list, `LucraftCore`, `TickNextTick`),
 * plugin lines (6 of 350: two families' adverb and noun subjects, `Successfully protected`, `Limit
 * reached`, and lower-case compounds in a person's place), system lines (50 of 2 734: session 26
 * added 1 760 server plugins' and SkyBlock mods' and modules' lines, whose plugin, product and module
 * names in camel case, `QuickShop`, `ChestProtect`, `EliteMobs`, `ChatTriggers`, and misspellings,
 * `avalible`, are most of them; a rabbit's name as a sentence's subject, `BARN FULL! Olivette got
 * crushed!`), players' own words (77 of 571: session 26's 26 of 303 English sentences, misspellings,
 * `dubble`, `sghould`, another game's places, `Nemract`, `Cinfras`, slang, `tped`, `xpshare`, each a
 * word nothing knows with a handle's marks; and session 27's 51 of 268 sentences in Polish,
 * Portuguese, German and French, most too short for their language to show alone, `Logi czyste`,
 * `Merci beaucoup :)`: read in their report's language when one shows it; docs/decisions.md).
 */
const HELD: Record<string, number> = { log_line: 19, plugin_line: 6, system_line: 50, report_prose: 77 };

describe("every clean string", () => {
  const families = [...new Set(cleanStrings.map((s) => s.family))];
  test.each(families)("%s: none altered by the scrubber or refused at ingest", (family) => {
    const wrong = cleanStrings
      .filter((s) => s.family === family && (altered(s.text) || refused(s.text)))
      .map((s) => s.text);
    if (identifierFamilies.has(family)) expect(wrong).toEqual([]);
    // Display lines: at most 1%, but for the families held at what the rules of session 24 left
    // (docs/decisions.md, issue 36), so they grow no further: HELD below.
    const all = cleanStrings.filter((s) => s.family === family).length;
    expect(wrong.length).toBeLessThanOrEqual(HELD[family] ?? Math.floor(all / 100));
  });
});

// The held-out part (issue 36) is measured as a whole, never line by line: its floor is the
// issue's target, so a rule written for the development part that stops generalising fails here.
describe("the held-out part, as a whole", () => {
  const names = heldOutNameLines.reduce((n, l) => n + l.names.length, 0);
  test("holds at least 300 lines with names from sources the rules were not written against", () => {
    expect(heldOutNameLines.length).toBeGreaterThanOrEqual(300);
    expect(heldOutNameLines.filter((l) => !l.source || l.names.length === 0)).toEqual([]);
  });

  test("at least 99% of its names are replaced and 99% of its lines refused at ingest, with codes too", () => {
    const left = heldOutNameLines.reduce((n, l) => n + namesLeft(l).length, 0);
    const coded = heldOutNameLines.filter((l) => l.text.includes("§"));
    const codedNames = coded.reduce((n, l) => n + l.names.length, 0);
    const codedLeft = coded.reduce((n, l) => n + namesLeft(l).length, 0);
    const notRefused = heldOutNameLines.filter((l) => !refused(l.text)).length;
    expect((names - left) / names).toBeGreaterThanOrEqual(0.99);
    expect((codedNames - codedLeft) / codedNames).toBeGreaterThanOrEqual(0.99);
    expect((heldOutNameLines.length - notRefused) / heldOutNameLines.length).toBeGreaterThanOrEqual(0.99);
  });

  test("no identifier and at most 0.5% of its clean display lines are altered or refused", () => {
    const wrong = heldOutCleanStrings.filter((s) => altered(s.text) || refused(s.text));
    expect(wrong.filter((s) => identifierFamilies.has(s.family)).length).toBe(0);
    const display = heldOutCleanStrings.filter((s) => !identifierFamilies.has(s.family));
    expect(wrong.length - wrong.filter((s) => identifierFamilies.has(s.family)).length).toBeLessThanOrEqual(
      Math.floor(display.length * 0.005),
    );
  });
});

/** What a later held-out batch reached once the rules were generalised, held so a regression fails. */
type Reached = {
  minLines: number;
  names: number;
  replaced: number;
  coded: [replaced: number, of: number];
  lines: number;
  refused: number;
  identifiers: [altered: number, of: number];
  display: [altered: number, of: number];
};

/**
 * A held-out batch gathered from new sources and measured before any rule change for it, then once
 * after the rules were generalised against the development part: it holds the figures reached then,
 * below the 99% floor, and is not tuned against line by line (see CHANGELOG.md).
 */
function heldAtReached(which: string, lines: NameLine[], clean: CleanString[], r: Reached) {
  describe(`the ${which} held-out batch, as a whole`, () => {
    const names = lines.reduce((n, l) => n + l.names.length, 0);
    test(`holds at least ${r.minLines} lines with names, each with its source`, () => {
      expect(lines.length).toBeGreaterThanOrEqual(r.minLines);
      expect(lines.filter((l) => !l.source || l.names.length === 0)).toEqual([]);
    });

    test(`at least ${r.replaced} of its ${r.names} names are replaced (${r.coded[0]} of ${r.coded[1]} with codes) and ${r.refused} of ${r.lines} lines refused`, () => {
      const left = lines.reduce((n, l) => n + namesLeft(l).length, 0);
      const coded = lines.filter((l) => l.text.includes("§"));
      const codedLeft = coded.reduce((n, l) => n + namesLeft(l).length, 0);
      const codedNames = coded.reduce((n, l) => n + l.names.length, 0);
      expect([names, codedNames, lines.length]).toEqual([r.names, r.coded[1], r.lines]);
      expect(names - left).toBeGreaterThanOrEqual(r.replaced);
      expect(codedNames - codedLeft).toBeGreaterThanOrEqual(r.coded[0]);
      expect(lines.filter((l) => refused(l.text)).length).toBeGreaterThanOrEqual(r.refused);
    });

    test(`at most ${r.identifiers[0]} of its ${r.identifiers[1]} identifiers and ${r.display[0]} of its ${r.display[1]} clean display lines are altered or refused`, () => {
      const wrong = clean.filter((s) => altered(s.text) || refused(s.text));
      const ids = clean.filter((s) => identifierFamilies.has(s.family)).length;
      expect([ids, clean.length - ids]).toEqual([r.identifiers[1], r.display[1]]);
      expect(wrong.filter((s) => identifierFamilies.has(s.family)).length).toBeLessThanOrEqual(r.identifiers[0]);
      expect(wrong.filter((s) => !identifierFamilies.has(s.family)).length).toBeLessThanOrEqual(r.display[0]);
    });
  });
}

// Each batch's untuned figure is in CHANGELOG.md (batches 5 to 23 were committed before any rule change for them).
/** Per batch: least lines, names, replaced, coded replaced and names, lines, refused, identifiers altered and held, display lines altered and held. */
type Figures = readonly [number, number, number, number, number, number, number, number, number, number, number];
const reached: Record<string, Figures> = {
  // With the report scrubber's structure-free fallback (src/privacy/unknown-words.ts, issue 36),
  // measured once after it was written from the development part alone: more names replaced in
  // batches 3 to 12, and more clean display lines altered (3 to 5, 6, 9 to 12); see docs/decisions.md.
  // Session 24: the layer at ingest (more lines refused in batches 3, 5, 7, 8, 10 to 14), a message's
  // unknown subject and a person's place (names in 5, 7, 12 to 14; display lines in 3, 5 and 9) and
  // words joined to code elsewhere (display lines in 10 and 11); the 14th and 15th batches as
  // measured once, untouched (the 14th before the person's-place rules, then with them).
  third: [300, 463, 461, 243, 244, 387, 385, 0, 12, 2, 111],
  fourth: [300, 336, 336, 107, 107, 314, 314, 1, 20, 0, 86],
  fifth: [150, 235, 233, 108, 110, 208, 207, 0, 8, 4, 223],
  sixth: [80, 132, 130, 64, 65, 82, 82, 0, 2, 0, 26],
  seventh: [230, 316, 309, 90, 94, 237, 230, 0, 6, 1, 80],
  eighth: [200, 226, 224, 88, 88, 200, 198, 0, 7, 2, 78],
  ninth: [180, 213, 213, 77, 77, 183, 183, 0, 5, 3, 119],
  tenth: [160, 313, 312, 48, 48, 160, 159, 1, 15, 12, 144],
  // Session 25: a Carpet bot's name is the whole `bot_<name>` (relabelled: the measure counted the bare part replaced untouched).
  eleventh: [120, 145, 134, 5, 5, 123, 117, 0, 15, 10, 64],
  twelfth: [160, 192, 188, 35, 35, 162, 158, 0, 14, 3, 67],
  thirteenth: [230, 282, 281, 106, 106, 235, 234, 0, 9, 3, 85],
  fourteenth: [300, 353, 334, 118, 130, 305, 290, 0, 22, 7, 125],
  // Session 25: its 16 "&"-coded lines (a Wynncraft mod's log) were counted replaced untouched (the
  // measure read "&3Name" as no word): now read (normalise.ts) and measured, 19 names, 13 lines. A
  // clause's end (person-place.ts endsClause) alters one more display line of it.
  fifteenth: [350, 511, 467, 81, 89, 355, 337, 0, 10, 7, 131],
  // Session 25: gathered by a helper who did not open the rules, measured once on the rules of session
  // 24 (444 names, 14 display lines), then on session 25's.
  sixteenth: [300, 463, 456, 150, 151, 309, 307, 0, 11, 13, 210],
  // Session 25: gathered by a helper who did not open the rules, measured once on the rules of session 25.
  seventeenth: [250, 309, 295, 127, 135, 266, 253, 0, 9, 10, 190],
  // Session 26: gathered by a helper who did not open the rules (its lines from the development part's
  // repositories moved there before measuring), measured once on the rules of session 26.
  eighteenth: [110, 136, 127, 55, 58, 119, 111, 0, 9, 9, 193],
  // Session 26: Hypixel SkyBlock lines of repositories no part used, gathered by a helper who did not
  // open the rules, measured once on the rules of session 26 (42 display lines: 37 of them the
  // structure-free layer's, 31 its camel-case words).
  nineteenth: [400, 450, 437, 200, 210, 416, 407, 0, 8, 42, 291],
  // Session 26: players' own words in bug reports (issue threads), measured once on session 26's rules
  // before any rule was written from the development part's prose (75 names, 76 lines refused), then
  // with the rules written from it (a player naming themself or a friend, Discord tags, profile links,
  // ids of known words only).
  twentieth: [100, 109, 85, 0, 0, 100, 84, 0, 0, 21, 228],
  // Session 27: players' own words from 43 trackers no part used, gathered by a helper who did not open
  // the rules, measured once on session 27's rules (session 26's prose rules, untouched by it).
  "twenty-first": [101, 120, 90, 2, 2, 101, 79, 0, 0, 16, 238],
  // Session 27: players' own words in other languages from 15 trackers no part used, gathered by a helper
  // who did not open the rules; measured once without the line's language (32 of 38 names, 154 of 184
  // sentences altered), once with it as written before the development part's lines were read (21, 36),
  // then as written from them (a player's, a friend's or a nick's word before a name in that language,
  // one function word enough, a short line read in its report's language).
  "twenty-second": [35, 38, 25, 0, 0, 35, 25, 0, 0, 20, 184],
  // Session 28: players' own words from 159 trackers no part used, gathered by a helper who did not open
  // the rules, measured once on session 28's rules (the same on session 27's: 81 names, 51 lines; one
  // name relabelled first as the whole token it stands as, `_KAIIIAK_`, which the measure had counted
  // replaced untouched).
  "twenty-third": [95, 108, 81, 0, 0, 95, 75, 0, 0, 51, 645],
  // Session 28's places only a person stands in (a capitalised word made of words there, an id of
  // words there, a signature: person-place.ts namedPlace) raised 7, 20 and 21 by a name each and
  // altered one more display line of 20 (a town's name after "its name - ", read as a signature).
  // Session 27's line language (src/privacy/language.ts) lowered the display lines of 13 and 21 and
  // lost one name each of 17 and 21 (their lines read as another language's).
  // Session 26's rules, written from the development part, raised batches 5 to 7, 10 and 14 to 17 and
  // lowered the display lines of 3, 5, 9 and 15 (camel-case things' names, labels, handles of two
  // letters and four digits, person's places); held where they stand now.
};
for (const batch of later) {
  const figures = reached[batch.ordinal];
  if (!figures) throw new Error(`the ${batch.ordinal} held-out batch has no figures to hold`);
  const [minLines, names, replaced, c0, c1, count, refusedLines, i0, i1, d0, d1] = figures;
  heldAtReached(batch.ordinal, batch.names, batch.clean, {
    minLines,
    names,
    replaced,
    coded: [c0, c1],
    lines: count,
    refused: refusedLines,
    identifiers: [i0, i1],
    display: [d0, d1],
  });
}

describe("the families' own examples", () => {
  test.each(families.map((f) => [f.family, f] as const))("%s finds the names of its examples", (_name, family) => {
    for (const [text, names] of family.examples)
      expect(
        findNames(text)
          .map((h) => h.name)
          .sort(),
      ).toEqual(expect.arrayContaining([...names].sort()));
  });
});

describe("a name found once is replaced in all free text, never in an identifier", () => {
  test.each(nameLines.filter((l, i) => i % 10 === 0 && !l.miss).map((l) => [l.text, l]))("%j", (_t, line) => {
    const name = line.names[0]!;
    const trace = [
      `java.lang.IllegalStateException: no island for ${name}`,
      `\tat dev.mod.${name}.tick(${name}.java:3)`,
      `\tat dev.mod.Handler.on${name}(Handler.java:12)`,
      `key loot.item.${name.toUpperCase()}_HELMET and kills.island.${name} in ${name}.json`,
    ].join("\n");
    const { fields } = scrubFields(measureKey, {
      title: `Crash when ${name} opened the menu`,
      message: line.text,
      stackTrace: trace,
    });
    expect(stillThere(fields.title!, name)).toBe(false);
    expect(fields.stackTrace).not.toContain(`no island for ${name}`);
    expect(fields.stackTrace).toContain(`\tat dev.mod.${name}.tick(${name}.java:3)`);
    expect(fields.stackTrace).toContain(
      `loot.item.${name.toUpperCase()}_HELMET and kills.island.${name} in ${name}.json`,
    );
  });
});
