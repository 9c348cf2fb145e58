// What a server's, an integrated server's or a proxy's console and a client log print about a player
// (issue 36, src/privacy/console-families.ts and the log prefixes of shapes.ts): the name a reader
// would see is gone from the scrubbed text and the line is refused at ingest; the console's own lines
// (worlds, levels, threads, plugins, start-up) come out unchanged.
import { describe, expect, test } from "bun:test";
import { denylistMatch } from "../../src/privacy/denylist.ts";
import { stillThere } from "./corpus.ts";
import { scrubFields, scrubText } from "../../src/privacy/scrub.ts";
import { pseudonym } from "../../src/privacy/pseudonym.ts";

const key = "a-console-test-key-that-is-long-enough-0123";
const gone = (text: string, name: string) => !stillThere(scrubText(key, text), name);

const named: [string, string[]][] = [
  [
    "[16:39:32] [User Authenticator #10639/INFO]: UUID of player Kestrel_77 is a00b999e-001b-4807-b999-add902b9999c",
    ["Kestrel_77"],
  ],
  [
    "[12:00:00] [Server thread/INFO]: Nebulous[/127.0.0.1:53422] logged in with entity id 123 at (1.0, 2.0, 3.0)",
    ["Nebulous"],
  ],
  ["[12:00:00 INFO]: Rookwood joined the game", ["Rookwood"]],
  ["[12:00:00 INFO]: Rookwood left the game", ["Rookwood"]],
  ["[12:00:00] [Server thread/INFO] [minecraft/MinecraftServer]: Rookwood joined the game", ["Rookwood"]],
  [
    "[12:00:00] [Server thread/INFO]: com.mojang.authlib.GameProfile@1a2b3c[id=5faee1a6-b4f5-3eb9-b90a-dd57407c43ae,name=Larkspur,properties={},legacy=false] (/8.8.4.4:5555) lost connection: Disconnected",
    ["Larkspur"],
  ],
  ["GameProfile{id=5faee1a6-b4f5-3eb9-b90a-dd57407c43ae, name=Larkspur, properties={}}", ["Larkspur"]],
  ["[12:00:00 INFO]: Harmonia lost connection: Disconnected", ["Harmonia"]],
  ["[12:00:00 INFO]: Disconnecting Harmonia (/1.2.3.4:5555): Took too long to log in", ["Harmonia"]],
  ["[12:01:33] [Server thread/INFO]: <Larkspur> anyone at spawn?", ["Larkspur"]],
  ["[12:01:33] [Server thread/INFO]: [Not Secure] <Larkspur> anyone at spawn?", ["Larkspur"]],
  ["[12:34:56] [Server thread/INFO]: Nebulous issued server command: /tp Goldshard", ["Nebulous", "Goldshard"]],
  ["+ Harmonia placed stone", ["Harmonia"]],
  ["- Rookwood broke dirt", ["Rookwood"]],
  ["0.00/h ago - Larkspur placed #4 (Cobblestone).", ["Larkspur"]],
  ["[10:55:40] [Render thread/INFO]: [System] [CHAT] §a+ Larkspur§f placed dirt", ["Larkspur"]],
  [
    "[12:00:00 INFO]: [floodgate] Floodgate player logged in as .Tinkerbolt joined (UUID: 00000000-0000-0000-0009-01f96f719a2b)",
    ["Tinkerbolt"],
  ],
  ["[12:00:00 INFO]: .Tinkerbolt joined the game", ["Tinkerbolt"]],
  ["[12:00:00 INFO]: *Tinkerbolt was slain by Zombie", ["Tinkerbolt"]],
  ["[12:00:00] [Server thread/INFO]: Kicked Harmonia: griefing", ["Harmonia"]],
  ["[12:00:00] [Server thread/INFO]: Banned Harmonia: griefing", ["Harmonia"]],
  ["[12:00:00] [Server thread/INFO]: Opped Harmonia", ["Harmonia"]],
  ["[12:00:00] [Server thread/INFO]: [Nebulous: Made Harmonia a server operator]", ["Harmonia", "Nebulous"]],
  ["[12:00:00] [Server thread/INFO]: Zyra_K was slain by Zombie", ["Zyra_K"]],
  ["[12:00:00] [Server thread/INFO]: Zyra_K has made the advancement [Stone Age]", ["Zyra_K"]],
  [
    "[12:00:00] [Server thread/INFO]: Goldshard[local:E:1234abcd] logged in with entity id 7 at (0.5, 64.0, 0.5)",
    ["Goldshard"],
  ],
  ["[12:00:00] [Server thread/INFO]: Player Goldshard (1a2b3c4d-0000-1111-2222-333344445555) joined", ["Goldshard"]],
  ["[12:00:00] [Server thread/WARN]: Exception handling packet for player Goldshard", ["Goldshard"]],
  ["[16:41:16 INFO]: [connected player] Zyra_K (/10.42.2.69:53802) has connected", ["Zyra_K"]],
  ["02:07:04 [INFO] [Nebulous,/127.0.0.1:13565] <-> InitialHandler has connected", ["Nebulous"]],
  ["[2024-04-01 20:50:26:198 INFO] Player connected: Tinkerbolt, xuid: 2535413418839840", ["Tinkerbolt"]],
  ["mc-1  | [12:00:00] [Server thread/INFO]: Harmonia joined the game", ["Harmonia"]],
];

