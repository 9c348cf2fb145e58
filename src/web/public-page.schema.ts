// The answer of GET /v1/pages/<name>: a findable statistics page's figures as JSON (issue 37), for
// widgets and stream overlays. Exactly what the page shows a stranger: its headline figures, its
// profiles by cute name (addressed by the page's handles, never a profile id) and its period table.
import { Type as T } from "@sinclair/typebox";
import { Day, Key, Kind } from "../wire/envelope.ts";
import { HEADLINE_KEYS } from "../accounts/settings.schema.ts";

const strict = { additionalProperties: false } as const;
const Int = T.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
const Maybe = (description: string) => T.Union([Int, T.Null()], { description });
const Text = (maxLength: number, description?: string) =>
  T.String({ maxLength, ...(description ? { description } : {}) });
const Handle = T.String({
  pattern: "^[A-Za-z0-9_-]{12}$",
  maxLength: 12,
  description: "The profile as the page addresses it (its ?profile=): means something on this page only.",
});
const Profile = T.Object(
  { handle: Handle, cuteName: Text(32, "The profile's name in the game (Apple, Banana...).") },
  strict,
);
const Span = T.Object({ from: Day, to: Day }, strict);

const HeadlineFigure = T.Object(
  {
    key: Key,
    label: Text(200, "The figure's name in words, as the page writes it."),
    kind: Kind,
    unit: Text(64),
    value: T.Integer({
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
      description: "The lifetime figure, in its unit (a duration in milliseconds).",
    }),
    clamped: T.Optional(T.Literal(true, { description: "Present when the figure passed the safe integer range." })),
    text: Text(120, 'The value as the page and the card write it ("1.2M", "2 h 5 min").'),
  },
  strict,
);

const PeriodFigure = T.Object(
  {
    key: Key,
    label: Text(200),
    group: Text(200),
    kind: Kind,
    unit: Text(64),
    value: Maybe("The period so far, folded by kind (null: nothing observed in it)."),
    previousSameStretch: Maybe("The same stretch of the previous period (null: nothing observed in it)."),
    changeSameStretch: Maybe("value - previousSameStretch, when both are there."),
  },
  strict,
);

export const PublicPage = T.Object(
  {
    name: Text(16, "The player's name, as the page heads it."),
    page: Text(300, "The page's address."),
    zone: Text(64, "Days are calendar days in this time zone."),
    today: Day,
    headline: T.Array(HeadlineFigure, {
      maxItems: HEADLINE_KEYS,
      description:
        "The figures heading the page, its card and its badges: the ones the player chose first, then the ones recorded on the most of the last 30 days.",
    }),
    profiles: T.Array(Profile, { maxItems: 1000 }),
    profile: T.Union([Profile, T.Null()], {
      description: "The profile shown: the one asked for by ?profile=<handle>, else the one last uploaded for.",
    }),
    period: T.Object(
      {
        period: T.Union([T.Literal("day"), T.Literal("week"), T.Literal("month"), T.Literal("year")]),
        ...Span.properties,
        previousSameStretch: Span,
        profile: T.Union([T.Array(PeriodFigure), T.Null()], {
          description: "The shown profile's figures the page charts (null: no profile).",
        }),
        account: T.Array(PeriodFigure, { description: "The whole account's figures the page charts." }),
      },
      strict,
    ),
  },
  strict,
);
