// The ingest fuzzer's generator (issue 9): request n of a seeded run is a valid upload, built like
// the mod builds one, with one hostile change applied to its object, its JSON text, its bytes, its
// encoding or its headers. Each request has its own generator seeded by (seed, n), so any one of
// them can be rebuilt alone: `FUZZ_SEED=<seed> FUZZ_ONLY=<n>`.
//
// Every key, session id and event id a request carries holds its marker FZ<n>Z, so a stored row
// names the request that wrote it.
import { gzipSync } from "node:zlib";
import { rng, type Rng } from "../support/random.ts";

export const FUZZ_PROFILE = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
export const FUZZ_ACCOUNT_PROFILE = "0".repeat(32);
const INSTALLS = [
  "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
  "b0b1b2b3b4b5b6b7b8b9babbbcbdbebf",
  "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf",
];
const DAY_MS = 86_400_000;

/** What a run needs to know: the catalogue's namespaces and categories, and each request's time. */
export type FuzzContext = {
  catalogueVersion: number;
  /** namespace -> category, and the categories in catalogue order. */
  categoryOf: ReadonlyMap<string, string>;
  categories: readonly string[];
  /** The service's time when request n is sent (its sentAt and days follow it). */
  nowAt(n: number): number;
};

export type FuzzRequest = {
  n: number;
  kind: string;
  body: Uint8Array<ArrayBuffer> | null;
  headers: Record<string, string>;
  /** false: sent without the player's token. */
  auth: boolean;
};

export const MARKER = /FZ(\d+)Z/g;

// ---------------------------------------------------------------------------------------------
// A small seeded generator (mulberry32).

const requestSeed = (seed: number, n: number) =>
  (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(n + 1, 0xc2b2ae35)) >>> 0;

// ---------------------------------------------------------------------------------------------
// The valid upload of request n.

const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
const hex32 = (n: number, salt: number) => ((salt * 0x10000 + n) >>> 0).toString(16).padStart(8, "0").repeat(4);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

export function validEnvelope(r: Rng, n: number, seed: number, ctx: FuzzContext): Obj {
  const now = ctx.nowAt(n);
  const mark = `FZ${n}Z`;
  const days = [0, 1, 2, 3, 4].map((d) => dayOf(now - d * DAY_MS));
  const row = (ns: string, j: number): Obj => ({
    k: `${ns}.fz.${mark}_${j}`,
    v: r.int(1_000_000),
    ...(r.chance(0.3) ? { m: r.pick(["count", "max", "min", "gauge"]) } : {}),
  });
  const counters: Obj[] = [
    {
      profileId: FUZZ_PROFILE,
      scope: "day",
      day: r.pick(days),
      rows: Array.from({ length: 1 + r.int(5) }, (_, j) =>
        row(r.pick(["mining", "farming", "kills", "loot", "dungeon"]), j),
      ),
    },
  ];
  if (r.chance(0.3))
    counters.push({ profileId: FUZZ_ACCOUNT_PROFILE, scope: "day", day: days[0]!, rows: [row("tally", 9)] });
  if (r.chance(0.2))
    counters.push({ profileId: FUZZ_PROFILE, scope: "backfill", day: days[1]!, rows: [row("fishing", 8)] });
  const env: Obj = {
    schema: 1,
    batchId: hex32(n, seed & 0xffff),
    sentAt: now,
    mode: "live",
    client: { install: r.pick(INSTALLS), modVersion: "1.4.0", minecraft: "1.21.4", catalogue: ctx.catalogueVersion },
    zone: { id: "Europe/Berlin" },
    settingsVersion: 2,
    profile: { id: FUZZ_PROFILE, cuteName: "Pomegranate" },
    categories: [],
    counters,
  };
  if (r.chance(0.3)) {
    env.sessions = [
      {
        id: `${mark}_s`,
        activity: "mining",
        day: days[0]!,
        startedAt: now - 60_000,
        endedAt: now,
        gains: [{ k: `mining.fz.${mark}_g`, v: r.int(1000) }],
        costs: [],
      },
    ];
  }
  if (r.chance(0.3))
    env.timeline = [
      { id: `${mark}_e`, kind: "rare_drop", day: days[0]!, at: now, key: `loot.fz.${mark}_t`, value: r.int(1000) },
    ];
  if (r.chance(0.2))
    env.mirror = {
      observedAt: now,
      sections: [{ name: r.pick(["skills", "bank"]), values: [{ k: `farming.fz.${mark}_m`, v: r.int(1000) }] }],
    };
  env.categories = categoriesOf(env, ctx);
  return env;
}

