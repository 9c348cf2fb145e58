// Game text read without its formatting (issue 36): the game's "§" codes, and the "&" codes that
// plugin files and some mods' logs write instead (Bukkit's alternate colour code character).
import { describe, expect, test } from "bun:test";
import { normalise, originalSpan } from "../../src/privacy/normalise.ts";
import { scrubText } from "../../src/privacy/scrub.ts";
import { denylistMatch } from "../../src/privacy/denylist.ts";
import { pseudonym } from "../../src/privacy/pseudonym.ts";

const KEY = "a-test-key-that-is-long-enough-0123456789";

describe("a text written with & colour codes", () => {
  const line = "&b[MVP&c+&b] Quintrix&f: anyone for &6Kuudra&f?";

  test("is read without them, and a found name maps back to its place in the original", () => {
    const p = normalise(line);
    expect(p.plain).toBe("[MVP+] Quintrix: anyone for Kuudra?");
    const at = p.plain.indexOf("Quintrix");
    const [start, end] = originalSpan(p, at, at + "Quintrix".length);
    expect(line.slice(start, end)).toBe("Quintrix");
  });

  test("its names are replaced with the codes around them kept, and ingest refuses it", () => {
    expect(scrubText(KEY, line)).toBe(line.replace("Quintrix", pseudonym(KEY, "Quintrix")));
    expect(denylistMatch(line)).toBeDefined();
    // Upper-case codes too, as Bukkit reads them.
    expect(normalise("&B[VIP&E] &AQuintrix").plain).toBe("[VIP] Quintrix");
  });

  test("an ampersand in words, or one code alone, is text", () => {
    for (const text of ["R&B and Q&A at AT&T", "Tom &amp; Jerry", "rock&roll", "&a", "a && b || c"])
      expect(normalise(text).plain).toBe(text);
  });

  test("both kinds of code in one text are read away", () => {
    expect(normalise("§b[MVP§c+§b] &3Quintrix&f: hi").plain).toBe("[MVP+] Quintrix: hi");
  });
});
