// Wire shapes of the profile source and the player routes.
import { Type as T } from "@sinclair/typebox";
import { ProfileEntry } from "./allowlist.ts";
import type { ErrorCode } from "../http/errors.ts";

const Uuid = T.String({ pattern: "^[0-9a-f]{32}$", maxLength: 32 });
const Time = T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const NameParams = T.Object(
  { name: T.String({ pattern: "^[A-Za-z0-9_]{3,16}$", maxLength: 16 }) },
  { additionalProperties: false },
);

export const ProfilesDocument = T.Object(
  {
    uuid: Uuid,
    /** When the game API gave this answer (epoch ms). */
    fetchedAt: Time,
    /** true: the game API failed just now and this is the last good answer. */
    stale: T.Boolean(),
    profiles: T.Array(ProfileEntry, { maxItems: 32 }),
  },
  { additionalProperties: false },
);

const PlayerFields = {
  uuid: Uuid,
  name: T.String({ maxLength: 16 }),
  /** The player's head through this service's image proxy. */
  head: T.String({ maxLength: 2200 }),
};

export const PlayerAnswer = T.Object(PlayerFields, { additionalProperties: false });

export const PlayerSummary = T.Object(
  {
    ...PlayerFields,
    fetchedAt: Time,
    stale: T.Boolean(),
    profileCount: T.Integer({ minimum: 0, maximum: 32 }),
    selected: T.Optional(
      T.Object(
        {
          profileId: T.String({ maxLength: 32 }),
          cuteName: T.Optional(T.String({ maxLength: 32 })),
          gameMode: T.Optional(T.String({ maxLength: 32 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const PlayerProfiles = T.Object(
  { ...PlayerFields, fetchedAt: Time, stale: T.Boolean(), profiles: T.Array(ProfileEntry, { maxItems: 32 }) },
  { additionalProperties: false },
);

/** Refusals of a look-up by name (the name service). */
export const NAME_REFUSALS = [
  "unknown_player",
  "upstream_rate_limited",
  "upstream_timeout",
  "upstream_unavailable",
] as const satisfies readonly ErrorCode[];
/** Refusals of a profile look-up (the game API through the project's key). */
export const PROFILE_REFUSALS = [
  "no_upstream_key",
  "upstream_refused_uuid",
  "upstream_key_rejected",
  "upstream_rate_limited",
  "upstream_timeout",
  "upstream_unavailable",
] as const satisfies readonly ErrorCode[];
