// Where a player name stands in game text, family by family, as data: each family is its rules
// (regular expressions on the plain text, see normalise.ts) beside real examples of it. The ingest
// denylist and the report scrubber both read this one list; a new family is a new entry here.
//
// Every rule must stay linear on any input (issue 22): anchor to a line with `^` and the `m` flag,
// `[ \t]` rather than `\s`, bounded repeats, no quantifier inside a repeated group, and no unbounded
// repeat at all in a rule that is not anchored. test/security/scrubber.test.ts runs each rule over
// hostile inputs.
//
// A rule names the player in groups `name`, `name2`, `name3`; the rank tag in front of a name is
// captured as `rank` (`rank2`, ...), so a bracketed word that is not a rank (`[NPC]`, `[ERROR]`)
// drops the match. `list: true` reads more names after the match, to the end of its line.
// `speaker: true` marks a rule that reads a line's speaker by its place alone (whatever precedes the
// first ": "): its match is dropped when the word is a known system word (SYSTEM_WORDS), so the
// structure decides and one list of words, not a list of shapes, keeps labels and log lines out.
//
// The families live in files by group (chat-, team-, social-, membership-, log-, console-, death-families.ts), built
// from the shapes in shapes.ts; this list puts them in the order the rules run.

import { allChat, channelLine, rankTag, tabList, whisper } from "./chat-families.ts";
import { action, dungeon, label, party } from "./team-families.ts";
import { auction, friend, invite, moderation, npcVocative, reward, teleport, trade } from "./social-families.ts";
import { command, groupVerb, joinedLine, membership, possessive, roster, transfer } from "./membership-families.ts";
import { refusal, socialBetween, socialDone } from "./social-verb-families.ts";
import { angleChat, clause, serverWhisper, teleportRequest } from "./clause-families.ts";
import { consoleLine } from "./console-families.ts";
import { death } from "./death-families.ts";
import { crashReport } from "./log-families.ts";
import { profileOwner } from "./profile-families.ts";
import type { Family, Rule } from "./shapes.ts";
import { SYSTEM_WORDS } from "./system-words.ts";

export { NOT_NAMES, NOT_RANKS } from "./not-names.ts";
export { NAME, RANK_TAG } from "./shapes.ts";
export type { Family, Rule };
export { SYSTEM_WORDS };

export const families: readonly Family[] = [
  rankTag,
  channelLine,
  whisper,
  allChat,
  tabList,
  dungeon,
  party,
  friend,
  trade,
  invite,
  auction,
  reward,
  npcVocative,
  teleport,
  moderation,
  membership,
  transfer,
  groupVerb,
  refusal,
  socialDone,
  socialBetween,
  possessive,
  roster,
  joinedLine,
  clause,
  death,
  serverWhisper,
  angleChat,
  consoleLine,
  teleportRequest,
  command,
  label,
  profileOwner,
  crashReport,
  action,
];

/** Every rule with its family, in order. */
export const allRules: readonly { family: string; gate: RegExp; rule: Rule }[] = families.flatMap((f) =>
  f.rules.map((rule) => ({ family: f.family, gate: f.gate, rule })),
);