/** The categories of every key an envelope carries, in catalogue order (as the mod names them). */
export function categoriesOf(env: Obj, ctx: FuzzContext): string[] {
  const keys: string[] = [];
  JSON.stringify(env, (k, v) => ((k === "k" || k === "key") && typeof v === "string" && keys.push(v), v));
  const present = new Set(keys.map((k) => ctx.categoryOf.get(k.split(".")[0]!)));
  return ctx.categories.filter((c) => present.has(c));
}

// ---------------------------------------------------------------------------------------------
// Paths into a JSON value.

type Path = (string | number)[];

function paths(v: Json, at: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) {
      out.push([...at, i]);
      paths(x, [...at, i], out);
    }
  } else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) out.push([...at, k]), paths(x, [...at, k], out);
  return out;
}
const parentOf = (root: Json, p: Path) => p.slice(0, -1).reduce<any>((o, k) => o[k], root);
const getAt = (root: Json, p: Path) => p.reduce<any>((o, k) => o[k], root);
function setAt(root: Json, p: Path, value: Json) {
  parentOf(root, p)[p.at(-1)!] = value;
}
const leaves = (root: Json, test: (v: Json) => boolean) => paths(root).filter((p) => test(getAt(root, p)));
const objects = (root: Json) =>
  [[] as Path, ...paths(root)].filter((p) => {
    const v = p.length ? getAt(root, p) : root;
    return v !== null && typeof v === "object" && !Array.isArray(v);
  });

// ---------------------------------------------------------------------------------------------
// Hostile values.

const WRONG_TYPES: Json[] = [null, true, false, 0, 1, -1, "", "x", "1", [], [1], {}, { a: 1 }, [null], "null"];
const NUMBERS_RAW = [
  "1e308",
  "-1e308",
  "1e400",
  "-1e400",
  "9007199254740992",
  "9007199254740993",
  "-9007199254740993",
  "9223372036854775808",
  "123456789012345678901234567890",
  "-0",
  "0.0",
  "1.0",
  "1e2",
  "1E2",
  "0.5",
  "-1.5",
  "1e-400",
  "4.9e-324",
  "2147483648",
  "-2147483649",
];
const NUMBERS_SAFE = [0, -1, 1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 31, -(2 ** 31), 2 ** 52];
const NANISH = [
  "NaN",
  "Infinity",
  "-Infinity",
  "1e3",
  "0x10",
  "",
  " 1",
  "1 ",
  "١٢٣",
  "½",
  "null",
  "undefined",
  "true",
  "0b1",
  "+1",
];
/** Unicode tricks: each one makes an ASCII key look the same, or nearly, while differing in bytes. */
const UNICODE_TRICKS_RAW: ((s: string, r: Rng) => string)[] = [
  (s) => s.replace("i", "\u0456"), // Cyrillic i
  (s) => s.replace("o", "\u043e").replace("a", "\u0430"), // Cyrillic o, a
  (s, r) => insertAt(s, r, "\u200d"), // zero-width joiner
  (s, r) => insertAt(s, r, "\u200b"), // zero-width space
  (s, r) => insertAt(s, r, "\ufeff"), // byte order mark
  (s, r) => insertAt(s, r, "\u202e"), // right-to-left override
  (s, r) => insertAt(s, r, "\u0301"), // combining acute (NFD of é around the letter before)
  (s) => s.replace("e", "\u00e9"), // NFC é
  (s) => s.replace("e", "e\u0301"), // NFD é
  (s) => s.replace(".", "\uff0e"), // full-width dot
  (s) => s.replace(".", "\u3002"), // ideographic full stop
  (s) => s.replace(".", "\u2024"), // one dot leader
  (s) => s.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)), // full-width letters
  (s) => s.replace("k", "\u212a"), // Kelvin sign
  (s, r) => insertAt(s, r, "\ud800"), // lone high surrogate
  (s, r) => insertAt(s, r, "\udc00"), // lone low surrogate
  (s, r) => insertAt(s, r, "\u0000"), // NUL
  (s) => s.toUpperCase(),
  (s) => ` ${s}`,
  (s) => `${s}\n`,
];
/** A trick that found nothing to replace inserts a zero-width joiner instead, so it always changes the text. */
const UNICODE_TRICKS = UNICODE_TRICKS_RAW.map((trick) => (s: string, r: Rng) => {
  const out = trick(s, r);
  return out === s ? insertAt(s, r, "\u200d") : out;
});
function insertAt(s: string, r: Rng, what: string) {
  const i = r.int(s.length + 1);
  return s.slice(0, i) + what + s.slice(i);
}
const INVALID_UTF8 = [
  [0xff],
  [0xfe],
  [0xc0, 0xaf],
  [0xc3, 0x28],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
  [0xf4, 0x90, 0x80, 0x80],
];

