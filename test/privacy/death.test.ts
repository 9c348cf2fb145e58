// Vanilla death messages in server and client logs (issue 36, src/privacy/death-families.ts): the
// victim behind any log prefix and the killer after the key's "by" are gone from the scrubbed text
// and the line is refused at ingest; a mob's death that names no player comes out unchanged.
import { describe, expect, test } from "bun:test";
import { denylistMatch } from "../../src/privacy/denylist.ts";
import { stillThere } from "./corpus.ts";
import { scrubText } from "../../src/privacy/scrub.ts";

const key = "a-death-test-key-that-is-long-enough-01234";
const gone = (text: string, name: string) => !stillThere(scrubText(key, text), name);

const named: [string, string[]][] = [
  ["[01:01:52] [Server thread/INFO]: Tinkerbolt_ was squished too much", ["Tinkerbolt_"]],
  ["§bHarbinger§7 was doomed to fall", ["Harbinger"]],
  ["Nebulous was roasted in dragon's breath", ["Nebulous"]],
  ["Harmonia was impaled on a stalagmite", ["Harmonia"]],
  ["Harmonia was slain by Piglin Brute", ["Harmonia"]],
  ["Harmonia was shot by a skull from Nebulous", ["Nebulous"]],
  ["Kestrel was struck by lightning whilst fighting Goldshard", ["Kestrel", "Goldshard"]],
  ["[12:00:01] Harmonia was slain by Nebulous", ["Harmonia", "Nebulous"]],
  ["2023-05-01 12:00:01,123 INFO Harmonia drowned", ["Harmonia"]],
  ["Villager Villager['Mason'/41901] died, message: 'Mason was slain by Rookwood'", ["Rookwood"]],
  ["[12:00:01] [Server thread/INFO]: Iron Golem was slain by Rookwood", ["Rookwood"]],
  ["Kestrel took the L to Goldshard.", ["Kestrel", "Goldshard"]],
  ["§cRookwood§7's heart was pierced by §9Larkspur_7§7. §b§lFINAL KILL!", ["Rookwood", "Larkspur_7"]],
  [
    "[21:00:41] [Client thread/INFO]: [CHAT] Harmonia was Nebulous's final #1,780. FINAL KILL!",
    ["Harmonia", "Nebulous"],
  ],
];

const clean = [
  "Villager Villager['Mason'/41901] died, message: 'Mason was slain by Zombie'",
  "[10:00:10] [Server thread/INFO]: Villager Villager['Unemployed'/7605, l='ServerLevel[world]', x=1023.97, y=72.00, z=32.00] died, message: 'Unemployed drowned'",
  "[12:00:01] [Server thread/INFO]: Zombie was slain by Skeleton",
  "Villager Villager['Farmer'/12] died, message: 'Farmer was slain by Vindicator'",
  "[02:13:42] [Server thread/INFO]: Gamerule keepInventory is now set to: true",
  "[12:00:01] Server started in 4.2s",
  "§7damage taken from Dante.",
  "Chat disabled for 10m.",
  "You have been eliminated!",
];

describe("vanilla death messages", () => {
  for (const [text, names] of named) {
    test(`names gone: ${text}`, () => {
      for (const name of names) expect(gone(text, name)).toBe(true);
      expect(denylistMatch(text)).toBeDefined();
    });
  }
  for (const text of clean) {
    test(`unchanged: ${text}`, () => {
      expect(scrubText(key, text)).toBe(text);
      expect(denylistMatch(text)).toBeUndefined();
    });
  }
});

describe("dungeon teammates (issue 36)", () => {
  const dungeonNamed: [string, string[]][] = [
    ["Party > [MVP+] Harmonia: Leaped to Nebulous!", ["Harmonia", "Nebulous"]],
    ["§9Party §8> §b[MVP§c+§b] Kestrel§f: Leaping to Goldshard", ["Kestrel", "Goldshard"]],
    ["[Skyblocker] Leaped to Rookwood!", ["Rookwood"]],
    ["§r§bTinkerbolt_§r§a has started the dungeon countdown. The dungeon will begin in 1 minute.§r", ["Tinkerbolt_"]],
  ];
  for (const [text, names] of dungeonNamed) {
    test(`names gone: ${text}`, () => {
      for (const name of names) expect(gone(text, name)).toBe(true);
      expect(denylistMatch(text)).toBeDefined();
    });
  }
  test("a leap to a place of the boss fight keeps the place", () => {
    const out = scrubText(key, "Party > [MVP+] Harmonia: Leaped to ee3!");
    expect(out).toContain("Leaped to ee3!");
    expect(out).not.toContain("Harmonia");
  });
  for (const text of ["Dungeon starts in 4 seconds.", "[NPC] Mort: Talk to me to change your class and ready up."]) {
    test(`unchanged: ${text}`, () => {
      expect(scrubText(key, text)).toBe(text);
      expect(denylistMatch(text)).toBeUndefined();
    });
  }
});
