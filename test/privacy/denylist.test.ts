// The denylist's own cases: chat lines must match and name their family; catalogue keys, labels and
// ordinary values must not. The real-text corpus (corpus-*.test.ts) holds the families' real lines.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { denylistMatch, findDenylisted } from "../../src/privacy/denylist.ts";

const positives: [string, string][] = [
  ["[MVP+] Steve", "rank_tag"],
  ["[MVP++] Technoblade", "rank_tag"],
  ["[VIP] alex_99 found a Wither Key!", "rank_tag"],
  ["Killed by [YOUTUBE] Dream", "rank_tag"],
  ["[ADMIN] Minikloon", "rank_tag"],
  ["[287] [MVP+] Steve", "rank_tag"],
  ["[42] Notch: hello", "all_chat"],
  ["RARE DROP! Enchanted Book (+120% ✯ Magic Find) [MVP+]Steve", "rank_tag"],
  ["Party > [MVP+] Steve: go mort", "rank_tag"],
  ["Party > Steve: ready", "channel_line"],
  ["Guild > Alex_99 [Officer]: hi all", "channel_line"],
  ["Officer > Steve: promote him", "channel_line"],
  ["Co-op > Steve: sell the gems", "channel_line"],
  ["Friend > Steve joined.", "channel_line"],
  ["line one\nParty > Steve: hi", "channel_line"],
  ["From Steve: want to trade?", "whisper"],
  ["To Alex_99: sure", "whisper"],
  ["Steve joined.", "joined_line"],
  ["Alex_99 left the party.", "party"],
  ["Notch has joined the lobby!", "party"],
  ["Notch: gg", "all_chat"],
  [" Alex_99: Mage (34)", "all_chat"],
  ["[SkyBlock] Notch is visiting Your Island!", "membership"],
  ["Steve was promoted from Member to Officer", "membership"],
  [" ☠ Steve was crushed and became a ghost.", "dungeon"],
  ["Steve ●  Alex_99 ●  Notch ●", "party"],
  ["069a79f4-44e9-4726-a5be-fca90e38aaf5", "uuid"],
  ["owner 069a79f444e94726a5befca90e38aaf5 of the island", "uuid"],
  ["loot.item.069a79f444e94726a5befca90e38aaf5", "uuid"],
  ["069A79F4-44E9-4726-A5BE-FCA90E38AAF5", "uuid"],
];

const negatives: string[] = [
  "loot.item.ENCHANTED_DIAMOND",
  "kills.island.hub",
  "dungeon.best_split.F7.finish",
  "loot.item.ENCHANTMENT_ULTIMATE_WISE;5",
  "mining.powder.gemstone",
  "Kills on {ISLAND_ID}",
  "Fastest finish, {FLOOR}",
  "Loot",
  "Blocks mined",
  "[Fishing] Trophy fish",
  "Level [50]",
  "[5] levels gained",
  "1.21.4",
  "2.3.1+build.7",
  "America/New_York",
  "Pomegranate",
  "personal_best",
  "rare_drop",
  "Travel to Hub: 5 coins",
  "Ability: Throw  RIGHT CLICK",
  "Description: Rendering screen",
  "Caused by: java.lang.NullPointerException: boom",
  "INFO: loading the catalogue",
  "\tfabricloader: 0.16.9",
  "Broodmother: Soon",
  " ☠ Fine Onyx Gemstone x2",
  "tally 1.0.1.1",
  "joined the game",
  "The party joined the dungeon",
  "F7 in 5:12",
  "deadbeef",
  "0123456789abcdef0123456789abcde",
  "0123456789abcdef0123456789abcdef0",
  "sha 0123456789abcdef0123456789abcdef01234567",
];

