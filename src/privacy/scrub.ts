// Scrubbing free text before it is stored or posted (bug reports, contract 1 and 1.3). The name
// families (families.ts, shared with the ingest denylist) find where a player name sits, on the
// text with its formatting codes stripped; each name found becomes its stable pseudonym there (in
// the original, so the codes around it stay) and wherever else the same name stands as a word of
// free text in the same report, but never in a stack frame, a Java class or file name, a path or an
// identifier. Uuids, secrets and machine identity go too: access tokens and session ids on a Java
// command line, user home paths, e-mail and IP addresses.
import { findNames, type NameHit } from "./find.ts";
import { profileLinkNames } from "./links.ts";
import { playerNamesIn } from "./known-names.ts";
import { normalise, originalSpan, type Plain } from "./normalise.ts";
import { pseudonym } from "./pseudonym.ts";
import type { LineLanguages } from "./language.ts";
import { type GameWords, unknownWordSpans } from "./unknown-words.ts";

const UUIDS =
  /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|[0-9A-Fa-f]{32})(?![0-9A-Fa-f])/g;

/** Launcher arguments whose value is a secret or the player: `--accessToken eyJ...`, `--username Steve`. */
const SECRET_ARG = /(--(?:accessToken|session|clientId|xuid|userProperties|profileProperties|uuid)[ =])("[^"]*"|\S+)/g;
const USERNAME_ARG = /--username[ =]([A-Za-z0-9_]{2,16})\b/g;
const SESSION_TOKEN = /\btoken:[A-Za-z0-9._-]{8,}(?::[0-9A-Fa-f-]{32,36})?/g;
// Linear on any input (issue 22): a token or an address is tried only where its run of characters
// starts, and every repeat is bounded.
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
const EMAIL =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}(?![A-Za-z])/g;
const WINDOWS_HOME = /([A-Za-z]:(?:\\{1,2}|\/)(?:Users|Documents and Settings)(?:\\{1,2}|\/))[^\\/\r\n:*?"<>|]+/gi;
const UNIX_HOME = /((?:^|[\s"'=:([])\/(?:home|Users)\/)[^/\s"':)\]]+/g;
const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
// "(?=\d)" first: the look-behind is then tried only where a digit stands (six times faster on a crash report).
const IPV4 = new RegExp(`(?=\\d)(?<![\\d.])(?:${OCTET}\\.){3}${OCTET}(?::\\d{1,5})?(?![\\d.])`, "g");

/**
 * An address that is nobody's (issue 36), kept: the loopback a local proxy or integrated server
 * connects from ("[/127.0.0.1:14426] <-> InitialHandler") and anything in 0.0.0.0/8, "this network"
 * (RFC 6890: never a host's address on the internet), so a server's own "listening on
 * 0.0.0.0:19132" and a mod's version with a leading zero ("0.10.0.5") stay.
 */
const NOBODY = /^(?:0\.|127\.)/;

/**
 * Four numeric parts that are a version, not an address (issue 36): "v2.3.4.5", "1.2.3.4-beta",
 * "1.0.1.1a", after a version word ("version 2.1.0.3", "Version: 1.0.1.1", "build=3.2.0.4"), or four
 * one-digit parts without a port ("1.0.1.1", "4.0.0.2": a mod's version far more often than anyone's
 * address). Constant work a match: one character either side and at most 24 before it on its line.
 */
function isVersion(text: string, at: number, match: string): boolean {
  const before = text[at - 1];
  const after = text.slice(at + match.length, at + match.length + 2);
  if (before === "v" || before === "V") return true;
  if (/^(?:[A-Za-z_+]|-[A-Za-z])/.test(after)) return true;
  if (/^\d\.\d\.\d\.\d$/.test(match)) return true;
  const line = text.lastIndexOf("\n", at - 1) + 1;
  return /(?<![A-Za-z])(?:version|ver|build|release|v)[ \t]{0,2}[:=]?[ \t]{0,2}$/i.test(
    text.slice(Math.max(line, at - 24), at),
  );
}

export type Found = { names: Set<string>; uuids: Set<string> };

/** The player names and uuids a text holds: the families' names, `--username X`, and uuids. */
export function findIdentities(
  text: string,
  found: Found = { names: new Set(), uuids: new Set() },
  p: Plain = normalise(text),
  hits: NameHit[] = findNames(text, p),
): Found {
  for (const hit of hits) found.names.add(hit.name);
  for (const m of p.plain.matchAll(USERNAME_ARG)) found.names.add(m[1]!);
  for (const m of text.matchAll(UUIDS)) found.uuids.add(m[0]);
  return found;
}

/** A line of a stack trace: "\tat dev.mod.Steve.tick(Steve.java:3)". Names are never replaced in one. */
const FRAME_LINE = /^[ \t]*at [\w$./<>]{1,400}\([^\n]*/gm;
/** A word of the plain text that could be a name. */
const WORD = /[A-Za-z0-9_]{3,16}/g;
/**
 * Before a Bedrock player's "." mark (issue 36, Floodgate's ".Name"): a space, a line's start or a
 * bracket, so ".Name" stands as a word, where "dev.mod.Name" is part of a Java name.
 */
const BEDROCK_MARK = /[\s([<"']/;
/** Before a word: part of a dotted or $ Java name, a path, a namespaced id or a dashed word. */
const JOINED_BEFORE = /[A-Za-z0-9_.$/\\:-]/;

/**
 * The spans (in the original) where a found name stands as a word of free text: not inside a
 * stack frame, a Java class or file name ("Steve.java", "dev.mod.Steve"), a path or an identifier.
 * One pass over the words of the text, whatever the number of names.
 */
function wordSpans(p: Plain, names: Set<string>): [number, number][] {
  const spans: [number, number][] = [];
  if (names.size === 0) return spans;
  const text = p.plain;
  const frames = [...text.matchAll(FRAME_LINE)].map((m) => [m.index, m.index + m[0].length] as const);
  let f = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const at = m.index;
    const end = at + m[0].length;
    while (f < frames.length && frames[f]![1] < at) f++;
    if (f < frames.length && frames[f]![0] <= at) {
      WORD.lastIndex = frames[f]![1]; // a frame's other words are not read
      continue;
    }
    const before = text[at - 1];
    const after = text[end];
    if (!names.has(m[0]) || (after && /[A-Za-z0-9_$-]/.test(after))) continue;
    if (before && JOINED_BEFORE.test(before) && !(before === "." && BEDROCK_MARK.test(text[at - 2] ?? " "))) continue;
    if (after === "." && /[A-Za-z]/.test(text[end + 1] ?? "")) continue;
    spans.push(originalSpan(p, at, end));
  }
  return spans;
}

/** Replaces the spans (possibly overlapping, in any order) by the pseudonyms of what they hold. */
function replaceSpans(text: string, spans: [number, number][], by: (s: string) => string): string {
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = "";
  let at = 0;
  for (const [start, end] of spans) {
    if (start < at) continue;
    out += text.slice(at, start) + by(text.slice(start, end));
    at = end;
  }
  return out + text.slice(at);
}

/** Everything but player names: secrets, homes, e-mail and IP addresses. */
function scrubMachine(text: string): string {
  const secrets = text
    .replace(SECRET_ARG, "$1<redacted>")
    .replace(SESSION_TOKEN, "token:<redacted>")
    .replace(JWT, "<token>");
  // An address needs its "@": a text without one is not read for it (the rule is tried at every word).
  return (secrets.includes("@") ? secrets.replace(EMAIL, "<email>") : secrets)
    .replace(WINDOWS_HOME, "$1<user>")
    .replace(UNIX_HOME, "$1<user>")
    .replace(IPV4, (m: string, at: number, whole: string) => (isVersion(whole, at, m) || NOBODY.test(m) ? m : "<ip>"));
}

/** Every regular expression the scrubber runs besides the families' rules (for the hostile-input tests). */
export const scrubberRules: readonly { name: string; pattern: RegExp }[] = [
  { name: "secret_arg", pattern: SECRET_ARG },
  { name: "username_arg", pattern: USERNAME_ARG },
  { name: "session_token", pattern: SESSION_TOKEN },
  { name: "jwt", pattern: JWT },
  { name: "email", pattern: EMAIL },
  { name: "windows_home", pattern: WINDOWS_HOME },
  { name: "unix_home", pattern: UNIX_HOME },
  { name: "ipv4", pattern: IPV4 },
  { name: "uuids", pattern: UUIDS },
  { name: "frame_line", pattern: FRAME_LINE },
  { name: "word", pattern: WORD },
];

export type Scrubbed<T> = { fields: T; names: number; uuids: number };

/**
 * `unknownWords`: the structure-free fallback (unknown-words.ts, PRIVACY_UNKNOWN_WORDS), on unless
 * off. `gameWords`: the game's own words the fallback keeps (the report intake passes the item
 * list's, `itemWords` in src/items/item-names.ts). `players`: names this instance knows are
 * players', lower-case, among the report's words (known-names.ts: the intake looks up
 * `nameCandidates`); each is a name of the report wherever it stands as a word of free text.
 */
export type ScrubOptions = { unknownWords?: boolean; gameWords?: GameWords; players?: ReadonlySet<string> };

/**
 * Scrubs every string field of one report together: a name found in one field is replaced in all.
 * Undefined fields stay undefined.
 */
export function scrubFields<T extends Record<string, string | undefined>>(
  key: string,
  fields: T,
  options: ScrubOptions = {},
): Scrubbed<T> {
  const found: Found = { names: new Set(), uuids: new Set() };
  const plains = new Map<string, Plain>();
  const inPlace = new Map<string, [number, number][]>();
  const unknown = new Map<string, [number, number][]>();
  // Words seen joined to code in any field of the report: identifiers in all of them (unknown-words.ts).
  const code = new Set<string>();
  // The languages of the report's lines, read once (language.ts).
  const languages: LineLanguages = new Map();
  // The words a strict reading of a line adds, found with the layer's (strictLines).
  const strict = new Map<string, [number, number][]>();
  for (const [field, value] of Object.entries(fields)) {
    if (!value) continue;
    const p = normalise(value);
    plains.set(field, p);
    const hits = findNames(value, p);
    inPlace.set(
      field,
      hits.map((h) => [h.start, h.end]),
    );
    findIdentities(value, found, p, hits);
    // A profile's link names its player (links.ts): replaced in the link too, where a word joined to
    // a path is otherwise left.
    for (const [start, end] of profileLinkNames(p.plain)) {
      inPlace.get(field)!.push(originalSpan(p, start, end));
      found.names.add(p.plain.slice(start, end));
    }
    if (options.unknownWords !== false) {
      const strictWords: [number, number][] = [];
      strict.set(field, strictWords);
      unknown.set(field, unknownWordSpans(p.plain, options.gameWords, code, languages, strictWords));
    }
  }
  // A word nothing knows that has a name's marks, or one in a person's place, wherever it stands in
  // free text (issue 36); found, it is a name of the report like the families' names.
  for (const [field, spans] of unknown) {
    const p = plains.get(field)!;
    for (const [start, end] of spans) {
      const word = p.plain.slice(start, end);
      if (code.has(word.toLowerCase())) continue;
      inPlace.get(field)!.push(originalSpan(p, start, end));
      found.names.add(word);
    }
  }
  // A name this instance knows is a player's (known-names.ts), whatever the line's shape.
  if (options.players)
    for (const p of plains.values()) for (const w of playerNamesIn(p.plain, options.players)) found.names.add(w);
  // Where a rule found a name, and wherever a found name stands as a word of free text.
  const spansOf = new Map<string, [number, number][]>();
  for (const [field, p] of plains) spansOf.set(field, [...inPlace.get(field)!, ...wordSpans(p, found.names)]);
  if (options.unknownWords !== false) strictLines(plains, spansOf, strict, found, code);
  const out: Record<string, string | undefined> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (!value) {
      out[field] = value;
      continue;
    }
    // Each span's text is the name, perhaps with a code inside it: its pseudonym is of the plain name.
    const spans = spansOf.get(field)!;
    let text = replaceSpans(value, spans, (s) => pseudonym(key, normalise(s).plain));
    text = text.replace(SECRET_ARG, "$1<redacted>");
    // A uuid found anywhere, dashed or not, becomes the pseudonym of its undashed form.
    text = text.replace(UUIDS, (u) => pseudonym(key, u));
    out[field] = scrubMachine(text);
  }
  return { fields: out as T, names: found.names.size, uuids: found.uuids.size };
}

/**
 * A line that names a player is read strictly for others (issue 36): there every capitalised word of
 * letters nothing knows is read as in a person's place (unknown-words.ts: "[MVP+] xX_Pro_Xx: me and
 * Quintrix are carrying Zyrael", the two are as much names as the speaker). A line naming nobody is
 * read as before, so no line without a name is altered by this. The layer's pass gathered those
 * words of every line (`strict`); the ones on a line that names someone are names of the report
 * (replaced wherever they stand), and `spansOf` gains their spans. One more pass over every field's
 * words only when it found a new name.
 */
function strictLines(
  plains: Map<string, Plain>,
  spansOf: Map<string, [number, number][]>,
  strict: Map<string, [number, number][]>,
  found: Found,
  code: Set<string>,
) {
  const added = new Set<string>();
  for (const [field, p] of plains) {
    const words = strict.get(field)!;
    if (words.length === 0) continue;
    let w = 0;
    for (const [from, to] of namingLines(p, spansOf.get(field)!)) {
      while (w < words.length && words[w]![0] < from) w++;
      for (; w < words.length && words[w]![0] < to; w++) {
        const word = p.plain.slice(words[w]![0], words[w]![1]);
        if (code.has(word.toLowerCase()) || found.names.has(word)) continue;
        added.add(word);
      }
    }
  }
  if (added.size === 0) return;
  for (const w of added) found.names.add(w);
  for (const [field, p] of plains) spansOf.get(field)!.push(...wordSpans(p, added));
}

/** The lines of the plain text (start, end) on which a span (in the original) starts. */
function namingLines(p: Plain, spans: [number, number][]): [number, number][] {
  if (spans.length === 0) return [];
  const starts = spans.map((s) => s[0]).sort((a, b) => a - b);
  const lines: [number, number][] = [];
  let i = 0;
  for (let from = 0; from <= p.plain.length && i < starts.length; ) {
    let to = p.plain.indexOf("\n", from);
    if (to === -1) to = p.plain.length;
    // The line's characters lie before the original index of its end.
    const last = p.at[to]!;
    if (starts[i]! < last) {
      lines.push([from, to]);
      while (i < starts.length && starts[i]! < last) i++;
    }
    from = to + 1;
  }
  return lines;
}

/** One text on its own. */
export function scrubText(key: string, text: string, options: ScrubOptions = {}): string {
  return scrubFields(key, { text }, options).fields.text!;
}
