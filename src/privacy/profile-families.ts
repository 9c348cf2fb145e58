// A player named beside their SkyBlock profile (issue 36): a bot's reply or a profile viewer puts the
// profile's name in brackets after its owner ("Catacombs level for X (Apple): 42", "F7 data for X
// (Mango): Completions: 120", "[MVP+] X (Banana)"). The profile names are the catalogue's closed list
// (catalogue/catalogue.json lists.cuteNames; test/privacy/denylist.test.ts holds the two equal), so
// the bracket says whose profile it is, whatever the bot's words before it. Name family (see
// families.ts for how a rule is written).
import { NAME, RANK_TAG, rule, type Family } from "./shapes.ts";

/** The profiles' names, as the catalogue lists them. */
export const PROFILE_NAMES = [
  "Apple",
  "Banana",
  "Blueberry",
  "Coconut",
  "Cucumber",
  "Grapes",
  "Kiwi",
  "Lemon",
  "Lime",
  "Mango",
  "Orange",
  "Papaya",
  "Peach",
  "Pear",
  "Pineapple",
  "Pomegranate",
  "Raspberry",
  "Strawberry",
  "Tomato",
  "Watermelon",
  "Zucchini",
] as const;
const PROFILE = PROFILE_NAMES.join("|");

export const profileOwner: Family = {
  family: "profile_owner",
  gate: new RegExp(`\\((?:${PROFILE})\\)`),
  doc: "A player before their profile's name in brackets: Catacombs level for X (Apple): 42, [MVP+] X (Banana)",
  // Looked for by its bracket first, the owner checked behind it.
  rules: [
    rule(`\\((?=(?:${PROFILE})\\))(?<=(?<![A-Za-z0-9_'])(?:(?<rank>${RANK_TAG}) ?)?(?<name>${NAME}) \\()`, {
      speaker: true,
    }),
  ],
  examples: [["Catacombs level for Kalmaria (Apple): 42 | Total XP: 3,210,440", ["Kalmaria"]]],
};
