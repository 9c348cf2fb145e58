// Queries and answers of the fold read routes.
import { Type as T } from "@sinclair/typebox";
import { Day, Hex32, Key } from "../wire/envelope.ts";

/** A key's label in an answer (docs/decisions.md "Labels in the API's answers"). */
export const LABEL_DESCRIPTION =
  "The key's name in words, as the pages write it: the catalogue's label, an item by the game's own name, else the key in words; another key of this answer never reads the same. For a reader, never to match on (key is that).";

const strict = { additionalProperties: false } as const;
const Int = T.Integer();
const Dated = T.Object({ day: T.String(), value: Int }, strict);

export const ProfileQuery = T.Object({ profile: Hex32 }, strict);
const From = T.Optional(
  T.String({
    ...Day,
    description: "The first day, from 2000-01-01 to the service's UTC day + 1; by default 365 days before `to`.",
  }),
);
const To = T.Optional(
  T.String({
    ...Day,
    description: "The last day, from 2000-01-01, at most 3660 days after `from`; by default the account's today.",
  }),
);
export const RangeQuery = T.Object({ profile: Hex32, from: From, to: To }, strict);
export const SeriesQuery = T.Object({ profile: Hex32, key: Key, from: From, to: To }, strict);

export const ProfilesAnswer = T.Object(
  { profiles: T.Array(T.Object({ id: T.String(), cuteName: T.String(), firstSeenAt: Int, lastSeenAt: Int }, strict)) },
  strict,
);

const KeyTotal = T.Object(
  {
    key: T.String(),
    label: T.String({ description: LABEL_DESCRIPTION }),
    group: T.String(),
    icon: T.Union([T.String(), T.Null()]),
    kind: T.String(),
    unit: T.String(),
    category: T.String(),
    lifetime: T.Object(
      {
        value: Int,
        baseline: T.Union([
          T.Object(
            { day: T.String(), value: Int, backfill: T.Union([Dated, T.Null()]), seal: T.Union([Dated, T.Null()]) },
            strict,
          ),
          T.Null(),
        ]),
        days: T.Union([T.Object({ first: T.String(), last: T.String() }, strict), T.Null()]),
        /** Only when the true figure passed ±(2^53 - 1): value (and baseline value) answer that end instead. */
        clamped: T.Optional(T.Literal(true)),
      },
      strict,
    ),
  },
  strict,
);

export const TotalsAnswer = T.Object(
  {
    catalogueVersion: Int,
    profile: T.Object({ id: T.String(), cuteName: T.Union([T.String(), T.Null()]), keys: T.Array(KeyTotal) }, strict),
    account: T.Object({ id: T.String(), keys: T.Array(KeyTotal) }, strict),
  },
  strict,
);

const DayValue = T.Object({ day: T.String(), value: Int, low: T.Optional(Int), high: T.Optional(Int) }, strict);

export const SeriesAnswer = T.Object(
  {
    profileId: T.String(),
    key: T.String(),
    label: T.String({ description: LABEL_DESCRIPTION }),
    group: T.String(),
    icon: T.Union([T.String(), T.Null()]),
    kind: T.Union([T.String(), T.Null()]),
    from: T.String(),
    to: T.String(),
    days: T.Array(DayValue),
  },
  strict,
);

export const DaysAnswer = T.Object(
  {
    profileId: T.String(),
    from: T.String(),
    to: T.String(),
    /** Where the next window of the range starts (ask again with from=next), null: this was the last. */
    next: T.Union([T.String(), T.Null()]),
    days: T.Array(
      T.Object(
        {
          day: T.String(),
          values: T.Array(
            T.Object({ key: T.String(), value: Int, low: T.Optional(Int), high: T.Optional(Int) }, strict),
          ),
        },
        strict,
      ),
    ),
  },
  strict,
);
