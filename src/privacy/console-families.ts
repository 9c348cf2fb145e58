// What a server's or an integrated server's console and a client log print about a player (issue 36,
// the eleventh batch: logs pasted in public issues). Name families (see families.ts for how a rule
// is written). The structure is the console's, not a server's words: a player's connection (its
// address or `local` in brackets after the name, the name before "lost connection" or after
// "Disconnecting"), a command a player ran, what an operator's command reports back ("Kicked X:",
// "Made X a server operator", echoed to the other operators as "[Y: ...]"), a block logger's rows,
// and a Bedrock player's mark (".X"). The console's own prefix is LOG_PREFIX (shapes.ts), read by
// every clause rule, so "X joined the game" and "X was slain by Zombie" need no rule here.

import {
  anyOf,
  BEDROCK,
  CLAUSE_LEAD,
  CLAUSE_START,
  NAME,
  RANK_TAG,
  rule,
  START,
  SUBJECT,
  type Family,
} from "./shapes.ts";

/** A connection's address after a name, in brackets or parentheses: "[/1.2.3.4:5555]", "[local:E:1a2b3c4d]", " (/1.2.3.4:5555)". */
const ADDRESS = "(?:\\[(?:/[^\\]\\n]{1,60}|local(?::[^\\]\\n]{0,40})?)\\]| \\(/[^)\\n]{1,60}\\))";

/**
 * What an operator's command reports about its target (vanilla's command feedback), each verb with
 * what follows its target: "Kicked X: reason", "Banned player X", "Made X a server operator", "Added
 * X to the whitelist", "Teleported X to ..", "Set X's game mode to ..".
 */
const FEEDBACK =
  `(?:(?:Kicked|Banned) ${BEDROCK}(?<name>${NAME})(?=:|[ \\t]*$|\\])|` +
  `(?:Banned player|Unbanned player|Pardoned|Opped|De-?opped) ${BEDROCK}(?<name>${NAME})(?=[.:]|[ \\t]*$|\\])|` +
  `Made ${BEDROCK}(?<name>${NAME}) (?:a|no longer a) server operator|` +
  `(?:Added|Removed) ${BEDROCK}(?<name>${NAME}) (?:to|from) the whitelist|` +
  `Teleported ${BEDROCK}(?<name>${NAME}) to |Set ${BEDROCK}(?<name>${NAME})'s game mode|Cleared the inventory of ${BEDROCK}(?<name>${NAME})|` +
  `Gave \\d{1,5} \\[[^\\]\\n]{1,60}\\] to ${BEDROCK}(?<name>${NAME})(?=[ \\t]*$|\\]))`;
/** The verbs FEEDBACK starts with, to check a line's start behind them. */
const FEEDBACK_VERB =
  "(?:Kicked|Banned(?: player)?|Unbanned player|Pardoned|Opped|De-?opped|Made|Added|Removed|Teleported|Set|Cleared the inventory of|Gave) ";

/** Who runs a command or speaks without being a player: the console, a remote console, a broadcast. */
const NOT_OPERATOR = "(?:Server|Console|CONSOLE|Rcon|RCON|Broadcast)(?![A-Za-z0-9_])";

/** The commands whose first argument is a player. */
const TARGETED =
  "(?:tp|teleport|tpa|tpahere|tphere|tpo|msg|tell|w|whisper|m|kick|ban|tempban|pardon|unban|op|deop|mute|unmute|" +
  "warn|jail|invsee|ec|enderchest|heal|feed|fly|god|seen|whois|kill|clear|give|gamemode [a-z]{1,12}|whitelist (?:add|remove)|" +
  "lp user|ipban|ban-ip|spectate|vanish|nick|sudo|pay|trust|untrust|player)";

/** What a console prints after a player whose connection ended or who ran a command. */
const ENDED =
  " (?:lost connection: |issued server command: |executed command: |moved (?:too quickly|wrongly)!|has disconnected)";

