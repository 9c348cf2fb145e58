// The scrubbing corpus: chat lines, launcher command lines, paths and addresses a bug report may
// carry, with what must be gone after scrubbing and what must be there instead. Shared by the
// scrubber's tests and the intake and chat tests (nothing identifying stored or posted).
import { pseudonym } from "../../src/privacy/pseudonym.ts";

export const scrubKey = "a-test-key-that-is-long-enough-0123456789";
const p = (name: string) => pseudonym(scrubKey, name);

/** [text, what must be gone, what must be there instead (or still there)] */
export const scrubCorpus: [string, string[], string[]][] = [
  ["Party > [MVP+] Steve: go mort", ["Steve"], [`Party > [MVP+] ${p("Steve")}: go mort`]],
  ["Guild > Alex_99 [Officer]: hi all", ["Alex_99"], [p("Alex_99")]],
  ["Co-op > Steve: sell the gems", ["Steve"], [p("Steve")]],
  ["From [VIP] Notch: want to trade?\nTo Alex_99: sure", ["Notch", "Alex_99"], [p("Notch"), p("Alex_99")]],
  ["Steve joined.\nAlex_99 left the party.", ["Steve", "Alex_99"], [`${p("Steve")} joined.`]],
  ["Notch has joined the lobby!", ["Notch"], [p("Notch")]],
  ["RARE DROP! Enchanted Book (+120% ✯ Magic Find) [MVP+]Steve", ["Steve"], ["RARE DROP! Enchanted Book"]],
  ["[287] [MVP++] Technoblade: gg", ["Technoblade"], ["[287] [MVP++] "]],
  ["Killed by [YOUTUBE] Dream", ["Dream"], [p("Dream")]],
  [
    "owner 069a79f4-44e9-4726-a5be-fca90e38aaf5 and 069a79f444e94726a5befca90e38aaf5",
    ["069a79f4", "fca90e38aaf5"],
    [`owner ${p("069a79f444e94726a5befca90e38aaf5")} and ${p("069a79f444e94726a5befca90e38aaf5")}`],
  ],
  [
    "java -Xmx4G -cp libs.jar net.minecraft.client.main.Main --username Steve --uuid 069a79f444e94726a5befca90e38aaf5 --accessToken eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl --clientId c2VjcmV0 --xuid 2535412345678901 --version fabric-loader-0.16.9-1.21.4",
    ["Steve", "eyJhbGci", "c2VjcmV0", "2535412345678901", "069a79f4"],
    [`--username ${p("Steve")}`, "--accessToken <redacted>", "--version fabric-loader-0.16.9-1.21.4"],
  ],
  [
    "Setting user: Steve\nSession ID is token:3f2a9c8e7d6b5a4f:069a79f444e94726a5befca90e38aaf5",
    ["Steve", "3f2a9c8e7d6b5a4f", "069a79f4"],
    ["token:<redacted>", `Setting user: ${p("Steve")}`],
  ],
  [
    "[12:00:01] [Render thread/INFO]: [CHAT] <Alex_99> anyone for F7?\n<Notch> sure",
    ["Alex_99", "Notch"],
    [`[CHAT] <${p("Alex_99")}> anyone`, `<${p("Notch")}> sure`],
  ],
  [
    "C:\\Users\\Steven Smith\\AppData\\Roaming\\.minecraft\\mods\\tally.jar",
    ["Steven Smith"],
    ["C:\\Users\\<user>\\AppData\\Roaming\\.minecraft"],
  ],
  ["C:\\\\Users\\\\steve\\\\AppData (escaped in a JSON log)", ["steve"], ["C:\\\\Users\\\\<user>\\\\AppData"]],
  [
    "at loading /home/steve/.local/share/PrismLauncher/instances/x and /Users/alex/Library/Application Support/minecraft",
    ["steve", "alex"],
    ["/home/<user>/.local", "/Users/<user>/Library"],
  ],
  [
    "Connecting to 192.168.1.20, 25565 and mc.example.org via 10.0.0.7:25565",
    ["192.168.1.20", "10.0.0.7"],
    ["Connecting to <ip>, 25565", "via <ip>"],
  ],
  ["mail me at steve.smith+mc@example.co.uk please", ["steve.smith", "example.co.uk"], ["mail me at <email> please"]],
  ["[ERROR] Something failed in module Loader", [], ["[ERROR] Something failed in module Loader"]],
  [
    "tally 1.0.1.1 (v2.3.4.5, build 1.2.3.4-beta, version 10.2.0.7) on 10.0.0.7:25565 from 192.168.1.20, server 10.1.2.3",
    ["10.0.0.7", "192.168.1.20", "10.1.2.3"],
    ["tally 1.0.1.1 (v2.3.4.5, build 1.2.3.4-beta, version 10.2.0.7) on <ip> from <ip>, server <ip>"],
  ],
  [
    "[VIP] Steve was kicked from the guild by [MVP+] Alex_99!\nGuild > Notch left.\nNotch: gg\n[MVP+] Alex_99 ●  jeb_ ●  Dinnerbone ●",
    ["Steve", "Alex_99", "Notch", "jeb_", "Dinnerbone"],
    [`[VIP] ${p("Steve")} was kicked from the guild by [MVP+] ${p("Alex_99")}!`, `${p("Notch")}: gg`],
  ],
  [
    "Description: Rendering screen\nAbility: Throw  RIGHT CLICK\nCaused by: java.lang.NullPointerException\nINFO: loading",
    [],
    [
      "Description: Rendering screen\nAbility: Throw  RIGHT CLICK\nCaused by: java.lang.NullPointerException\nINFO: loading",
    ],
  ],
  [
    "Minecraft 1.21.4, Fabric 0.16.9, tally 1.3.1, Java 21.0.5",
    [],
    ["Minecraft 1.21.4, Fabric 0.16.9, tally 1.3.1, Java 21.0.5"],
  ],
];