const clean = [
  "[12:00:00] [Server thread/INFO]: Saving chunks for level 'ServerLevel[New World]'/minecraft:overworld",
  "[12:00:00] [Server thread/INFO]: Preparing spawn area: 84%",
  "[12:00:00] [Worker-Main-3/INFO]: Preparing spawn area: 84%",
  '[12:00:00] [Server thread/INFO]: Done (3.214s)! For help, type "help"',
  '[12:00:00 INFO]: Done (12.345s)! For help, type "help"',
  "[12:00:00] [Render thread/INFO]: Reloading ResourceManager: vanilla, fabric",
  "[12:00:00] [Server thread/INFO]: [CoreProtect] CoreProtect has been successfully enabled!",
  "[12:00:00 INFO]: [LuckPerms] Loading configuration...",
  "[12:00:00 INFO]: [Essentials] CONSOLE issued server command: /list",
  "[12:00:00] [Server thread/INFO]: [Server: Set the time to 1000]",
  "[12:00:00] [Server thread/INFO]: Set own game mode to Creative Mode",
  "[12:00:00] [Server thread/INFO]: Kicked from server: Timed out",
  "[12:00:00] [Server thread/INFO]: Gave 64 [Stone] to 2 players",
  "[12:00:00] [Server thread/INFO]: Starting integrated minecraft server version 1.20.1",
  "[12:00:00] [Server thread/WARN]: Exception handling packet for player list",
  "[02:18:52 INFO]: [/127.0.0.1:14426] <-> InitialHandler has connected",
  "[12:00:00 INFO]: [Geyser-Spigot] Started Geyser on 0.0.0.0:19132",
  // 0.0.0.0/8 is nobody's address (RFC 6890): a four-part version with a leading zero stays.
  "[12:00:00] [main/INFO]: Loading tally 0.10.0.5 for Minecraft 1.8.9",
  "- Fixed crash when opening the menu",
  "- Sodium placed first in benchmarks",
  "----- CoreProtect ----- (x2/y63/z-6)",
];

describe("console lines about a player", () => {
  test.each(named)("%s", (text, names) => {
    for (const name of names) expect(gone(text, name)).toBe(true);
    expect(denylistMatch(text)).toBeDefined();
  });
});

describe("a console's own lines", () => {
  test.each(clean)("%s", (text) => {
    expect(scrubText(key, text)).toBe(text);
    expect(denylistMatch(text)).toBeUndefined();
  });
});

test("a player a console names once is replaced everywhere in the report, a Bedrock mark kept", () => {
  const { fields } = scrubFields(key, {
    title: "Crash when Tinkerbolt opened the menu",
    log: "[12:00:00 INFO]: Disconnecting .Tinkerbolt (/1.2.3.4:5555): Timed out",
  });
  expect(fields.title).toBe(`Crash when ${pseudonym(key, "Tinkerbolt")} opened the menu`);
  expect(fields.log).toContain(`.${pseudonym(key, "Tinkerbolt")} (/<ip>)`);
});