describe("the denylist corpus", () => {
  test.each(positives)("%j matches %s", (text, rule) => {
    expect(denylistMatch(text)).toBe(rule);
  });

  test.each(negatives)("%j does not match", (text) => {
    expect(denylistMatch(text)).toBeUndefined();
  });

  test("no key, pattern, label or list entry of the built-in catalogue matches", () => {
    const catalogue = JSON.parse(readFileSync(join(import.meta.dir, "../../catalogue/catalogue.json"), "utf8"));
    const strings: string[] = [];
    const walk = (v: unknown) =>
      typeof v === "string" ? strings.push(v) : v && typeof v === "object" ? Object.values(v).forEach(walk) : undefined;
    walk(catalogue);
    expect(strings.length).toBeGreaterThan(50);
    expect(strings.filter((s) => denylistMatch(s))).toEqual([]);
  });
});

describe("findDenylisted", () => {
  test("answers the JSON path of the first matching string and the rule, never the value", () => {
    const body = {
      client: { modVersion: "1.0.0" },
      sessions: [
        { id: "s1", note: "fine" },
        { id: "s2", note: "Party > Steve: hi" },
      ],
    };
    expect(findDenylisted(body)).toEqual({ path: "/sessions/1/note", rule: "channel_line" });
  });

  test("skips the fields that are identifiers by contract", () => {
    const body = {
      batchId: "0123456789abcdef0123456789abcdef",
      profile: { id: "fedcba9876543210fedcba9876543210" },
      label: "ok",
    };
    expect(findDenylisted(body, (p) => p === "/batchId" || p === "/profile/id")).toBeUndefined();
    expect(findDenylisted(body)).toEqual({ path: "/batchId", rule: "uuid" });
  });

  test("escapes object keys in the path", () => {
    expect(findDenylisted({ "a/b": ["[MVP+] Steve"] })).toEqual({ path: "/a~1b/0", rule: "rank_tag" });
  });
});

// profile-families.ts reads a player before their profile's name: its list is the catalogue's.
describe("the profile names a player is read beside", () => {
  test("are the catalogue's cute names, every one", async () => {
    const { PROFILE_NAMES } = await import("../../src/privacy/profile-families.ts");
    const catalogue = JSON.parse(readFileSync(join(import.meta.dir, "../../catalogue/catalogue.json"), "utf8"));
    expect([...PROFILE_NAMES]).toEqual(catalogue.lists.cuteNames);
  });
});

describe("the structure-free layer at ingest (issue 36)", () => {
  test("reads a text of several words: a handle no family places, a message's unknown subject", () => {
    for (const text of [
      "then xX_Steve_Xx threw the bow",
      "Steveroni joined",
      "[12:00:01 INFO]: Quintrix opened a chest",
    ]) {
      expect(denylistMatch(text)).toBeUndefined();
      expect(denylistMatch(text, { unknownWords: true })).toBe("unknown_word");
    }
  });

  test("leaves a text of one word (a version, a key, an id) and English sentences alone", () => {
    for (const text of [
      "1.4.0+build.5a7c2e1",
      "2.0.0-beta3_dev",
      "v0.28.1-SNAPSHOT",
      "xX_Steve_Xx",
      "mining.blocks.stone",
    ])
      expect(denylistMatch(text, { unknownWords: true })).toBeUndefined();
    expect(denylistMatch("the server stopped while saving the world", { unknownWords: true })).toBeUndefined();
  });

  test("findDenylisted passes the option down and names the path", () => {
    const value = { client: { modVersion: "then xX_Steve_Xx threw the bow" } };
    expect(findDenylisted(value)).toBeUndefined();
    expect(findDenylisted(value, () => false, { unknownWords: true })).toEqual({
      path: "/client/modVersion",
      rule: "unknown_word",
    });
  });
});

describe("a profile's link names its player (issue 36, session 26, links.ts)", () => {
  test("a stats site's or a profile's address is refused profile_link; another link is not", () => {
    expect(denylistMatch("https://sky.shiiyu.moe/stats/fire__ferret/Strawberry")).toBe("profile_link");
    expect(denylistMatch("namemc.com/profile/Reisen")).toBe("profile_link");
    expect(denylistMatch("https://github.com/hannibal002/SkyHanni/issues/1234")).toBeUndefined();
    expect(denylistMatch("https://sky.shiiyu.moe/stats/0123456789abcdef0123456789abcdef")).not.toBe("profile_link");
  });
});
