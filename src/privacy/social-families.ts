// Between players: friends, trades, auctions, broadcasts of finds and rewards. Name families (see
// families.ts for how a rule is written).

import { anyOf, NAME, P, P2, rule, START, START_BEHIND, type Family, atLineStart } from "./shapes.ts";

export const friend: Family = {
  family: "friend",
  gate: anyOf(
    "Friend request",
    "friends with",
    "friend request",
    "You removed",
    "Click here to view",
    "removed you",
    "your friend",
    "accepted your",
    "your (?:friends?|ignore|best friends?) list",
    "to your (?:party|guild|co-op)",
  ),
  doc: "Friend requests, friend lists, ignore lists, profiles: Click here to view Name's profile, Removed X from your friends list, X was added to your ignore list, You have added X to your party!",
  rules: [
    rule(`(?:Friend request from|You are now friends with|friend request to|You removed|Click here to view) ${P}`),
    rule(
      `${START}${P} (?:removed you from|is now your friend|has sent you a friend request|accepted your friend request)`,
    ),
    // A player's place on one of your lists: whoever is added to or removed from it, in either word order.
    rule(
      `(?:[Rr]emoved?|[Aa]dded?) ${P} (?:from|to) your (?:(?:friends?|ignore|best friends?) list|party|guild|co-op)\\b`,
    ),
    rule(
      `${P} (?:has been|was|isn't|is not|is no longer) (?:removed from|added to|on|in) your (?:friends?|ignore|best friends?) list`,
    ),
  ],
  examples: [["\n§eClick here to view §bnea89o§e's profile", ["nea89o"]]],
};

export const trade: Family = {
  family: "trade",
  gate: /[Tt]rad/,
  doc: "Trades: requests, completions, cancellations",
  rules: [
    rule(`(?:Trade completed with|trade request to|trading with|Trade request from|You traded with|Trading with) ${P}`),
    rule(
      `${START}${P} (?:has sent you a trade request|cancelled the trade|sent you a trade request|accepted the trade)`,
    ),
  ],
  examples: [["Trade completed with §b[MVP§c+§b] lrg89§f!", ["lrg89"]]],
};

export const invite: Family = {
  family: "invite",
  gate: /[Ii]nvite|[Rr]equest/,
  doc: "Whoever an invite or a request comes from or goes to, whatever it is for: The party invite from X has expired, You have Pending trade request from X.",
  rules: [
    // The name closes the phrase: the line ends, or a stop or "has expired" follows ("a request to join the guild" is no one).
    rule(`(?:[Ii]nvite|[Rr]equest)s? (?:from|to|sent by) ${P}(?=[ \\t]{0,4}(?:[.!,]|$)| (?:has |have )?expired)`),
  ],
  examples: [["You have Pending trade request from IvicaCuncic.", ["IvicaCuncic"]]],
};

export const auction: Family = {
  family: "auction",
  gate: /Auction|auction|sold to|bought by|outbid by|Seller:|Buyer:|Bidder:/,
  doc: "Auction house: bought, outbid, sold to, claimed from someone's auction",
  rules: [
    rule(`${atLineStart("\\[Auction\\] ")}${P} (?:bought|outbid|bid|claimed|collected)`),
    rule(`(?:selling [^\\n]{1,80}? to|from|by) ${P}'s? (?:in an auction|auction)`),
    rule(`(?:sold to|bought by|outbid by|Seller:|Buyer:|Bidder:) ${P}`),
  ],
  examples: [["[Auction] [MVP+] Steve bought Hyperion for 1,000,000 coins CLICK", ["Steve"]]],
};

