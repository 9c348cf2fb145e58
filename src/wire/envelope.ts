// The upload envelope (contract 2.4, 2.5) as TypeBox schemas. Every object refuses unknown fields,
// every string has a length cap, every number is a safe integer. The shapes of sessions, timeline
// events and the mirror are the project's (docs/decisions.md): minimal and strict.
import { Type as T, type Static } from "@sinclair/typebox";
import { DAY_PATTERN } from "./day.ts";

const strict = { additionalProperties: false } as const;
export const Hex32 = T.String({ pattern: "^[0-9a-f]{32}$", maxLength: 32 });
const Epoch = T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const SafeInt = T.Integer({ minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
export const Day = T.String({ pattern: DAY_PATTERN, maxLength: 10 });
/** Contract 2.2: namespace ("." segment){1,5}, at most 128 bytes (the grammar is ASCII). */
export const Key = T.String({
  pattern: "^[a-z][a-z0-9_]{1,15}(\\.[A-Za-z0-9_][A-Za-z0-9_;:+#-]{0,63}){1,5}$",
  maxLength: 128,
});
export const Kind = T.Union([T.Literal("count"), T.Literal("max"), T.Literal("min"), T.Literal("gauge")]);
/** A client-made id of a session or timeline event. */
export const ClientId = T.String({ pattern: "^[A-Za-z0-9_-]{1,64}$" });
/** An open list word: a session activity, a timeline kind. */
export const Word = T.String({ pattern: "^[a-z][a-z0-9_]{0,31}$" });
export const Amounts = T.Array(T.Object({ k: Key, v: SafeInt }, strict), { maxItems: 200 });

export const CounterRow = T.Object({ k: Key, v: SafeInt, m: T.Optional(Kind) }, strict);

export const CounterBlock = T.Object(
  {
    profileId: Hex32,
    /** day: one day's absolute values; backfill: lifetime totals up to and including `day`. */
    scope: T.Union([T.Literal("day"), T.Literal("backfill")]),
    day: Day,
    rows: T.Array(CounterRow, { maxItems: 20_000 }),
  },
  strict,
);

export const Session = T.Object(
  {
    id: ClientId,
    activity: Word,
    /** The day the session began (contract 2.1 rule 4). */
    day: Day,
    startedAt: Epoch,
    endedAt: Epoch,
    gains: Amounts,
    costs: Amounts,
  },
  strict,
);

export const TimelineEvent = T.Object(
  {
    id: ClientId,
    kind: Word,
    day: Day,
    at: Epoch,
    /** What the moment was about, when it is a counter (the item of a rare drop, the best beaten). */
    key: T.Optional(Key),
    value: T.Optional(SafeInt),
  },
  strict,
);

export const MirrorSection = T.Object(
  { name: T.String({ pattern: "^[a-z][a-z0-9_]{1,31}$" }), values: Amounts },
  strict,
);
export const Mirror = T.Object({ observedAt: Epoch, sections: T.Array(MirrorSection, { maxItems: 64 }) }, strict);

export const Envelope = T.Object(
  {
    schema: T.Integer({ minimum: 0, maximum: 1_000_000 }),
    batchId: Hex32,
    sentAt: Epoch,
    mode: T.Literal("live"),
    client: T.Object(
      {
        install: Hex32,
        modVersion: T.String({ minLength: 1, maxLength: 64 }),
        minecraft: T.String({ minLength: 1, maxLength: 32 }),
        catalogue: T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
      },
      strict,
    ),
    zone: T.Object({ id: T.String({ minLength: 1, maxLength: 64 }) }, strict),
    settingsVersion: T.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    profile: T.Object({ id: Hex32, cuteName: T.String({ minLength: 1, maxLength: 32 }) }, strict),
    categories: T.Array(T.String({ maxLength: 32 }), { maxItems: 10 }),
    counters: T.Optional(T.Array(CounterBlock, { maxItems: 1_000 })),
    sessions: T.Optional(T.Array(Session, { maxItems: 1_000 })),
    timeline: T.Optional(T.Array(TimelineEvent, { maxItems: 1_000 })),
    mirror: T.Optional(Mirror),
  },
  strict,
);

export type Envelope = Static<typeof Envelope>;
export type CounterBlock = Static<typeof CounterBlock>;

/** The reserved all-zero profileId: the account, not a profile (contract 2.1 rule 1). */
export const ACCOUNT_PROFILE = "0".repeat(32);

/** Fields that are identifiers by contract: the denylist does not read them. */
export function isIdentifierPath(path: string): boolean {
  return /^\/(batchId|client\/install|profile\/id|counters\/\d+\/profileId|sessions\/\d+\/id|timeline\/\d+\/id)$/.test(
    path,
  );
}
