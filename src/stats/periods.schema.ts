// Query and answer of GET /v1/stats/periods (period totals, periods.ts).
import { Type as T } from "@sinclair/typebox";
import { Day, Hex32, Key, Kind } from "../wire/envelope.ts";
import { DAY_PATTERN } from "../wire/day.ts";
import { LABEL_DESCRIPTION } from "./fold.schema.ts";

const strict = { additionalProperties: false } as const;
const Int = T.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
const Maybe = (description: string) => T.Union([Int, T.Null()], { description });
const Text = (maxLength: number, description?: string) =>
  T.String({ maxLength, ...(description ? { description } : {}) });

export const PeriodsQuery = T.Object(
  {
    profile: Hex32,
    day: T.Optional(
      T.String({
        pattern: DAY_PATTERN,
        maxLength: 10,
        description:
          "The day whose periods are read (in the account's zone), from 2000-01-01 to the service's UTC day + 1; by default the account's today.",
      }),
    ),
    after: T.Optional(
      T.String({
        pattern: Key.pattern,
        maxLength: Key.maxLength,
        description: "Answer the keys after this one (the previous answer's `next`); by default from the first key.",
      }),
    ),
  },
  strict,
);

const PeriodKey = T.Object(
  {
    key: Key,
    label: Text(200, LABEL_DESCRIPTION),
    group: Text(200),
    kind: Kind,
    unit: Text(64),
    value: Maybe("The period so far, folded by kind (null: nothing observed in it)."),
    previous: Maybe("The whole previous period, folded by kind (null: nothing observed in it)."),
    change: Maybe("value - previous, when both are there."),
    previousSameStretch: Maybe(
      "The same stretch of the previous period (the period's `previousSameStretch` days), folded by kind (null: nothing observed in it).",
    ),
    changeSameStretch: Maybe("value - previousSameStretch, when both are there: like with like."),
  },
  strict,
);

const Span = { from: Day, to: Day };

export const PeriodsAnswer = T.Object(
  {
    profileId: Hex32,
    day: Day,
    zone: Text(64),
    periods: T.Array(
      T.Object(
        {
          period: T.Union([T.Literal("day"), T.Literal("week"), T.Literal("month"), T.Literal("year")]),
          ...Span,
          previous: T.Object(Span, strict),
          previousSameStretch: T.Object(Span, {
            ...strict,
            description:
              "The previous period's start up to as many days as this period so far, clamped to its length (a week: the same weekdays; a month: days 1 to this day's date; a year: 1 January to this day's date).",
          }),
          keys: T.Array(PeriodKey),
        },
        strict,
      ),
    ),
    next: T.Union([Key, T.Null()], {
      description:
        "The keys are answered a page at a time, in key order (about 50 000 day values a page): ask again with `after` set to this for the next keys; null: this was the last page.",
    }),
  },
  strict,
);