/** The verbs of a block logger's rows (CoreProtect, LogBlock, Prism): "+ X placed stone", "0.02/h ago - X broke dirt". */
const LOGGED_ACTION =
  "(?:placed|broke|removed|added|killed|clicked|dropped|picked up|opened|ignited) (?=x?\\d|#|[a-z])";

export const consoleLine: Family = {
  family: "console",
  gate: anyOf(
    "logged in",
    "lost connection",
    "Disconnecting",
    "issued server command",
    "Gave ",
    "UUID of player",
    "with username",
    "ed ",
    "Made ",
    "Set ",
    "layer ",
    "moved ",
    "connect",
    "xuid",
    "Chat Thread",
    "Not Secure",
    "\\] <?->",
    "\\+ ",
    "- ",
  ),
  doc: "A server console and client log about a player: X[/1.2.3.4:5555] logged in with entity id, X lost connection: .., Disconnecting X (/ip): .., X issued server command: /tp, Kicked X: .., Made X a server operator, + X placed stone, .X (Bedrock)",
  rules: [
    // A player's connection, the address (or `local` for the integrated server) in brackets after
    // the name: "X[/127.0.0.1:53422] logged in with entity id 123 at (..)", "X[local:E:1a2b3c4d] logged
    // in", "X (/1.2.3.4:5555) lost connection: Disconnected". Looked for by the address, the name
    // checked behind it: at a clause's start, or after whatever prefix a wrapper puts before the
    // console's ("[MCDR] [..] [Server/INFO]: X[/ip] logged in"): a name with its address is a player.
    rule(
      `${ADDRESS}(?<=(?:${CLAUSE_START}${SUBJECT}|(?<![^ \\t\\]>:])${BEDROCK}(?<name2>${NAME}))${ADDRESS})(?= logged in with entity id| lost connection| logged out| has disconnected| <?->)`,
      { speaker: true },
    ),
    // A player's connection ended, or a command a player ran, after the console's prefix (the clause
    // rules read the prefix; a Bedrock mark may stand before the name): "X lost connection:
    // Disconnected", "X issued server command: /tp Y", "X moved too quickly!".
    rule(`${ENDED}(?<=${CLAUSE_START}${SUBJECT}${ENDED})`, { speaker: true }),
    // The server closing a player's connection, by name: "Disconnecting X (/1.2.3.4:5555): You are
    // not white-listed", "Disconnecting .X (/ip): Took too long to log in".
    rule(`Disconnecting ${BEDROCK}(?<name>${NAME})(?= \\(/|:)`, { speaker: true }),
    // Who a login, a uuid or a Bedrock account is: "UUID of player .X is 0000..", "[floodgate]
    // Floodgate player logged in as .X joined", "X (logged in as: X) has connected", "Player connected
    // with username X".
    rule(`(?:UUID of player|[Ll]ogged in as:?|connected with username) '?${BEDROCK}(?<name>${NAME})`, {
      speaker: true,
    }),
    // What an operator's command reports about its target, at a line's start or in the echo the other
    // operators see: "Kicked X: Flying is not enabled", "[Y: Made X a
    // server operator]" (the echo rule below reads Y). Looked for by the verb, the line's start checked
    // behind it.
    rule(`(?=${FEEDBACK_VERB})(?<=${CLAUSE_LEAD}(?:\\[${BEDROCK}${NAME}: )?)${FEEDBACK}`, { speaker: true }),
    // The player a command a player ran names first (a teleport, a message, a punishment, an
    // inspection): "X issued server command: /tp Y", "/msg Y hi", "/ban Y griefing", "/invsee Y".
    rule(`issued server command: /${TARGETED} ${BEDROCK}(?<name>${NAME})`, { speaker: true }),
    // The destination of "Teleported X to Y".
    rule(`Teleported ${BEDROCK}${NAME} to ${BEDROCK}(?<name>${NAME})(?=[ \\t]*$|[ \\t]*\\])`, { speaker: true }),
    // An operator's echo of any command's report: "[Y: Gave 64 [Stone] to X]", "[Y: Set the time to 1000]".
    rule(`\\[(?<=${CLAUSE_LEAD}\\[)(?!${NOT_OPERATOR})${BEDROCK}(?<name>${NAME}): [A-Z][a-z]{1,20} [^\\n]{0,200}\\]$`, {
      speaker: true,
    }),
    // Chat as a server's console prints it through a chat plugin, after the chat thread's prefix or
    // 1.19's unsigned mark (the thread says it is chat, whatever the plugin's format): "[Async Chat
    // Thread - #3/INFO]: [Member] X: hi", "[Not Secure] [VIP] X » hi".
    rule(
      `(?:Async Chat Thread[^\\]\\n]{0,20}\\]:? |\\[Not Secure\\] )(?!\\[${NOT_OPERATOR}\\])(?:\\[[^\\]\\n]{1,20}\\] ?)?(?:${RANK_TAG} ?)?${BEDROCK}(?<name>${NAME})(?=: | » | > )`,
      { speaker: true },
    ),
    // A proxy's connections (Velocity, BungeeCord): "[connected player] X (/1.2.3.4:5555) has connected",
    // "[server connection] X -> lobby has connected", "[X,/1.2.3.4:5555] <-> InitialHandler has
    // connected", "[/1.2.3.4:5555|X] -> UpstreamBridge has disconnected", "[X] disconnected with: ..".
    rule(`\\[(?:connected player|server connection)\\] ${BEDROCK}(?<name>${NAME})(?= \\(| ->|:)`, { speaker: true }),
    rule(
      `\\[(?:/[^|\\]\\n]{1,60}\\|)?${BEDROCK}(?<name>${NAME})(?:,/[^\\]\\n]{1,60})?\\] (?=<->|->|disconnected with|has (?:dis)?connected)`,
      { speaker: true },
    ),
    // A Bedrock server's connections, the gamertag (which may hold spaces) before its xuid: "Player
    // connected: X, xuid: 2535..", "Player disconnected: X, xuid: ..", "Player Spawned: X xuid: ..".
    rule(
      `Player (?:connected|disconnected|[Ss]pawned): (?<name>[A-Za-z0-9_](?:[A-Za-z0-9_]| (?! )){1,14}[A-Za-z0-9_])(?=,? xuid)`,
      { speaker: true },
    ),
    // A block logger's row, in a console or as chat in a client's log: "+ X placed stone", "- X broke dirt", "0.00/h ago - X placed #4 (Cobblestone).",
    // and its logins and chat after the row's age: "0.05/h ago + X logged in.", "1.0/h ago - X: hello".
    rule(`${START}(?:[0-9.,]{1,8}/?[a-z]{1,2} ago )?[-+] ${BEDROCK}(?<name>${NAME}) ${LOGGED_ACTION}`, {
      speaker: true,
    }),
    rule(`${START}[0-9.,]{1,8}/?[a-z]{1,2} ago [-+] ${BEDROCK}(?<name>${NAME})(?: logged (?:in|out)\\b|: )`, {
      speaker: true,
    }),
    // An exception or an event naming the player it was for: "Exception handling packet for player X",
    // "Could not pass event PlayerInteractEvent to WorldGuard v7.0.9 for player X".
    rule(`(?:for|of|from) player '?${BEDROCK}(?<name>${NAME})'?(?=[ \\t]*$|[ .,:;!)])`, { speaker: true }),
  ],
  examples: [
    [
      "[16:39:32] [Server thread/INFO]: Kestrel_77[/172.240.18.1:57008] logged in with entity id 10991 at (-257.5, 67.0, -198.5)",
      ["Kestrel_77"],
    ],
    ["[13:45:22 INFO]: Rookwood lost connection: Disconnected", ["Rookwood"]],
    [
      "[12:00:02 INFO]: Disconnecting .Cave_Johnson (/192.168.1.50:61000): You are not white-listed on this server!",
      ["Cave_Johnson"],
    ],
    ["[12:08:03] [Server thread/INFO]: [Rookwood: Made Harmonia a server operator]", ["Harmonia", "Rookwood"]],
    ["+ Harmonia placed stone", ["Harmonia"]],
  ],
};
