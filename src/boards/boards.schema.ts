// Queries and answers of the boards' routes.
import { Type as T } from "@sinclair/typebox";

const strict = { additionalProperties: false } as const;
const Int = T.Integer();
const Str = (maxLength: number, description?: string) => T.String({ maxLength, description });
const Nullable = <S extends ReturnType<typeof T.String>>(s: S) => T.Union([s, T.Null()]);

export const BoardParams = T.Object({ id: Str(48, "A board's id, as GET /v1/boards lists them") }, strict);
export const BoardQuery = T.Object(
  {
    window: T.Optional(T.Union([T.Literal("week"), T.Literal("month"), T.Literal("all")])),
    at: T.Optional(Str(8, "Which week (2026-W47) or month (2026-11); by default the one holding today")),
    page: T.Optional(T.String({ pattern: "^[1-9][0-9]{0,6}$", description: "The page, 100 scores each; from 1" })),
  },
  strict,
);

const Board = T.Object(
  {
    id: Str(48),
    title: Str(80),
    group: Str(48),
    description: Nullable(Str(200)),
    kind: T.Union(["count", "max", "min", "gauge"].map((k) => T.Literal(k))),
    unit: Str(64),
    scope: T.Union([T.Literal("profile"), T.Literal("account")]),
    higherBetter: T.Boolean(),
    windows: T.Array(T.Union([T.Literal("week"), T.Literal("month"), T.Literal("all")])),
  },
  strict,
);
export const BoardsAnswer = T.Object({ boards: T.Array(Board), groups: T.Array(Str(48)) }, strict);

const Row = T.Object(
  {
    rank: Int,
    name: Nullable(
      T.String({
        maxLength: 16,
        description: "Only when the player's page is findable, it is you, or a fellow member of the group",
      }),
    ),
    linked: T.Boolean({ description: "The player's page is findable: /u/<name> opens it" }),
    cuteName: Nullable(Str(32)),
    value: Int,
    you: T.Boolean(),
  },
  strict,
);
export const BoardPageAnswer = T.Object(
  {
    board: Board,
    window: T.Object(
      {
        kind: T.Union([T.Literal("week"), T.Literal("month"), T.Literal("all")]),
        at: Str(8),
        label: Str(80),
        from: Nullable(Str(10)),
        to: Nullable(Str(10)),
        open: T.Boolean(),
        previous: Nullable(Str(8)),
        next: Nullable(Str(8)),
      },
      strict,
    ),
    total: Int,
    page: Int,
    pages: Int,
    rows: T.Array(Row),
    me: T.Array(T.Object({ rank: Int, rows: T.Array(Row) }, strict)),
    pollAfterSeconds: Int,
  },
  strict,
);

export const MembershipAnswer = T.Object(
  {
    excluded: T.Boolean({ description: "The operator excluded this account from every board" }),
    all: T.Boolean(),
    groups: T.Array(T.Object({ id: Str(48), on: T.Boolean(), boards: T.Array(Str(48)) }, strict)),
    removed: T.Optional(T.Integer({ minimum: 0, description: "Scores removed by this change" })),
  },
  strict,
);
export const MembershipBody = T.Object(
  {
    all: T.Boolean({ description: "Every board group, now and later" }),
    groups: T.Array(Str(48), { maxItems: 64, description: "The groups opted in to when `all` is false" }),
  },
  strict,
);
