// Which boards exist (issue 35): the built-in set (builtin-boards.json) or the operator's file
// (BOARDS_FILE), each board checked against the catalogue at start. A board ranks one figure of a
// key or a key pattern (its keys added up for a count, the best of them for a max or a min, the
// readings added up for a gauge) over calendar windows; its kind and scope are the catalogue's.
// A new board is a line of JSON, no code (docs/decisions.md, "Boards: definitions").
import { statSync } from "node:fs";
import { Type as T, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Catalogue } from "../catalogue/catalogue.ts";
import builtIn from "./builtin-boards.json";

const strict = { additionalProperties: false } as const;
const Slug = T.String({ pattern: "^[a-z0-9][a-z0-9-]{0,47}$", maxLength: 48 });
export const WINDOW_KINDS = ["week", "month", "all"] as const;
export type WindowKind = (typeof WINDOW_KINDS)[number];

const BoardDefinition = T.Object(
  {
    id: Slug,
    title: T.String({ minLength: 1, maxLength: 80 }),
    group: Slug,
    keys: T.Array(T.String({ minLength: 3, maxLength: 128 }), { minItems: 1, maxItems: 16 }),
    description: T.Optional(T.String({ maxLength: 200 })),
    windows: T.Optional(T.Array(T.Union(WINDOW_KINDS.map((w) => T.Literal(w))), { minItems: 1, maxItems: 3 })),
    bound: T.Optional(
      T.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description:
          "Plausibility bound: a count or gauge board's largest gain a day, a max board's largest value, a min board's least",
      }),
    ),
  },
  strict,
);
const BoardsFile = T.Object({ boards: T.Array(BoardDefinition, { maxItems: 500 }) }, strict);

export type Kind = "count" | "max" | "min" | "gauge";
export type Board = Static<typeof BoardDefinition> & {
  kind: Kind;
  scope: "profile" | "account";
  unit: string;
  windows: WindowKind[];
  /** Higher is better, except a min board's. */
  higherBetter: boolean;
  /** Whether a stored key counts on this board. */
  matches(key: string): boolean;
};
export type Boards = { list: Board[]; byId: Map<string, Board>; groups: string[] };

export class BoardsError extends Error {
  constructor(source: string, path: string, problem: string) {
    super(`boards ${source}: ${path}: ${problem}`);
    this.name = "BoardsError";
  }
}

const isPlaceholder = (s: string) => /^\{[A-Z][A-Z0-9_]*\}$/.test(s);

/** A key spec's matcher: equal segments, a placeholder standing for any one segment. */
function matcher(spec: string): (key: string) => boolean {
  const parts = spec.split(".");
  if (!parts.some(isPlaceholder)) return (key) => key === spec;
  return (key) => {
    const segs = key.split(".");
    return segs.length === parts.length && parts.every((p, i) => isPlaceholder(p) || p === segs[i]);
  };
}

/** The catalogue entry a key spec stands under: a key, a pattern as written, or a key a pattern matches. */
function entryOf(catalogue: Catalogue, spec: string) {
  const pattern = catalogue.document.patterns.find((p) => p.pattern === spec);
  if (pattern) return pattern;
  if (spec.split(".").some(isPlaceholder)) return undefined;
  return catalogue.lookup(spec);
}

/**
 * Checks a boards document against the catalogue; throws BoardsError naming the first fault. With
 * `leaveOut` (the built-in set), a board whose keys the loaded catalogue does not have, or has with
 * other kinds, is left out instead: an operator's CATALOGUE_FILE may not have the built-in
 * catalogue's keys, and the built-in boards must never stop such a service from starting.
 */
export function parseBoards(document: unknown, catalogue: Catalogue, source: string, leaveOut = false): Boards {
  const first = Value.Errors(BoardsFile, document).First();
  if (first) throw new BoardsError(source, first.path || "/", first.message);
  const list: Board[] = [];
  const byId = new Map<string, Board>();
  (document as Static<typeof BoardsFile>).boards.forEach((def, i) => {
    if (byId.has(def.id)) throw new BoardsError(source, `/boards/${i}/id`, `a second board with the id ${def.id}`);
    if (leaveOut && !fits(def, catalogue)) return;
    const entries = def.keys.map((spec, k) => {
      const entry = entryOf(catalogue, spec);
      if (!entry)
        throw new BoardsError(
          source,
          `/boards/${i}/keys/${k}`,
          `${spec} is neither a key nor a pattern of the catalogue`,
        );
      return entry;
    });
    const { kind, scope, unit } = entries[0]!;
    if (entries.some((e) => e.kind !== kind || e.scope !== scope || e.unit !== unit))
      throw new BoardsError(
        source,
        `/boards/${i}/keys`,
        "every key of a board must have the same kind, unit and scope",
      );
    const matchers = def.keys.map(matcher);
    const board: Board = {
      ...def,
      kind: kind as Kind,
      scope: scope === "account" ? "account" : "profile",
      unit,
      windows: [...new Set(def.windows ?? WINDOW_KINDS)].sort(
        (a, b) => WINDOW_KINDS.indexOf(a) - WINDOW_KINDS.indexOf(b),
      ),
      higherBetter: kind !== "min",
      matches: (key) => matchers.some((m) => m(key)),
    };
    byId.set(def.id, board);
    list.push(board);
  });
  return { list, byId, groups: [...new Set(list.map((b) => b.group))].sort() };
}

/** The boards a server ranks: BOARDS_FILE when set, else the built-in set. */
export async function loadBoards(file: string, catalogue: Catalogue): Promise<Boards> {
  if (!file) return builtInBoards(catalogue);
  try {
    if (!statSync(file).isFile()) throw new BoardsError(file, "/", "not a file; BOARDS_FILE names a JSON file");
  } catch (error) {
    if (error instanceof BoardsError) throw error;
    throw new BoardsError(file, "/", "no such file");
  }
  let document: unknown;
  try {
    document = JSON.parse(await Bun.file(file).text());
  } catch (error) {
    throw new BoardsError(file, "/", `not JSON (${(error as Error).message})`);
  }
  return parseBoards(document, catalogue, file);
}

/** Whether the catalogue has every key of the board, all of one kind, unit and scope. */
function fits(def: Static<typeof BoardsFile>["boards"][number], catalogue: Catalogue): boolean {
  const entries = def.keys.map((spec) => entryOf(catalogue, spec));
  if (entries.some((e) => !e)) return false;
  const [first] = entries;
  return entries.every((e) => e!.kind === first!.kind && e!.scope === first!.scope && e!.unit === first!.unit);
}

/** The built-in set (tests and createApp without BOARDS_FILE): boards the catalogue cannot rank are left out. */
export const builtInBoards = (catalogue: Catalogue) => parseBoards(builtIn, catalogue, "(built in)", true);
