// The settings document (GET /v1/stats/settings) and the change a client sends (PATCH).
import { Type as T } from "@sinclair/typebox";
import { Key } from "../wire/envelope.ts";

const strict = { additionalProperties: false } as const;
const CategoryId = T.String({ pattern: "^[a-z][a-z0-9_]{1,31}$" });
const Zone = T.String({ minLength: 1, maxLength: 64 });
const Days = T.Integer({ minimum: 1, maximum: 36_500 });
const Epoch = T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** Most headline figures a player chooses (the card, the link description, the badges and the page show four). */
export const HEADLINE_KEYS = 4;
const HeadlineKeys = T.Array(Key, {
  maxItems: HEADLINE_KEYS,
  description:
    "The counter keys the player chose to head their page, card, link description, badges and public figures, in order (at most 4; empty: the figures recorded on the most of the last 30 days). A chosen key with nothing recorded is skipped.",
});

export const SettingsDocument = T.Object(
  {
    settingsVersion: T.Integer({ minimum: 1 }),
    /** Every category of the loaded catalogue: true when the player turned it on. */
    categories: T.Record(CategoryId, T.Boolean()),
    zone: Zone,
    /** The zone can change again from this moment (epoch ms); at or before now: it can change now. */
    zoneChangeableAt: Epoch,
    retentionDays: Days,
    retentionOptionsDays: T.Array(Days),
    /** Whether /u/<name> shows the statistics page. */
    findable: T.Boolean(),
    headlineKeys: HeadlineKeys,
  },
  strict,
);

export const SettingsChangeBody = T.Object(
  {
    /** The version the client last saw; a stale one answers 409 with the current document. */
    settingsVersion: T.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    categories: T.Optional(T.Record(T.String({ maxLength: 32 }), T.Boolean(), { maxProperties: 10 })),
    zone: T.Optional(Zone),
    retentionDays: T.Optional(Days),
    findable: T.Optional(T.Boolean()),
    /** The whole new list (replaces the old one); a key neither the catalogue nor the account knows is refused. */
    headlineKeys: T.Optional(HeadlineKeys),
  },
  strict,
);
