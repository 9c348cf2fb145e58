// Crash reports and game logs: player lists, game profiles, entity details, vanilla chat. Name
// families (see families.ts for how a rule is written).

import { NAME, rule, START, type Family } from "./shapes.ts";

export const crashReport: Family = {
  family: "crash_report",
  gate: /\['|name=|Setting user|Username|Player name|Logged in as|Entity Type|<[A-Za-z0-9_]/,
  doc: "Crash reports and game logs: player lists, game profiles, entity details, user lines, vanilla chat",
  rules: [
    rule(
      `(?:EntityPlayerSP|EntityOtherPlayerMP|EntityPlayerMP|LocalPlayer|RemotePlayer|ServerPlayer|ClientPlayerEntity|` +
        `OtherClientPlayerEntity|ServerPlayerEntity|class_\\d{1,5})\\['(?<name>${NAME})'/`,
    ),
    rule(
      `(?:GameProfile|class_\\d{1,5}|PlayerInfo|Profile)(?:@[0-9a-f]{1,16})?[\\[{](?:id=[0-9a-fA-F-]{0,36}, ?)?name=(?<name>${NAME})`,
    ),
    rule(`(?:Setting user|Username|Player name|Logged in as): (?<name>${NAME})`),
    rule(
      `^[ \\t]{0,8}Entity Type: [^\\n]{0,60}[Pp]layer[^\\n]{0,80}\\n[ \\t]{0,8}Entity ID: \\d{1,10}\\n` +
        `[ \\t]{0,8}Entity Name: (?<name>${NAME})`,
    ),
    rule(`${START}<(?<name>${NAME})> `),
  ],
  examples: [
    ["\tAll players: 1 total; [EntityPlayerSP['Steve'/123, l='MpServer', x=1.50, y=70.00, z=3.50]]", ["Steve"]],
    ["[CHAT] <Alex_99> anyone for F7?", ["Alex_99"]],
  ],
};
