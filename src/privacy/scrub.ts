// Scrubbing free text before it is stored or posted (bug reports, contract 1 and 1.3). The
// denylist's rules find where a player name sits (rank tags, party and guild lines, whispers,
// "Name joined.", uuids); each name found becomes its stable pseudonym, here and wherever else the
// same name appears as a word in the same report; so do names in the game log's own lines
// ("Setting user: Steve", "[CHAT] <Steve> hi"). Secrets and machine identity go too: access tokens
// and session ids on a Java command line, user home paths, e-mail and IP addresses.
import { denylistRules, LEVEL, NAME, RANK } from "./denylist.ts";
import { pseudonym } from "./pseudonym.ts";

/**
 * For each denylist rule, where the name is inside its match (tried at the match's start). The
 * denylist says "this text holds a name"; these say which word it is.
 */
const locators: Record<string, RegExp> = {
  rank_tag: new RegExp(`(?:${LEVEL} )?(?:(${RANK}) ?)?(${NAME})\\b`, "y"),
  channel_line: new RegExp(`\\n?\\s*(?:Party|Guild|Officer|Co-op|Friend|Coop)\\s*>\\s*(?:${LEVEL} )?(?:(${RANK}) ?)?(${NAME})`, "y"),
  whisper: new RegExp(`\\n?\\s*(?:From|To) (?:(${RANK}) )?(${NAME}): `, "y"),
  joined_line: new RegExp(`\\n?\\s*(?:(${RANK}) )?(${NAME}) (?:has )?(?:joined|left)`, "y"),
};

/** Bracketed words a game or launcher log prints that are not ranks: "[ERROR] Something failed". */
const LOG_TAGS = new Set(["[INFO]", "[WARN]", "[WARNING]", "[ERROR]", "[FATAL]", "[DEBUG]", "[TRACE]", "[SEVERE]", "[STDOUT]", "[STDERR]", "[SYSTEM]", "[CHAT]"]);

const UUID = /[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|[0-9A-Fa-f]{32}/y;

/** Launcher arguments whose value is a secret or the player: `--accessToken eyJ...`, `--username Steve`. */
const SECRET_ARG = /(--(?:accessToken|session|clientId|xuid|userProperties|profileProperties|uuid)[ =])("[^"]*"|\S+)/g;
const USERNAME_ARG = /--username[ =]([A-Za-z0-9_]{2,16})\b/g;
/** The game log's own lines that name a player: "Setting user: Steve", "[CHAT] <Steve> hi". */
const LOG_NAMES = [/Setting user: ([A-Za-z0-9_]{2,16})\b/g, /(?:^|\n|\[CHAT\] )<([A-Za-z0-9_]{3,16})> /g];
const SESSION_TOKEN = /\btoken:[A-Za-z0-9._-]{8,}(?::[0-9A-Fa-f-]{32,36})?/g;
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const WINDOWS_HOME = /([A-Za-z]:(?:\\{1,2}|\/)(?:Users|Documents and Settings)(?:\\{1,2}|\/))[^\\/\r\n:*?"<>|]+/gi;
const UNIX_HOME = /((?:^|[\s"'=:(\[])\/(?:home|Users)\/)[^/\s"':)\]]+/g;
const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`(?<![\\d.])(?:${OCTET}\\.){3}${OCTET}(?::\\d{1,5})?(?![\\d.])`, "g");

export type Found = { names: Set<string>; uuids: Set<string> };

/** The player names and uuids a text holds, as the denylist's rules find them. */
export function findIdentities(text: string, found: Found = { names: new Set(), uuids: new Set() }): Found {
  for (const rule of denylistRules) {
    const all = new RegExp(rule.pattern.source, rule.pattern.flags.replace("g", "") + "g");
    for (const m of text.matchAll(all)) {
      if (rule.name === "uuid") {
        // The match may start with the character before the uuid.
        for (const at of [m.index, m.index + 1]) {
          UUID.lastIndex = at;
          const u = UUID.exec(text);
          if (u) {
            found.uuids.add(u[0]);
            break;
          }
        }
        continue;
      }
      const locator = locators[rule.name];
      if (!locator) continue;
      locator.lastIndex = m.index;
      const hit = locator.exec(text);
      if (!hit || (hit[1] && LOG_TAGS.has(hit[1].toUpperCase()))) continue;
      if (hit[2]) found.names.add(hit[2]);
    }
  }
  for (const m of text.matchAll(USERNAME_ARG)) found.names.add(m[1]!);
  for (const shape of LOG_NAMES) for (const m of text.matchAll(shape)) found.names.add(m[1]!);
  return found;
}

/** Replaces every whole-word use of `word`, except as a part of a dotted or $ Java name or a path. */
function replaceWord(text: string, word: string, by: string): string {
  return text.replace(new RegExp(`(?<![A-Za-z0-9_.$/\\\\-])${word}(?![A-Za-z0-9_$-])`, "g"), by);
}

/** Everything but player names: secrets, homes, e-mail and IP addresses. */
function scrubMachine(text: string): string {
  return text
    .replace(SECRET_ARG, "$1<redacted>")
    .replace(SESSION_TOKEN, "token:<redacted>")
    .replace(JWT, "<token>")
    .replace(EMAIL, "<email>")
    .replace(WINDOWS_HOME, "$1<user>")
    .replace(UNIX_HOME, "$1<user>")
    .replace(IPV4, "<ip>");
}

export type Scrubbed<T> = { fields: T; names: number; uuids: number };

/**
 * Scrubs every string field of one report together: a name found in one field is replaced in all.
 * Undefined fields stay undefined.
 */
export function scrubFields<T extends Record<string, string | undefined>>(key: string, fields: T): Scrubbed<T> {
  const found: Found = { names: new Set(), uuids: new Set() };
  for (const value of Object.values(fields)) if (value) findIdentities(value, found);
  // Longest first, so a name that contains another is replaced whole.
  const names = [...found.names].sort((a, b) => b.length - a.length);
  const out: Record<string, string | undefined> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) {
      out[field] = undefined;
      continue;
    }
    let text = value.replace(SECRET_ARG, "$1<redacted>").replace(USERNAME_ARG, (_m, name: string) => `--username ${pseudonym(key, name)}`);
    for (const u of found.uuids) text = text.replaceAll(new RegExp(u.replaceAll("-", "-?"), "gi"), () => pseudonym(key, u));
    // Also the dashed form of a uuid found undashed, and the other way round.
    text = text.replace(/(?<![0-9A-Fa-f])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Fa-f])/g, (u) => pseudonym(key, u));
    for (const name of names) text = replaceWord(text, name, pseudonym(key, name));
    out[field] = scrubMachine(text);
  }
  return { fields: out as T, names: found.names.size, uuids: found.uuids.size };
}

/** One text on its own. */
export function scrubText(key: string, text: string): string {
  return scrubFields(key, { text }).fields.text!;
}
