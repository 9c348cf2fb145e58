// The real-text privacy corpus (issue 13), read from test/privacy/corpus/: lines that carry player
// names, each with the names and its source, and strings that carry none and must pass untouched.
// names.jsonl: one { family, names, text, source } a line. clean.jsonl: one { family, source, texts }
// a line. Both were collected from public SkyBlock mod sources and item repositories (see README.md).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { denylistMatch } from "../../src/privacy/denylist.ts";
import { type ScrubOptions, scrubText } from "../../src/privacy/scrub.ts";
import { itemWords } from "../../src/items/item-names.ts";
import { recordedItemList, recordedItemNames2022 } from "../support/recorded.ts";

/**
 * `miss`: the development part's names the rules knowingly miss (issue 36): a name that is an English
 * word ("Merlin"), a compound of words ("Caratpine") or a count's shape ("K900") in a place no rule
 * reads as a person's ("Granted Mindiell permission"). The tests hold them as they are, so a rule that
 * catches one says so; `bun run privacy:misses` re-marks them.
 */
export type NameLine = { family: string; names: string[]; text: string; source: string; miss?: string[] };
export type CleanGroup = { family: string; source: string; texts: string[] };
/** A clean string with its family and source. */
export type CleanString = { family: string; text: string; source: string };

const read = (file: string) =>
  readFileSync(join(import.meta.dir, "corpus", file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

const flat = (groups: CleanGroup[]) =>
  groups.flatMap((g) => g.texts.map((text) => ({ family: g.family, text, source: g.source })));

/** The development part: the rules are written against these lines. */
export const nameLines: NameLine[] = read("names.jsonl");
export const cleanGroups: CleanGroup[] = read("clean.jsonl");
export const cleanStrings: CleanString[] = flat(cleanGroups);

/** One held-out batch: its place in words ("third"), its lines with names and its clean strings. */
export type HeldOutBatch = { ordinal: string; names: NameLine[]; clean: CleanString[] };

const heldOut = (ordinal: string, suffix: string): HeldOutBatch => ({
  ordinal,
  names: read(`held-out/names${suffix}.jsonl`),
  clean: flat(read(`held-out/clean${suffix}.jsonl`)),
});

/**
 * The held-out part (issue 36), batch by batch in the order gathered: lines from sources the rules
 * were not written against (see corpus/README.md). Measured per family, never tuned against line by
 * line; the tests hold its floor, not every line.
 */
export const heldOutBatches: HeldOutBatch[] = [
  /** The first batch (`names.jsonl`, `clean.jsonl`): guild bridge bots, other SkyBlock mods. */
  heldOut("first", ""),
  /**
   * The held-out part's second batch (`names-2.jsonl`, `clean-2.jsonl`): gathered after the rules of
   * issue 36 were written, from sources not read before (Skyblocker's tests, Kuudra mods), measured
   * once and reported as it came out.
   */
  heldOut("second", "-2"),
  /**
   * The held-out part's third batch (`names-3.jsonl`, `clean-3.jsonl`): gathered from sources no
   * earlier batch or the development part used (NoammAddons, SoopyV2, BetterMap, Hysentials,
   * NotEnoughUpdates' mod, Partly Sane Skies, trade helpers, a guild bridge's test broadcasts) and
   * measured before any rule was changed for it.
   */
  heldOut("third", "-3"),
  /**
   * The held-out part's fourth batch (`names-4.jsonl`, `clean-4.jsonl`): gathered from sources no
   * earlier batch or the development part used (a Discord guild bridge, CaribouStonks, DawnAddons,
   * Aaron's Mod, Hytils Reborn, a party-commands mod, Kuudra pre-spot mods) before any rule was
   * changed for it; its untuned figure is in CHANGELOG.md.
   */
  heldOut("fourth", "-4"),
  /**
   * The held-out part's fifth batch (`names-5.jsonl`, `clean-5.jsonl`): gathered from sources no
   * earlier batch or the development part used (Hypixel's own strings as a server recreation mirrors
   * them, NobaAddons, SBO, FishyAddons, SkyBlockcatia, SkyblockFeatures, SkyblockTweaks, SkyblockReinvented)
   * before any rule was changed for it; its untuned figure is in CHANGELOG.md.
   */
  heldOut("fifth", "-5"),
  /**
   * The held-out part's sixth batch (`names-6.jsonl`, `clean-6.jsonl`): a guild bridge's chat
   * handlers and its bot commands' replies (aidn3/hypixel-guild-discord-bridge) and another bridge's
   * patterns (SorerBOT/Guild-Bridge), sources no earlier batch or the development part used, committed
   * and measured before any rule was changed for it; its untuned figure is in CHANGELOG.md.
   */
  heldOut("sixth", "-6"),
  /**
   * The held-out part's seventh batch (`names-7.jsonl`, `clean-7.jsonl`): vanilla Minecraft's chat,
   * join and death strings, EssentialsX's messages, SuperiorSkyblock2's island messages and Wynntils'
   * Wynncraft party and friend patterns, sources no earlier batch or the development part used,
   * committed and measured before any rule was changed for it; its untuned figure is in CHANGELOG.md.
   */
  heldOut("seventh", "-7"),
  /**
   * The held-out part's eighth batch (`names-8.jsonl`, `clean-8.jsonl`): Hypixel SkyBlock chat again,
   * from sources no earlier batch or the development part used (BloomModule, SkyblockAPI, SkyOcean,
   * skyblock-pv, ScamScreener's and AlpakaAddons' tests, SkyblockRemake's dragon fight), written by a
   * script in one go, committed and measured before any rule was changed for it; its untuned figure is
   * in CHANGELOG.md.
   */
  heldOut("eighth", "-8"),
  /**
   * The held-out part's ninth batch (`names-9.jsonl`, `clean-9.jsonl`): Hypixel SkyBlock chat from
   * sources no earlier batch or the development part used (VolcAddons, Doc, CatgirlAddons,
   * FloppaClient, DulkirMod), written by a script in one go, committed and measured before any rule
   * was changed for it; its untuned figure is in CHANGELOG.md.
   */
  heldOut("ninth", "-9"),
  /**
   * The held-out part's tenth batch (`names-10.jsonl`, `clean-10.jsonl`): what the scrubber really
   * sees in a bug report, client logs and crash reports that players pasted publicly: the crash
   * reports' `All players:` / `Forced entities:` / `Entity Name:` lines pasted in the issues of
   * SkyblockAddons (both forks), NotEnoughUpdates, Skyblocker, BazaarNotifier, Apec, SkyBlockcatia and
   * other mods, a Hypixel overlay's recorded client-log lines (vanilla, Forge, Lunar Client, a chat
   * bridge; Amund211/prism's parser tests) and log lines recorded in public tools' code, sources no
   * earlier batch or the development part used; written by a script in one go, committed and measured
   * before any rule was changed for it (the rules of issue 36's ninth batch were written without it);
   * its untuned figure is in CHANGELOG.md.
   */
  heldOut("tenth", "-10"),
  /**
   * The held-out part's eleventh batch (`names-11.jsonl`, `clean-11.jsonl`): what other servers' and
   * mods' bug reports carry, real log and crash-report lines pasted in public issues no earlier part
   * used: `All players:` and `Entity Name:` lines from crash reports of MineTek, ArmorPlus, OptiFine,
   * SlashBlade, Ears, Create, LevelZ, Levels, Ice and Fire, Pokecube, ViaFabricPlus, Create-Fly and
   * homestead; server logs (joins, leaves, logins with entity ids, `UUID of player`, lost connections,
   * GameProfile lines, whitelist refusals, FastLogin, LuckPerms, Autorank, Geyser and Floodgate lines)
   * from Turanic, PocketMine-MP, Mystcraft, Nukkit, ChatControl, CMI, LuckPermsWeb, minecraft-wrapper,
   * LegacyScriptEngine, MCDReforged, cuberite, fabric-loader, Re-Avaritia, BungeeCord, Geyser,
   * MultiLogin and others; a 1.20 client log's CoreProtect lookup and advancements (OptiFabric); names
   * substituted by commit-author handles of an unrelated repository. Written by a script in one go,
   * committed and measured before any rule was changed for it; its untuned figure is in CHANGELOG.md.
   */
  heldOut("eleventh", "-11"),
  /**
   * The held-out part's twelfth batch (`names-12.jsonl`, `clean-12.jsonl`): what a Hypixel mod's bug
   * report carries when a player pastes chat and logs, from sources no earlier part used: Bed Wars,
   * lobby and party-warp client-log lines recorded in a stats overlay's tests, a dungeon mod's party
   * and terminal lines "taken from a real captured log" (with codes), a fishing mod's party chat
   * (Russian `Компания` too), guild chat and joins from guild tools, launcher `Setting user:` lines,
   * 1.16+ `[Render thread/INFO]: [CHAT] <X>` lines, a server-log parser's fixtures (joins, UUIDs,
   * deaths, teleports, commands) and server consoles pasted in public issues (Signpost,
   * Infinity-Modpack, UltimateChat's DiscordSRV debug, MultiPaper, SevTech-Ages, a hosting panel);
   * names substituted by commit-author handles of an unrelated repository. Written by a script in one
   * go by a gatherer who did not read the rules, committed before it was measured.
   */
  heldOut("twelfth", "-12"),
  /**
   * The held-out part's thirteenth batch (`names-13.jsonl`, `clean-13.jsonl`): Hypixel SkyBlock chat as
   * other mods record and match it, from sources no earlier part used: FunnyMap's key and door lines,
   * NotEnoughFakepixel's dungeon, Diana and chat-cleaner lines, a chat mod's sender-parser tests, a
   * guild bot's join tests, a LabyMod addon's and a Diana mod's recorded party lines (with codes), a
   * Fabric mod's colour tests, auction, Kuudra, garden-visit and Party Finder patterns of ChatTriggers
   * modules and other mods; names substituted by commit-author handles of an unrelated repository.
   * Written by a script in one go by a gatherer who did not read the rules, measured once untouched.
   */
  heldOut("thirteenth", "-13"),
  /**
   * The held-out part's fourteenth batch (`names-14.jsonl`, `clean-14.jsonl`): Hypixel chat as other
   * tools record it (a Bazaar bot's, a slayer mod's, a party-commands mod's, a party-finder mod's and a
   * chat-rules test's recorded lines, with codes), lines built from Hypixel mods' patterns, and the
   * player-naming messages of two server plugins' language files (mcMMO, Towny), some behind a 1.8.9 or
   * a 1.20 client log's prefix; names substituted by commit-author handles of an unrelated repository.
   * Gathered by a helper who did not open the rules, committed before it was measured once.
   */
  heldOut("fourteenth", "-14"),
  /**
   * The held-out part's fifteenth batch (`names-15.jsonl`, `clean-15.jsonl`): 2b2t's death and chat
   * lines as a proxy records them, Wynncraft guild, party and raid lines (a mod's tests, with the
   * game's glyphs and codes), CubeCraft's messages (a client mod's language file), Hypixel game-end,
   * party and guild lines of other tools; names substituted by commit-author handles. Gathered by a
   * helper who did not open the rules, committed before it was measured once on the rules of
   * session 24.
   */
  heldOut("fifteenth", "-15"),
  /**
   * The held-out part's sixteenth batch (`names-16.jsonl`, `clean-16.jsonl`): Hypixel SkyBlock chat as
   * other tools match it (a Bingo party host's module, a guild-bridge formatter's bot replies, a Fabric
   * mod's dungeon tab list and party commands, ChatTriggers modules, a mineflayer bridge's patterns, a
   * chat-filter mod's Hypixel lines) and a Bed Wars plugin's English messages (other servers' kills,
   * party and game lines); names substituted by commit-author handles of an unrelated repository.
   * Gathered by a helper who did not open the rules, committed before it was measured.
   */
  heldOut("sixteenth", "-16"),
  /**
   * The held-out part's seventeenth batch (`names-17.jsonl`, `clean-17.jsonl`): Hypixel SkyBlock chat as a
   * Fabric SkyBlock mod and a ChatTriggers module match it (party leaves, removals, disconnects, kicks,
   * dungeon and Kuudra queues, Party Finder joins, loot shares, Kuudra supply calls, coordinates, party
   * commands, the mod's own list messages), recorded lines of search-index test files, a punishment
   * plugin's messages and a Discord bridge's formats (other servers); names substituted by commit-author
   * handles of an unrelated repository. Gathered by a helper who did not open the rules, committed before
   * it was measured.
   */
  heldOut("seventeenth", "-17"),
  /**
   * The held-out part's eighteenth batch (`names-18.jsonl`, `clean-18.jsonl`): another server's clan
   * plugin (SimpleClans: its messages and chat formats), a client's Hypixel popup patterns and a
   * macro's island-visit pattern; names substituted by commit-author handles of unrelated
   * repositories. Gathered by a helper who did not open the rules; the lines it built from Skytils'
   * and Odin's patterns were moved to the development part before measuring (those repositories are
   * the development part's own). Measured once on session 26's rules.
   */
  heldOut("eighteenth", "-18"),
  /**
   * The held-out part's nineteenth batch (`names-19.jsonl`, `clean-19.jsonl`): Hypixel SkyBlock chat as
   * two ChatTriggers modules (MeowAddons, GriffinOWO) and eight smaller mods and clients found by exact
   * text match it (party, dungeon, guild, trade, Kuudra, whispers, lists, deaths, friends, visits), from
   * repositories no other part used (the README's whole list checked); names substituted by
   * commit-author handles of two unrelated repositories. Gathered by a helper who did not open the
   * rules, measured once on session 26's rules.
   */
  heldOut("nineteenth", "-19"),
  /**
   * The held-out part's twentieth batch (`names-20.jsonl`, `clean-20.jsonl`): what players write in a
   * bug report's own words, sentences of public issue threads of SkyBlock mods, servers' trackers and
   * plugins (real names as written, or a real handle where the writer named a player by role), split
   * by repository from the development part's sentences of the same genre. Gathered by a helper who
   * did not open the rules; measured once on session 26's rules before any was written from the prose.
   */
  heldOut("twentieth", "-20"),
  /**
   * The held-out part's twenty-first batch (`names-21.jsonl`, `clean-21.jsonl`): players' own words in
   * bug reports again, from 43 server, plugin, mod and modpack trackers no other part used (servers'
   * trackers, anti-cheat and chat plugins, voice chat, modpacks; some French, German and Russian).
   * Gathered by a helper who did not open the rules; measured once on session 27's rules, which hold
   * session 26's prose rules: the first untouched measure of them.
   */
  heldOut("twenty-first", "-21"),
  /**
   * The held-out part's twenty-second batch (`names-22.jsonl`, `clean-22.jsonl`): players' own words in
   * other languages (French, German, Polish, Russian, Italian, Spanish, Portuguese) from 15 trackers no
   * other part used, split by repository from the development part's lines of the same genre. Gathered
   * by a helper who did not open the rules; measured once without and once with the line's language
   * (src/privacy/language.ts), written before the development part's lines were read.
   */
  heldOut("twenty-second", "-22"),
  /**
   * The held-out part's twenty-third batch (`names-23.jsonl`, `clean-23.jsonl`): players' own words in
   * bug reports, mostly English, from 159 server, plugin, mod, launcher and modpack trackers no other
   * part used. Gathered by a helper who did not open the rules; measured once on session 28's rules
   * (sessions 26 to 28's prose rules untouched by it).
   */
  heldOut("twenty-third", "-23"),
];

/** Clean families that are identifiers: not one may be altered or refused. */
export const identifierFamilies = new Set(["item_id", "item_key", "island_id", "version", "profile_name"]);

export const measureKey = "a-test-key-that-is-long-enough-0123456789";

/**
 * The game's own words as the report intake hands them to the scrubber (issue 36): the words of the
 * item list's names, here from the recorded lists (test/support/recorded/), so the measurement sees
 * what production sees (production holds the current list, a superset of most of these).
 */
export const gameWords: ReadonlySet<string> = itemWords([
  ...recordedItemList().items.map((i) => i.name),
  ...Object.values(recordedItemNames2022()),
]);

/**
 * Is `name` still there as a word of `text`, read without its colour codes: the game's (`§b`) and
 * the `&b` that plugin files and some mods' logs write instead (a name after `&3` is still a word)?
 */
export const stillThere = (text: string, name: string) =>
  new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).test(text.replace(/§./g, "").replace(/&[0-9a-fk-or]/gi, ""));

/** The names of one line that survive scrubbing. */
export function namesLeft(line: NameLine, options: ScrubOptions = {}): string[] {
  const out = scrubText(measureKey, line.text, { gameWords, ...options });
  return line.names.filter((n) => stillThere(out, n));
}

/** Would an upload carrying `text` be refused (the denylist as ingest runs it, its fallback on unless off)? */
export const refused = (text: string, options: ScrubOptions = {}) =>
  denylistMatch(text, { unknownWords: options.unknownWords !== false }) !== undefined;
export const altered = (text: string, options: ScrubOptions = {}) =>
  scrubText(measureKey, text, { gameWords, ...options }) !== text;
