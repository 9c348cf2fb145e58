// Crash reports and game logs: player lists, game profiles, entity details, vanilla chat. Name
// families (see families.ts for how a rule is written).

import { NAME, rule, START, type Family } from "./shapes.ts";

export const crashReport: Family = {
  family: "crash_report",
  gate: /\['|\]\(|name=|Setting user|Username|Player name|Logged in as|Entity Type|Entity Name|<[A-Za-z0-9_]/,
  doc: "Crash reports and game logs: player lists, game profiles, entity details, user lines, vanilla chat",
  rules: [
    // An entity whose class is a player's, in any mapping (issue 36): "EntityPlayerSP['X'/1",
    // "EntityClientPlayerMP['X'/1" (1.7.10), "EntityPlayer['X'/1" (a server's list), "LocalPlayer['X'/1",
    // "class_746['X'/1". Looked for by its "['", the class checked behind it.
    rule(`\\['(?<=(?:Player[A-Za-z0-9_$]{0,30}|class_\\d{1,5})\\[')(?<name>${NAME})'/`),
    // A list that holds players alone (issue 36): every entity after "All players: 11 total; [" or a
    // server's "Player Count: 5 / 30; [" is a player, whatever its class, obfuscated ones too
    // ("bll['X'/56391, ..]"); find.ts reads them to the line's end.
    rule(`^[ \\t]{0,8}(?:All players|Player Count): `, { entities: true }),
    // A server's player entity as Paper prints it, its name again after the entity: "..., d=false](X at
    // 290.74,87.0,-397.43)" (issue 36: a pasted stretch may start after the entity's own quotes).
    rule(`\\]\\((?<name>${NAME}) at -?\\d{1,9}\\.\\d`),
    rule(
      `(?:GameProfile|class_\\d{1,5}|PlayerInfo|Profile)(?:@[0-9a-f]{1,16})?[\\[{](?:id=[0-9a-fA-F-]{0,36}, ?)?name=(?<name>${NAME})`,
    ),
    rule(`(?:Setting user|Username|Player name|Logged in as): (?<name>${NAME})`),
    rule(
      `^[ \\t]{0,8}Entity Type: [^\\n]{0,60}[Pp]layer[^\\n]{0,80}\\n[ \\t]{0,8}Entity ID: \\d{1,10}\\n` +
        `[ \\t]{0,8}Entity Name: (?<name>${NAME})`,
    ),
    // An entity's name alone on its detail line (issue 36: a pasted excerpt often starts there), unless
    // the entity's type two lines above is not a player's; a mob's own name is a system word.
    rule(
      `^[ \\t]{0,8}Entity Name: (?<!Entity Type: (?![^\\n]{0,120}[Pp]layer)[^\\n]{0,120}\\n[^\\n]{0,60}\\n[ \\t]{0,8}Entity Name: )` +
        `(?<name>${NAME})[ \\t]*$`,
      { speaker: true },
    ),
    rule(`${START}<(?<name>${NAME})> `),
  ],
  examples: [
    ["\tAll players: 1 total; [EntityPlayerSP['Steve'/123, l='MpServer', x=1.50, y=70.00, z=3.50]]", ["Steve"]],
    ["[CHAT] <Alex_99> anyone for F7?", ["Alex_99"]],
    [
      "\tAll players: 2 total; [bjk['Steve'/56557, l='MpServer', x=0.49], bll['Alex_99'/56391, l='MpServer', x=0.50]]",
      ["Steve", "Alex_99"],
    ],
    ["\tEntity Name: Alex_99", ["Alex_99"]],
  ],
};
