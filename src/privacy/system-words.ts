// Words that stand before ": " at the start of a line without being anyone (issue 36). A speaker
// rule (families.ts, `speaker: true`) takes the word in a speaker's place for a player's name unless
// it is one of these: one list of words rather than one rule per shape of line. Compared lower-case;
// a word in capitals only ("INFO", "ERROR", "CPU") is never a speaker either (find.ts).

/** The game's labels, mob names, the catalogue's words, and the labels of crash reports and logs. */
export const SYSTEM_WORDS: ReadonlySet<string> = new Set(
  [
    // Stats, lore, scoreboard, tab-list widgets and menus (the NEU item repository's lore lines,
    // SkyHanni's system lines: the development corpus's clean part)
    "health defense damage strength speed intelligence ferocity mending vitality accuracy crit critical",
    "magic find fortune pristine wisdom luck bonus true mana attack ability abilities cooldown duration",
    "tier cost costs uses charges remaining obtained capacity amount effect effects edition date color",
    "colour selected nearby counter score time kills island islands area server purse bits piggy motes",
    "copper gems objective location profile floor level levels pet pets slayer boss zone lobby rank",
    "class classes mode status progress reward rewards requires required requirement requirements",
    "seller buyer bidder owner price note notes tip tips warning info error exception description type",
    "memory version teleport sweep mithril gemstone passive attracts auctions respiration water",
    "shortbow pull player playtime cold volcano glacite tickets fruits cleanup plots hearts mineshafts",
    "overbloom fear vinyls from day month year season event events contest collection collections",
    "skill skills dungeon dungeons rift farming mining foraging combat enchanting alchemy taming",
    "carpentry runecrafting social archer berserk healer mage tank secrets deaths puzzles milestone",
    "cleared completed completion crypts essence stats stat quiver arrows slot slots storage sack",
    "sacks bank coins coin balance interest total value worth sold bought bid bids ends ending",
    "starting started starts lasts expires expired item items drop drops loot chance rarity quality",
    "gear upgrade upgrades enchant enchants enchantments reforge stars perks perk tasks task goal",
    "goals quest quests commission commissions visitor visitors crop crops jacob medals medal pelts",
    "pests spray plot sprayed composter fuel power powder hotm heart recipe recipes ingredients",
    "ingredient unlocked locked maxed next current previous personal best record records left right",
    "click shift sneak hold use usage cast cooldowns npc npcs mayor minister election candidate votes",
    "spawn spawned spawning kill killed hits hit combo mobs mob bestiary family members member leader",
    "moderators moderator online offline party guild friends friend message messages chat channel",
    "world map room rooms puzzle puzzles blessing",
    // Gemstone qualities ("☠ Fine Onyx Gemstone x2": the sign is the gemstone's, not a death)
    "rough flawed fine flawless perfect",
    // Single-word mob and boss names of the bestiary (the development corpus's mob_name family, from
    // the NEU repository): a tab-list widget's "Broodmother: Soon"
    "agarimoo alligator ant arachne areita ashfang automaton autonull azure bal bambuleaf banshee",
    "bat beeheemoth beetle billygoat birries bladesoul blaze blight bloodbat bluebird bogged",
    "bonzo brineling broodmother bunbun butterfly catacombs catfish cavernfish chicken chickzilla",
    "chill chillblade chillshot chuckwalla cod coralot cow creeper cricket deadgehog doomspiral",
    "dragon dragonfly dreadwing driftling dropship drybark duplico dustybit earthworm ember",
    "enderman endermite ent fels fishing flare fledgling flipflopper flitter fluffling fly",
    "foxtrot frosty frozille garden gazer gemzie ghast ghost gimmiegold goblin golem gorf grinch",
    "groundhog grunt haggard harpy hewver hideonfloor hideonleaf hideonsun hideonwall hideyho",
    "hivethief honeybug honeybuzz honeyhog honeymite hub inkling invisibug jerry joydive kuudra",
    "larva lava litterbug littlefoot livid locust lotum lotusfish lumisquid macaw manticore",
    "matcho mimic minotaur mite mochibear moogma mosquito mossybit moth murkbat necron nessie",
    "nightmare nozzlenose nutcracker pangolin parakeet parched phanflare phanpyre pig plhlegblast",
    "polaris pollendart puck puff rabbit ragnarok rat reindrake rockmite sadan salmon scarecrow",
    "scarf scatha scrappy scribe seashine seer sepialot shadow sheep shellwise shuddersquid shy",
    "shyworm silkbreeze silverfish skeleton skeletonhorse skeletor slime sludge slug snoozle",
    "solar solsnatcher sphinx spider spike splatter sprawl squid stoneworm stridersurfer",
    "strongarm tadgang taurus tentacle tepid terracotta tewtil thorn thrall thunder thyst tidetot",
    "tiki timil titanoboa torrid treefrog troodon undead vanquisher verdant volt watcher werewolf",
    "wetwing witch withermancer witherskeleton wolf woodchucker woodlouse wraith wumpa yeti yog",
    "zealot zombie zombuddy",
    // Vanilla's mobs a death message names (issue 36, death-families.ts): "X was slain by Pillager",
    // "Villager ..died, message: 'Mason was slain by Vindicator'"
    "villager pillager vindicator evoker ravager vex husk stray drowned piglin hoglin zoglin brute",
    "guardian elder shulker phantom warden breeze llama goat bee fox panda dolphin axolotl iron snow",
    "wither ender polar bear cat ocelot parrot turtle strider magma cube cave zombified trader",
    // The catalogue's words (catalogue/catalogue.json: categories, namespaces, units, groups)
    "account gathering service uploads sent count",
    // Crash reports, launchers, logs, stack traces, and the labels of a report's free text
    "details stacktrace caused suppressed errors warnings fatal debug trace severe failure failed",
    "reason cause summary problem issue bug bugs steps expected actual result results workaround edit",
    "update hint suggestion solution renderer vendor launcher loader mods mod modpack modlist",
    "minecraft fabric forge quilt java jvm optifine sodium iris lunar badlion feather essential",
    "processor graphics display screen backend window resolution driver drivers username uuid",
    "session token cpu gpu ram arch system thread threads stack frame line file path directory",
    "folder module modules method field dimension entity entities block blocks position tick ticks",
    "heap allocated used launched launch args arguments flags properties property config",
    "configuration setting settings environment env platform name title key value id ids output",
    "input log logs timestamp head body sample report reports crash crashed generated here there",
    "this that then now today",
    // What a "Player" label names when it is a noun of its own (issue 36): "Player list: ..",
    // "Player model loaded", "Player data saved"
    "list model data skin skins names inventory cache weather",
  ]
    .join(" ")
    .split(" "),
);
