// The words the structure-free layer knows (issue 36; unknown-words.ts reads them): English (the
// `word-list` package's dictionary), the project's lists (system-words.ts, not-names.ts, the profile
// names, the mods, tools and chat words below), the game's vocabulary (game-vocabulary.txt) and the
// caller's game words (the item list's), and words made of them. Set look-ups; each list is built on
// first use. The package exports only its file's path; the text itself is imported so the binary
// embeds it.
import wordsText from "../../node_modules/word-list/words.txt" with { type: "text" };
import vocabularyText from "./game-vocabulary.txt" with { type: "text" };
import { NOT_NAMES } from "./not-names.ts";
import { PROFILE_NAMES } from "./profile-families.ts";
import { SYSTEM_WORDS } from "./system-words.ts";

/**
 * Words of crash reports, launchers and the SkyBlock mods that a dictionary does not hold and that
 * carry a name's marks (lower-case, a capital inside, a digit): mods and their authors' spellings,
 * the game's and Java's own words, hardware. Compared lower-case.
 */
const KNOWN = new Set(
  [
    "skyhanni skytils skyblocker skyblock hypixel neu notenoughupdates firmament odin odinclient",
    "skyblockaddons sba dungeonsguide cowlection patcher essential feather lunar badlion labymod",
    "optifine optifabric sodium iris lithium phosphor fabricmc fabric forge minecraftforge neoforge",
    "liteloader mixin mixins mixinextras lwjgl opengl glfw openal jei rei emi modmenu cloth yacl",
    "mojang minecraft microsoft xbox mcp srg yarn intermediary kotlin kotlinx javafx openjdk hotspot",
    "nvidia geforce radeon intel amd ryzen windows linux macos darwin ubuntu debian",
    "amd64 x86 x64 arm64 aarch64 win32 win64 utf8 sha1 sha256 md5 gzip json yaml toml png jpg",
    "api url uri http https tcp udp ipv4 ipv6 dns ssl tls jar jvm jre jdk gui hud npc npcs",
    "skyblockcatia skyblockfeatures skyblocktweaks noammaddons soopyv2 bettermap hysentials",
    "partlysaneskies cariboustonks dawnaddons aaronsmod hytils nobaaddons sbo fishyaddons",
    "catgirladdons floppaclient dulkirmod volcaddons bazaarnotifier apec",
    "kuudra dwarven crimson isle rift garden galatea bingo ironman stranded pvp pve",
    "coreprotect luckperms essentialsx worldedit worldguard vault geyser floodgate bungeecord velocity",
    "accessor enum async boolean int init impl param params args stdout stderr tooltip tooltips hashmap",
    "mutex struct bytecode runtime namespace classpath iterator nullable config configs github gradle",
    "stacktrace crashlog logfile tickrate fps modpack desync hotbar keybind keybinds rcon workdir fml epoll",
    "genuineintel authenticamd intel64 modlauncher ver coremod coremods",
    // What players write in a report's own text: chat abbreviations and the web's and launchers' names
    "lol lmao lmfao idk tbh btw afk ign thx plz pls laggy wtf omg imo imho irl ngl smh fyi asap rofl",
    "brb gtg ikr bcs ppl msg ofc nvm ttyl boop coords youtube reddit firefox modrinth curseforge multimc mmc",
    "atlauncher gdlauncher tlauncher polymc prismlauncher ingame teleporter mainhand autoclicker glitched",
    "skywars bedwars murdermystery buildbattle megawalls blitzsg duels housing xuid tps cps rng dps ehp mspt iphone ipad macbook javascript typescript gitlab pastebin mclo imgur",
    "spigot bukkit paper purpur waterfall viaversion protocollib placeholderapi discordsrv plotsquared",
    "etc motd addon addons qty versa",
    // Contractions players write without their apostrophe, and chat words (issue 36, session 26)
    "dont doesnt didnt couldnt wouldnt shouldnt isnt arent wasnt werent havent hasnt hadnt ive youre theyre",
    "youve theyve weve wouldve couldve shouldve aint goto lemme yall wdym smth sth cata",
  ]
    .join(" ")
    .split(" "),
);

const PROFILES = new Set(PROFILE_NAMES.map((n) => n.toLowerCase()));

let knownWords: Set<string> | undefined;
/**
 * Every word `known` answers for, lower-case, in one set built on first use: the dictionary's words
 * of 3 to 16 letters (about 250 000) and the project's lists (one look-up a word, not five).
 */
function knownSet(): Set<string> {
  if (knownWords) return knownWords;
  const all = new Set<string>();
  for (const w of wordsText.split("\n")) if (w.length >= 3 && w.length <= 16) all.add(w);
  for (const list of [SYSTEM_WORDS, NOT_NAMES, KNOWN, PROFILES]) for (const w of list) all.add(w);
  knownWords = all;
  return all;
}

let vocabulary: Set<string> | undefined;
/**
 * The game's words no dictionary holds (game-vocabulary.txt, from SkyBlock's and Minecraft's public
 * data: NPCs, bosses, mobs, places, interface words), lower-case, built on first use.
 */
function gameVocabulary(): Set<string> {
  vocabulary ??= new Set(vocabularyText.split("\n").filter((w) => w && !w.startsWith("#")));
  return vocabulary;
}

/**
 * The game's own words, lower-case (the words of the item list's display names, "skymart",
 * "infinivacuum", "hydrocan"): known, kept. The caller owns where they come from (the report intake
 * passes the instance's item list; the privacy module reads no other module's tables).
 */
export type GameWords = { has(lower: string): boolean };

/** A word of the game as a whole (its vocabulary or the caller's item list), not split into parts. */
export const ofTheGame = (lower: string, game?: GameWords) => gameVocabulary().has(lower) || game?.has(lower) === true;
/** A word of English or of the project's lists (lower-case). */
export const known = (lower: string) => knownSet().has(lower);
/** A word of English, of the project's lists or of the game's vocabulary (lower-case): a label's word. */
export const wordOfLanguage = (lower: string) => known(lower) || ofTheGame(lower);

const PREFIXES = ["re", "de", "un", "dis", "non", "pre", "mini", "over", "under"];
const SUFFIXES = ["able", "ed", "es", "s", "ing", "er", "ers"];

/**
 * A word in lower case made of known words: two of them ("miniboss", "knockback", "chestplates"), each
 * of `part` letters or more, a prefix before one ("respawn", "despawned"), or one with a suffix
 * ("swappable"). At most 16 splits.
 */
export function madeOfWords(w: string, part = 3): boolean {
  if (known(w)) return true;
  for (let i = part; i <= w.length - part; i++) if (known(w.slice(0, i)) && known(w.slice(i))) return true;
  for (const p of PREFIXES)
    if (w.length - p.length >= 3 && w.startsWith(p) && madeOfSuffix(w.slice(p.length))) return true;
  return madeOfSuffix(w);
}

export function madeOfSuffix(w: string): boolean {
  if (known(w)) return true;
  for (const s of SUFFIXES) {
    if (!w.endsWith(s) || w.length - s.length < 3) continue;
    const base = w.slice(0, -s.length);
    if (known(base) || known(`${base}e`) || (base.at(-1) === base.at(-2) && known(base.slice(0, -1)))) return true;
  }
  return false;
}