// The large pieces of text the hostile changes put in, made once per run (the same bytes every time
// they are asked for): building them anew was a fifth of the fuzz's CPU.
const pieces = new Map<string, string>();
const piece = (key: string, make: () => string) => pieces.get(key) ?? (pieces.set(key, make()), pieces.get(key)!);
/** `[item,item,...]` of `size` items. */
const arrayOf = (size: number, item: string) =>
  piece(`[${size}*${item}`, () => `[${Array(size).fill(item).join(",")}]`);
/** `what` `size` times over. */
const repeated = (what: string, size: number) => piece(`${size}*${what}`, () => what.repeat(size));

const bombs = new Map<string, Uint8Array<ArrayBuffer>>();
/** A small gzip that inflates to `size` bytes of zeros or spaces (made once per run). */
function bomb(size: number, zeros: boolean): Uint8Array<ArrayBuffer> {
  const key = `${size}/${zeros}`;
  if (!bombs.has(key))
    bombs.set(key, gzipSync(zeros ? new Uint8Array(size) : new TextEncoder().encode(" ".repeat(size)), { level: 9 }));
  return bombs.get(key)!;
}

/** A hostile change: its kind, and how it changes the envelope, the text, the bytes or the request. */
type Plan = {
  kind: string;
  env: Obj;
  raw: Map<string, string>;
  text?: (text: string) => string;
  bytes?: (b: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>;
  plain?: boolean;
  gzip?: boolean;
  headers?: Record<string, string>;
  auth?: boolean;
};

/** A placeholder in the object that becomes raw JSON text after stringify. */
function rawAt(plan: Plan, p: Path, text: string) {
  const token = `@@RAW${plan.raw.size}@@`;
  plan.raw.set(`"${token}"`, text);
  setAt(plan.env, p, token);
}

type Mutation = { kind: string; weight: number; apply(plan: Plan, r: Rng, ctx: FuzzContext, n: number): void };

const numericLeaves = (env: Obj) => leaves(env, (v) => typeof v === "number");
const stringLeaves = (env: Obj) => leaves(env, (v) => typeof v === "string");
const keyLeaves = (env: Obj) =>
  paths(env).filter((p) => (p.at(-1) === "k" || p.at(-1) === "key") && typeof getAt(env, p) === "string");
const anyPath = (env: Obj, r: Rng) => r.pick(paths(env));
const deep = (r: Rng) => {
  const d = r.pick([1_000, 10_000, 100_000, 500_000]);
  return r.chance(0.5) ? "[".repeat(d) + "]".repeat(d) : '{"a":'.repeat(d) + "1" + "}".repeat(d);
};

const mutations: Mutation[] = [
  { kind: "valid", weight: 8, apply: () => {} },
  {
    kind: "wrong_type",
    weight: 8,
    apply: (p, r) => setAt(p.env, anyPath(p.env, r), structuredClone(r.pick(WRONG_TYPES))),
  },
  { kind: "null", weight: 4, apply: (p, r) => setAt(p.env, anyPath(p.env, r), null) },
  {
    kind: "remove_field",
    weight: 5,
    apply: (p, r) => {
      const fields = paths(p.env).filter((q) => typeof q.at(-1) === "string");
      const q = r.pick(fields);
      delete parentOf(p.env, q)[q.at(-1)!];
    },
  },
  {
    kind: "unknown_field",
    weight: 5,
    apply: (p, r) => {
      const at = r.pick(objects(p.env));
      const o = at.length ? getAt(p.env, at) : p.env;
      o[r.pick(["uuid", "uuid", "name", "player", "extra", "__proto__x", "constructor", "Batchid", "batchId "])] =
        r.pick(["0f1e2d3c4b5a69788796a5b4c3d2e1f0", 1, null, {}]);
    },
  },
  { kind: "uuid_at_root", weight: 2, apply: (p) => (p.env.uuid = "0f1e2d3c4b5a69788796a5b4c3d2e1f0") },
  { kind: "number_raw", weight: 6, apply: (p, r) => rawAt(p, r.pick(numericLeaves(p.env)), r.pick(NUMBERS_RAW)) },
  { kind: "number_edge", weight: 4, apply: (p, r) => setAt(p.env, r.pick(numericLeaves(p.env)), r.pick(NUMBERS_SAFE)) },
  { kind: "nanish_string", weight: 3, apply: (p, r) => setAt(p.env, r.pick(numericLeaves(p.env)), r.pick(NANISH)) },
  {
    kind: "long_string",
    weight: 3,
    apply: (p, r) =>
      setAt(p.env, r.pick(stringLeaves(p.env)), repeated("x", r.pick([65, 129, 1_000, 100_000, 2_000_000]))),
  },
  { kind: "deep_nesting", weight: 3, apply: (p, r) => rawAt(p, anyPath(p.env, r), deep(r)) },
  { kind: "deep_root", weight: 1, apply: (p, r) => (p.text = () => deep(r)) },
  {
    kind: "giant_array",
    weight: 3,
    apply: (p, r) => {
      const size = r.pick([1_001, 20_001, 200_000, 1_000_000]);
      const where = r.int(4);
      if (where === 0) rawAt(p, ["counters", 0, "rows"], arrayOf(size, '{"k":"mining.a","v":1}'));
      else if (where === 1) rawAt(p, ["counters"], arrayOf(Math.min(size, 200_000), "{}"));
      else if (where === 2) rawAt(p, ["categories"], arrayOf(size, '"combat"'));
      else rawAt(p, anyPath(p.env, r), arrayOf(size, "0"));
    },
  },
  {
    kind: "duplicate_key",
    weight: 4,
    apply: (p, r) => {
      const at = r.pick(objects(p.env));
      const o = at.length ? getAt(p.env, at) : p.env;
      const key = r.pick(Object.keys(o));
      const other = r.chance(0.5) ? structuredClone(o[key]) : r.pick(WRONG_TYPES);
      const token = `@@DUP${p.raw.size}@@`;
      p.raw.set(`"${token}"`, JSON.stringify(key));
      const entries = Object.entries(o);
      for (const k of Object.keys(o)) delete o[k];
      // The duplicate goes first (the original wins) or last (the duplicate wins).
      if (r.chance(0.5)) o[token] = other;
      for (const [k, v] of entries) o[k] = v;
      if (!(token in o)) o[token] = other;
    },
  },
  {
    kind: "invalid_utf8",
    weight: 3,
    apply: (p, r) => {
      const bad = r.pick(INVALID_UTF8);
      p.bytes = (b) => {
        // Inside a string value: after the first quote past a random point.
        const from = r.int(b.length);
        let i = b.indexOf(0x22, from);
        if (i < 0) i = b.indexOf(0x22);
        return new Uint8Array([...b.subarray(0, i + 1), ...bad, ...b.subarray(i + 1)]);
      };
    },
  },
  {
    kind: "unicode_counter_key",
    weight: 6,
    apply: (p, r) => {
      const q = r.pick(keyLeaves(p.env));
      setAt(p.env, q, r.pick(UNICODE_TRICKS)(getAt(p.env, q), r));
    },
  },
  {
    kind: "unicode_field_name",
    weight: 3,
    apply: (p, r) => {
      const at = r.pick(objects(p.env));
      const o = at.length ? getAt(p.env, at) : p.env;
      const key = r.pick(Object.keys(o));
      const v = o[key];
      delete o[key];
      o[r.pick(UNICODE_TRICKS)(key, r)] = v;
    },
  },
  {
    kind: "unicode_free_text",
    weight: 3,
    apply: (p, r) => {
      const q = r.pick([
        ["zone", "id"],
        ["client", "modVersion"],
        ["client", "minecraft"],
        ["profile", "cuteName"],
      ]);
      setAt(p.env, q, r.pick(UNICODE_TRICKS)(String(getAt(p.env, q)), r));
    },
  },
  {
    kind: "gzip_broken",
    weight: 6,
    apply: (p, r) => {
      p.gzip = true;
      const how = r.int(6);
      p.bytes = (b) => {
        if (how === 0) return b.subarray(0, r.int(b.length)); // truncated
        const c = b.slice();
        if (how === 1)
          c[c.length - 8] = c[c.length - 8]! ^ 0xff; // CRC
        else if (how === 2)
          c[c.length - 1] = c[c.length - 1]! ^ 0x01; // ISIZE
        else if (how === 3) {
          const i = 10 + r.int(Math.max(1, c.length - 18));
          c[i] = c[i]! ^ 0x55; // deflate data
        } else if (how === 4)
          c[0] = 0x1e; // magic
        else return new Uint8Array([...c, ...c.subarray(0, 20)]); // trailing garbage
        return c;
      };
    },
  },
  {
    kind: "gzip_of_non_json",
    weight: 2,
    apply: (p, r) => (
      (p.gzip = true),
      (p.text = () => r.pick(["not json", "{", '{"schema":1,', "\u0000\u0001", "[1,2", '"unterminated']))
    ),
  },
  { kind: "gzip_twice", weight: 1, apply: (p) => ((p.gzip = true), (p.bytes = (b) => gzipSync(b))) },
  {
    kind: "gzip_bomb",
    weight: 2,
    apply: (p, r) => {
      p.gzip = true;
      const size = r.pick([9 * 1024 * 1024, 64 * 1024 * 1024]);
      const zeros = r.chance(0.5);
      p.bytes = () => bomb(size, zeros);
    },
  },
  {
    kind: "giant_body",
    weight: 2,
    apply: (p, r) => {
      const wire = r.chance(0.5);
      p.plain = true;
      // Over the 1 MiB wire cap as sent, or (gzip) over the 8 MiB cap once decoded.
      if (wire) p.text = (t) => t.replace('"mode"', () => `"pad":"${repeated("x", 1_100_000)}","mode"`);
      else
        (p.plain = false),
          (p.gzip = true),
          (p.text = (t) => t.replace('"mode"', () => `"pad":"${repeated("x", 8_500_000)}","mode"`));
    },
  },
  {
    kind: "over_8k_plain",
    weight: 2,
    apply: (p) => ((p.plain = true), (p.text = (t) => t.replace('"mode"', `"zone2":"${"y".repeat(9_000)}","mode"`))),
  },
  { kind: "empty_body", weight: 2, apply: (p, r) => ((p.gzip = r.chance(0.3)), (p.text = () => "")) },
  {
    kind: "non_object_root",
    weight: 2,
    apply: (p, r) =>
      (p.text = () => r.pick(["null", "0", "-1", "true", "false", '""', '"x"', "[]", "[{}]", "1e308", " "])),
  },
  {
    kind: "wrong_headers",
    weight: 5,
    apply: (p, r) => {
      const h = r.pick<Record<string, string>>([
        { "content-type": "text/plain" },
        { "content-type": "application/x-www-form-urlencoded" },
        { "content-type": "multipart/form-data; boundary=x" },
        { "content-type": "application/json; charset=latin1" },
        { "content-type": "APPLICATION/JSON" },
        { "content-type": "" },
        { "content-encoding": "br" },
        { "content-encoding": "deflate" },
        { "content-encoding": "gzip, gzip" },
        { "content-encoding": "x-gzip" },
        { "content-encoding": "identity" },
        { "content-encoding": "GZIP" },
      ]);
      p.headers = h;
      if (h["content-encoding"]?.toLowerCase() === "gzip") p.gzip = true;
    },
  },
  {
    kind: "day_edge",
    weight: 3,
    apply: (p, r) => {
      const days = paths(p.env).filter((q) => q.at(-1) === "day");
      const day = r.pick([
        "0000-01-01",
        "0000-12-31",
        "0001-01-01",
        "1969-12-31",
        "1970-01-01",
        "2026-02-29",
        "2024-02-29",
        "2026-13-01",
        "2026-00-10",
        "2026-06-00",
        "2026-06-31",
        "9999-12-31",
        "2026-6-1",
        "20260601",
        "2026-06-01T00:00:00Z",
        "\uff12\uff10\uff12\uff16-06-01",
        "2026-06-01\n",
        "\u0662\u0660\u0662\u0666-06-01",
      ]);
      setAt(p.env, r.pick(days), day);
    },
  },
  {
    kind: "gzip_header_on_plain",
    weight: 1,
    apply: (p) => ((p.plain = true), (p.headers = { "content-encoding": "gzip" })),
  },
  { kind: "no_token", weight: 1, apply: (p) => (p.auth = false) },
  // Rules that refuse a valid-shaped upload whole (422), and two that apply only part of it (200).
  {
    kind: "day_too_far_ahead",
    weight: 2,
    apply: (p, r, ctx, n) => ((p.env.counters as Obj[])[0]!.day = dayOf(ctx.nowAt(n) + (2 + r.int(400)) * DAY_MS)),
  },
  {
    kind: "sealed_day",
    weight: 2,
    apply: (p, r, ctx, n) => ((p.env.counters as Obj[])[0]!.day = dayOf(ctx.nowAt(n) - (125 + r.int(3000)) * DAY_MS)),
  },
  {
    kind: "empty_upload",
    weight: 1,
    apply: (p) => (
      delete p.env.counters, delete p.env.sessions, delete p.env.timeline, delete p.env.mirror, (p.env.categories = [])
    ),
  },
  {
    kind: "categories_mismatch",
    weight: 2,
    apply: (p, r) =>
      (p.env.categories = r.chance(0.5) ? [] : [...(p.env.categories as string[]), "combat", "gathering", "service"]),
  },
  {
    kind: "unknown_namespace",
    weight: 1,
    apply: (p, r) => {
      const q = r.pick(keyLeaves(p.env));
      setAt(p.env, q, String(getAt(p.env, q)).replace(/^[a-z]+/, "zz"));
    },
  },
  { kind: "unknown_cute_name", weight: 1, apply: (p) => ((p.env.profile as Obj).cuteName = "Durian") },
  { kind: "profile_mismatch", weight: 1, apply: (p) => ((p.env.counters as Obj[])[0]!.profileId = "1".repeat(32)) },
  {
    kind: "duplicate_row",
    weight: 1,
    apply: (p) => {
      const rows = (p.env.counters as Obj[])[0]!.rows as Obj[];
      rows.push({ ...rows[0]! });
    },
  },
  { kind: "unsupported_schema", weight: 1, apply: (p, r) => (p.env.schema = r.pick([0, 2, 3, 999_999])) },
  {
    kind: "unknown_mirror_section",
    weight: 1,
    apply: (p) =>
      (p.env.mirror = { observedAt: 1, sections: [{ name: "inventory", values: [{ k: "mining.fz.x", v: 1 }] }] }),
  },
  {
    kind: "denylisted_string",
    weight: 1,
    apply: (p, r) =>
      setAt(
        p.env,
        r.pick([
          ["zone", "id"],
          ["client", "modVersion"],
        ]),
        r.pick(["[MVP+] Steve", "Party > hi", "From Alex_9: yo", "0f1e2d3c4b5a69788796a5b4c3d2e1f0"]),
      ),
  },
];
const totalWeight = mutations.reduce((n, m) => n + m.weight, 0);

// ---------------------------------------------------------------------------------------------

/**
 * Request n of the run `seed`: a valid upload with one hostile change (or a replay of an earlier
 * request). `from`: the first request the database saw (a part of a run split over test files), so a
 * replay sends again one this database was sent; 0 (the whole run) gives the same stream as before.
 */
export function fuzzRequest(seed: number, n: number, ctx: FuzzContext, from = 0): FuzzRequest {
  const r = rng(requestSeed(seed, n));
  // An earlier request sent again, byte for byte: a duplicate if it was accepted, refused again if not.
  if (n > 0 && r.chance(0.03) && n > from)
    return { ...fuzzRequest(seed, from + r.int(n - from), ctx, from), n, kind: "replay" };
  let roll = r.next() * totalWeight;
  const mutation = mutations.find((m) => (roll -= m.weight) < 0) ?? mutations[0]!;
  const plan: Plan = { kind: mutation.kind, env: validEnvelope(r, n, seed, ctx), raw: new Map() };
  mutation.apply(plan, r, ctx, n);
  let text = JSON.stringify(plan.env);
  for (const [token, raw] of plan.raw) text = text.replace(token, () => raw);
  if (plan.text) text = plan.text(text);
  let bytes: Uint8Array<ArrayBuffer> = new TextEncoder().encode(text);
  // The mod compresses over 8 KiB; a small body is compressed now and then anyway.
  const gzip = plan.gzip ?? (!plan.plain && (bytes.length > 8192 || r.chance(0.15)));
  if (gzip && !plan.plain) bytes = gzipSync(bytes);
  if (plan.bytes) bytes = plan.bytes(bytes);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...(gzip && !plan.plain ? { "content-encoding": "gzip" } : {}),
    ...plan.headers,
  };
  for (const [k, v] of Object.entries(headers)) if (v === "") delete headers[k];
  return {
    n,
    kind: mutation.kind,
    body: bytes.length || r.chance(0.5) ? bytes : null,
    headers,
    auth: plan.auth ?? true,
  };
}

/** The batchId a request's body carries when it is a readable upload (for accepted requests). */
export function batchIdOf(req: FuzzRequest): string | undefined {
  if (!req.body) return undefined;
  try {
    const plain =
      req.headers["content-encoding"]?.trim().toLowerCase() === "gzip" ? Bun.gunzipSync(req.body) : req.body;
    return (JSON.parse(new TextDecoder().decode(plain)) as { batchId?: string }).batchId;
  } catch {
    return undefined;
  }
}
