// The settings document (GET /v1/stats/settings) and the change a client sends (PATCH).
import { Type as T } from "@sinclair/typebox";

const strict = { additionalProperties: false } as const;
const CategoryId = T.String({ pattern: "^[a-z][a-z0-9_]{1,31}$" });
const Zone = T.String({ minLength: 1, maxLength: 64 });
const Days = T.Integer({ minimum: 1, maximum: 36_500 });
const Epoch = T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

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
  },
  strict,
);
