// Answers of the export and erasure routes: the export document (GET /v1/stats/export: the account
// with its settings, then one array per stored table of the account's rows; export.ts streams it),
// and the rows erasure removed, counted per table.
import { Type as T } from "@sinclair/typebox";
import { SettingsDocument } from "../accounts/settings.schema.ts";
import { statsTables } from "./erase.query.ts";

const Count = T.Integer({ minimum: 0 });
const strict = { additionalProperties: false } as const;
/** One count per table erasure empties, named as erase.query.ts names them. */
const statsCounts = Object.fromEntries(Object.keys(statsTables).map((name) => [name, Count])) as Record<
  keyof typeof statsTables,
  typeof Count
>;
/** Recaps (src/recaps/) are made of the statistics: erasing them erases the recaps too, counted. */
export const DataErased = T.Object(
  { removed: T.Object({ ...statsCounts, recaps: Count }, strict), total: Count },
  strict,
);
export const AccountErased = T.Object(
  {
    removed: T.Object(
      { ...statsCounts, recaps: Count, account: Count, deviceSessions: Count, pageTokens: Count, accessTokens: Count },
      strict,
    ),
    total: Count,
  },
  strict,
);

const Epoch = T.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const ExportDocument = T.Object(
  {
    service: T.Literal("tally"),
    format: T.Integer({
      minimum: 1,
      maximum: 1000,
      description:
        "The export's format version (docs/decisions.md \"The export's format version\"); POST /v1/stats/import takes this format and older ones it names.",
    }),
    exportedAt: T.String({ description: "ISO 8601 time of the export." }),
    publicDataCaches: T.Object(
      {
        maxAgeHours: T.Integer({ minimum: 0 }),
        gameProfiles: T.Object(
          {
            refreshedAfterHours: T.Number({ minimum: 0 }),
            fetchedAt: T.Union([Epoch, T.Null()]),
            profiles: T.Integer({ minimum: 0 }),
          },
          { additionalProperties: false },
        ),
        names: T.Object(
          {
            refreshedAfterHours: T.Number({ minimum: 0 }),
            held: T.Array(T.Object({ name: T.String(), fetchedAt: Epoch }, { additionalProperties: false })),
          },
          { additionalProperties: false },
        ),
        head: T.Object(
          { refreshedAfterHours: T.Number({ minimum: 0 }), fetchedAt: T.Union([Epoch, T.Null()]) },
          { additionalProperties: false },
        ),
      },
      {
        additionalProperties: false,
        description:
          "What the service holds in its caches of public game data about this player, and for how long (not recorded data).",
      },
    ),
    boards: T.Optional(
      T.Object(
        {
          optIns: T.Object({}, { additionalProperties: true }),
          groups: T.Array(T.Object({}, { additionalProperties: true })),
        },
        {
          additionalProperties: false,
          description:
            'The boards the account opted in to (`optIns`: `all`, or board `groups`) and the player groups it belongs to (`groups`: id, title, public, yours, createdAt, joinedAt; never an invite code or another member). An import of the account\'s own file adds the opt-ins and recreates the groups it created (docs/decisions.md "Boards in the export and import").',
        },
      ),
    ),
    account: T.Object(
      {
        uuid: T.String(),
        name: T.String(),
        createdAt: Epoch,
        lastUploadAt: T.Union([Epoch, T.Null()]),
        modVersion: T.Union([T.String({ maxLength: 64 }), T.Null()], {
          description:
            "The mod version of the latest upload (bug reports from a version signed-in clients run may reopen a problem).",
        }),
        settings: SettingsDocument,
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: T.Array(T.Object({}, { additionalProperties: true }), {
      description: "The account's rows of one stored table.",
    }),
  },
);

export const EXPORT_ANSWERS = {
  200: {
    description: "The export, as a download (Content-Disposition: attachment).",
    content: { "application/json": { schema: ExportDocument } },
  },
};

export const CSV_ANSWERS = {
  200: {
    description:
      "The account's day values as an RFC 4180 CSV download: a header line `profile,profile_name,key,kind,unit,day,value,low,high`, then one CRLF-ended line per (profile, key, day) in that order, the installs folded by kind; `low` and `high` only for a gauge. Baselines (backfills, seals) are in the JSON export.",
    content: { "text/csv": { schema: { type: "string", maxLength: Number.MAX_SAFE_INTEGER } } },
  },
};
