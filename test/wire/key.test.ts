// Counter key grammar (contract 2.2 and 8): a namespace, then 1 to 5 segments, at most 128 bytes.
import { describe, expect, test } from "bun:test";
import { parseKey, keyFaultMessage, type KeyFault } from "../../src/wire/key.ts";

const seg = (n: number, c = "a") => c.repeat(n);

/** A key of exactly `bytes` ASCII bytes: namespace "loot", then segments of at most 64 characters. */
function keyOfBytes(bytes: number): string {
  let key = "loot";
  while (key.length < bytes) key += "." + seg(Math.min(64, bytes - key.length - 1), "b");
  return key;
}

describe("valid keys", () => {
  const valid: [string, string, string[]][] = [
    ["an item id as the mod holds it", "loot.item.ENCHANTED_DIAMOND", ["item", "ENCHANTED_DIAMOND"]],
    ["a dungeon split with a floor", "dungeon.best_split.F7.finish", ["best_split", "F7", "finish"]],
    ["one segment after the namespace", "kills.hub", ["hub"]],
    ["five segments after the namespace", "mining.a.b.c.d.e", ["a", "b", "c", "d", "e"]],
    ["a 64-character segment", `loot.${seg(64)}`, [seg(64)]],
    ["a 2-character namespace", "ab.x", ["x"]],
    ["a 16-character namespace", "abcdefghijklmnop.x", ["x"]],
    ["a namespace with digits and underscores", "a_1_b2.x", ["x"]],
    ["segment characters ; : + # -", "loot.item.A;b:c+d#e-f", ["item", "A;b:c+d#e-f"]],
    ["segments starting with a digit or underscore", "dungeon.7._x", ["7", "_x"]],
    ["a one-character segment", "loot.X", ["X"]],
  ];

  test.each(valid)("%s: %s", (_why, key, segments) => {
    const parsed = parseKey(key);
    expect(parsed).toEqual({ namespace: key.split(".")[0]!, segments });
  });

  test("a key of exactly 128 bytes is valid", () => {
    const key = keyOfBytes(128);
    expect(Buffer.byteLength(key)).toBe(128);
    expect(parseKey(key)).not.toHaveProperty("fault");
  });
});

describe("invalid keys name the rule they break", () => {
  const invalid: [string, string, KeyFault][] = [
    ["a bare namespace (one segment too few)", "loot", "segment_count"],
    ["six segments after the namespace", "mining.a.b.c.d.e.f", "segment_count"],
    ["a 65-character segment", `loot.${seg(65)}`, "bad_segment"],
    ["a namespace with upper case", "Loot.item.X", "bad_namespace"],
    ["a namespace with upper case inside", "loOt.item.X", "bad_namespace"],
    ["a namespace starting with a digit", "1oot.item.X", "bad_namespace"],
    ["a namespace starting with an underscore", "_loot.item.X", "bad_namespace"],
    ["a 1-character namespace", "l.item.X", "bad_namespace"],
    ["a 17-character namespace", "abcdefghijklmnopq.x", "bad_namespace"],
    ["a namespace with a hyphen", "lo-ot.item", "bad_namespace"],
    ["an empty key", "", "bad_namespace"],
    ["a leading dot", ".loot.item", "bad_namespace"],
    ["a segment starting with '-'", "loot.-item", "bad_segment"],
    ["a segment starting with ';'", "loot.;item", "bad_segment"],
    ["a segment starting with ':'", "loot.:item", "bad_segment"],
    ["a segment starting with '+'", "loot.+item", "bad_segment"],
    ["a segment starting with '#'", "loot.#item", "bad_segment"],
    ["an empty segment in the middle", "loot..item", "bad_segment"],
    ["a dot at the end", "loot.item.", "bad_segment"],
    ["a namespace followed by a lone dot", "loot.", "bad_segment"],
    ["non-ASCII letters in a segment", "loot.item.ÉPÉE", "bad_segment"],
    ["an emoji in a segment", "loot.item.🗡", "bad_segment"],
    ["a space in a segment", "loot.item.ENCHANTED DIAMOND", "bad_segment"],
    ["a slash in a segment", "loot.item/ENCHANTED", "bad_segment"],
    ["a placeholder-looking segment", "loot.item.{ITEM_ID}", "bad_segment"],
    ["a wildcard segment", "loot.item.*", "bad_segment"],
  ];

  test.each(invalid)("%s: %s", (_why, key, fault) => {
    expect(parseKey(key)).toEqual({ fault });
  });

  test("a key of 129 bytes is too long, even when every part is well formed", () => {
    const key = keyOfBytes(129);
    expect(Buffer.byteLength(key)).toBe(129);
    expect(
      key
        .split(".")
        .slice(1)
        .every((s) => s.length <= 64),
    ).toBe(true);
    expect(parseKey(key)).toEqual({ fault: "too_long" });
  });

  test("the length limit counts bytes, not characters", () => {
    // 127 characters, but the three non-ASCII letters take two bytes each: 130 bytes.
    const key = `loot.item.${seg(60)}.${seg(53, "b")}ÉÉÉ`;
    expect(key.length).toBe(127);
    expect(Buffer.byteLength(key)).toBeGreaterThan(128);
    expect(parseKey(key)).toEqual({ fault: "too_long" });
  });

  test("every fault has a message a person can act on", () => {
    expect(keyFaultMessage.too_long).toContain("128");
    expect(keyFaultMessage.segment_count).toMatch(/1 to 5/);
    expect(keyFaultMessage.bad_namespace).toMatch(/2 to 16/);
    expect(keyFaultMessage.bad_segment).toMatch(/1 to 64/);
  });
});