export const reward: Family = {
  family: "reward",
  gate: anyOf(
    "has obtained",
    "found",
    "unlocked",
    "caught",
    "dug up",
    "reached",
    "is holding",
    "is wearing",
    "is friends with",
    "You punched",
    "What's up,",
    "Good job,",
    "Thanks,",
    "[Ww]elcome,",
    "for assisting",
    "gift with",
    "Damager",
  ),
  doc: "Broadcasts naming who found, unlocked or obtained something, whom a reward was shared with, and a boss's damage list: LOOT SHARE You received loot for assisting X!, RARE! +2,000 Coins gift with X!, 1st Damager - X - 9,659,033",
  rules: [
    rule(
      `${START}(?:[A-Z][A-Z ]{1,24}! )?${P} (?:has obtained|found|unlocked|caught|dug up|reached|is holding|is wearing|` +
        `is friends with)`,
    ),
    rule(`(?:You punched|What's up,|Good job,|Thanks,|welcome,|Welcome,) ${P}`),
    // Whom a drop or a gift was shared with: the player is the object of "assisting" or "with".
    rule(`(?:for assisting|gift with) ${P}`),
    // A boss's damage list (issue 36): "1st Damager - [VIP] X - 9,659,033", "2nd Damager: X with 12 damage!".
    // Looked for by its word first, the line's start checked behind it.
    rule(`Damager(?<=${START_BEHIND}(?:1st|2nd|3rd|[4-9]th|10th) Damager)(?::| -) ${P}`),
  ],
  examples: [
    ["§b[MVP§r§c+§r§b] Empa_§r§f §r§ehas obtained §r§a§r§7[Lvl 1] §r§6Bal§r§e!", ["Empa_"]],
    ["          2nd Damager - [MVP+] Rookwood - 1,459,691", ["Rookwood"]],
  ],
};

export const npcVocative: Family = {
  family: "npc_vocative",
  gate: /\[NPC\]/,
  doc: "An NPC addressing the player by name at the end of a clause or after a greeting: [NPC] Hoppity: What's up, X?, [NPC] Guide: Hello X!",
  rules: [
    // The word after the last ", " of a clause in an NPC's line, closed by ! ? . or the line's end.
    rule(
      `\\[NPC\\] (?<=${START_BEHIND}\\[NPC\\] )[^:\\n]{1,40}: [^\\n]{0,160}?, (?<name>${NAME})(?=[!?.]|[ \\t]{0,4}$)`,
      { speaker: true },
    ),
    // A greeting and the name, with or without a comma, at the start of the line's message or of
    // a sentence in it: "[NPC] Guide: Hello X!", "Hi X! How can we help?", "Welcome X, ...".
    rule(
      `\\[NPC\\] (?<=${START_BEHIND}\\[NPC\\] )[^:\\n]{1,40}: (?:[^\\n]{0,160}?[.!?] )?(?:Hi|Hello|Hey|Heya|Hiya|Howdy|Greetings|Welcome|` +
        `Welcome back|Good (?:morning|afternoon|evening|day)|Thanks|Thank you|Congratulations|Congrats|Goodbye|Bye|Farewell),? ` +
        `(?<name>${NAME})(?=[ \\t]{0,4}[!?.,]|[ \\t]{0,4}$)`,
      { speaker: true },
    ),
  ],
  examples: [["[NPC] Hoppity: ✆ What's up, oBlazin?", ["oBlazin"]]],
};

export const teleport: Family = {
  family: "teleport",
  gate: /[Tt]eleported|teleport request/,
  doc: "Who was teleported to whom: X teleported to you!, You teleported X to Y!, X teleported you to Y!, Teleported X to Y., a teleport request asking X to teleport to you",
  rules: [
    rule(`${START}${P} (?:has )?[Tt]eleported (?:to you|you to ${P2})`),
    rule(`[Yy]ou teleported ${P} to ${P2}`),
    // Whoever was moved, and to whom (issue 36, teleport plugins): "Teleported X to Y.", "Teleported X
    // to ⚐ x: 1, y: 64, z: -12."; the second player closes the line.
    rule(
      `${START}(?:[A-Z][A-Za-z]{1,15}: )?Teleported (?!you )${P} to (?:${P2}(?=[ \\t]{0,4}(?:[.!]|$))|[^A-Za-z\\n])`,
    ),
    // A request's other player: "You sent a teleport request asking to teleport to X.", "... asking X to teleport to you."
    rule(`teleport request asking (?:to teleport to ${P}|${P2} to teleport)`),
  ],
  examples: [["BehavingTurtle4 teleported you to Kalmaria!", ["BehavingTurtle4", "Kalmaria"]]],
};

export const moderation: Family = {
  family: "moderation",
  gate: /[Bb]anned|[Mm]uted|[Kk]icked/,
  doc: "A punishment's target: Successfully banned X for 7d., X has been successfully banned from the server!",
  rules: [
    rule(`[Ss]uccessfully (?:banned|unbanned|muted|unmuted|kicked)(?: player:?)? ${P}`),
    rule(`${START}${P} (?:has been|was) (?:successfully )?(?:banned|unbanned|muted|unmuted)`),
  ],
  examples: [["Successfully banned oBlazin for 7d.", ["oBlazin"]]],
};
