// bun scripts/game-vocabulary.ts <NotEnoughUpdates-REPO dir> <minecraft-data package dir>
//
// Writes src/privacy/game-vocabulary.txt (issue 36): the game's own words that no dictionary holds,
// so the report scrubber's structure-free layer (src/privacy/unknown-words.ts) keeps them where it
// reads a capitalised word as a person's: SkyBlock's NPCs, bosses, mobs, places, pets, reforges and
// events ("Oruo", "Goldor", "Withermancer", "Hoppity"), Minecraft's mobs, blocks, biomes
// and interface words ("Mooshroom", "Netherrack"). Production adds the instance's item list on top
// (src/items/item-names.ts).
//
// Inputs, both MIT-licensed (their notices are copied into the file's head):
// - NotEnoughUpdates/NotEnoughUpdates-REPO: a checkout (or the files of `items/`, `mobs/` and
//   `constants/`): every item's display name (NPCs and mobs are items there: "Oruo the Omniscient
//   (NPC)"), the mobs' file names, every string and key of the constants that name the game's things
//   (islands, zones, bestiary, garden visitors, Abiphone contacts, reforges, ...).
//   Never an item's lore (it credits real players: "By <name>") nor misc.json's credits and
//   "special" players: a real player's name in this list would be kept in every report.
// - PrismarineJS minecraft-data (`npm pack minecraft-data`, the package's folder): the English
//   language file and the display names of entities, items, blocks, biomes, effects and enchantments
//   of 1.8 (the version SkyBlock is played on) and the newest release it holds.
//
// Kept: lower-case words of 3 to 16 letters that the dictionary (the `word-list` package) does not
// hold and that are not hex digits alone (colours, hashes). Run again when either source moves; the
// commits used are recorded in the file's head by the caller (pass them as NEU_COMMIT and MCD_VERSION).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import wordsText from "../node_modules/word-list/words.txt" with { type: "text" };

const [neu, mcd] = process.argv.slice(2);
if (!neu || !mcd) {
  console.error("usage: bun scripts/game-vocabulary.ts <NotEnoughUpdates-REPO dir> <minecraft-data package dir>");
  process.exit(2);
}
const dictionary = new Set(wordsText.split("\n"));
const found = new Set<string>();
/** Keys whose values are not display text: textures, commands, recipes, links, ids of skulls. */
const SKIP = new Set(
  "nbttag skin texture textures uuid Value url info modver clickcommand itemid crafttext recipe recipes slots nbt".split(
    " ",
  ),
);

function words(text: string) {
  const plain = text.replace(/§./g, "").replaceAll("_", " ");
  if (plain.startsWith("http") || (plain.length > 60 && !plain.includes(" "))) return;
  for (const m of plain.matchAll(/[A-Za-z]+/g))
    if (m[0].length >= 3 && m[0].length <= 16) found.add(m[0].toLowerCase());
}
function walk(value: unknown) {
  if (typeof value === "string") words(value);
  else if (Array.isArray(value)) for (const v of value) walk(v);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      if (SKIP.has(k)) continue;
      words(k);
      walk(v);
    }
}
const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const jsonFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".json"));

for (const f of jsonFiles(join(neu, "items"))) words(json(join(neu, "items", f)).displayname ?? "");
for (const f of jsonFiles(join(neu, "mobs"))) words(f.slice(0, -5));
// The constants that name the game's things; not misc.json's credits and "special" players, the
// rainbow-name holders, the reward tables (numbers), nor Hoppity's rabbits: some 400 people's first
// names ("aaron", "alice"), which players take as names too.
const CONSTANTS = [
  "abiphone",
  "attribute_shards",
  "bestiary",
  "calendar",
  "carnivalshops",
  "dyes",
  "enchants",
  "essenceshops",
  "gemstones",
  "george",
  "garden",
  "islands",
  "museum",
  "pets",
  "reforges",
  "reforgestones",
  "rift_guide",
  "sacks",
  "skymart",
  "trophyfish",
  "zones",
];
for (const name of CONSTANTS) walk(json(join(neu, "constants", `${name}.json`)));
const misc = json(join(neu, "constants", "misc.json"));
for (const key of ["area_names", "item_types", "minions", "talisman_upgrades"]) walk(misc[key]);

const paths = json(join(mcd, "minecraft-data/data/dataPaths.json")).pc as Record<string, Record<string, string>>;
const releases = Object.keys(paths).filter((v) => /^\d+\.\d+(?:\.\d+)?$/.test(v));
const newest = releases.at(-1)!;
for (const version of ["1.8", newest]) {
  const data = (part: string) => join(mcd, "minecraft-data/data", paths[version]![part]!, `${part}.json`);
  for (const text of Object.values(json(data("language")) as Record<string, string>)) words(text);
  for (const part of ["entities", "items", "blocks", "biomes", "effects", "enchantments"])
    for (const e of json(data(part)) as { displayName?: string }[]) words(e.displayName ?? "");
}

const kept = [...found].filter((w) => !dictionary.has(w) && !/^[a-f]+$/.test(w)).sort();
const head = [
  "# The game's own words no dictionary holds (issue 36), one a line; written by scripts/game-vocabulary.ts.",
  `# NotEnoughUpdates/NotEnoughUpdates-REPO@${process.env.NEU_COMMIT ?? "?"} (items' display names, mobs, constants).`,
  "#   MIT License, Copyright (c) 2020 Moulberry.",
  `# PrismarineJS/minecraft-data ${process.env.MCD_VERSION ?? "?"} (pc 1.8 and ${newest}: language, entities, items, blocks, biomes, effects, enchantments).`,
  "#   MIT License (its package.json and README; author Romain Beaumont and contributors).",
];
writeFileSync(join(import.meta.dir, "../src/privacy/game-vocabulary.txt"), `${[...head, ...kept].join("\n")}\n`);
console.log(`${kept.length} words of ${found.size} (the rest are in the dictionary)`);
