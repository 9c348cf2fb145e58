// The answer of POST /v1/stats/import (and `tally import`): what the file added, replaced, skipped
// and refused, by kind of row; what the seal and retention folded; warnings.
import { Type as T } from "@sinclair/typebox";
import { Day } from "../wire/envelope.ts";
import type { ErrorCode } from "../http/errors.ts";

const strict = { additionalProperties: false } as const;
const Count = T.Integer({ minimum: 0 });
const Counts = T.Object(
  {
    added: Count,
    replaced: Count,
    skipped: T.Integer({ minimum: 0, description: "The stored copy was as new (the same file twice: all skipped)." }),
    refused: T.Integer({ minimum: 0, description: "Not taken by a rule; `refused` below says which." }),
  },
  strict,
);

export const ImportQuery = T.Object(
  {
    confirm: T.Optional(
      T.Literal("other-account", {
        description: "Take a file exported from another account (refused import_other_account without it).",
      }),
    ),
    boards: T.Optional(
      T.Literal("opt-in", {
        description:
          "Take the board opt-ins of the account's own file too (without it they are left out with a board_opt_ins_not_taken warning: an import puts nobody on a board unasked).",
      }),
    ),
  },
  strict,
);

export const ImportAnswer = T.Object(
  {
    format: T.Integer({ minimum: 1, description: "The file's format version." }),
    otherAccount: T.Boolean({
      description: "The file was another account's export (taken with confirm=other-account).",
    }),
    sealedBeforeDay: Day,
    retainedFromDay: T.String({
      maxLength: 10,
      description: "Days before it were folded into the baseline (the account's retention).",
    }),
    counts: T.Object(
      {
        profiles: Counts,
        counterRows: Counts,
        baselines: T.Object(Counts.properties, { ...strict, description: "Backfills and retention seals." }),
        sessions: Counts,
        events: Counts,
        mirrorSections: Counts,
      },
      strict,
    ),
    refused: T.Array(
      T.Object(
        {
          code: T.Union([T.Literal("day_sealed"), T.Literal("category_off")]),
          rows: Count,
        },
        strict,
      ),
      { description: "day_sealed: a day this account already holds sealed; category_off: a category it has off." },
    ),
    folded: T.Object(
      {
        collapsedRows: T.Integer({
          minimum: 0,
          description: "Per-install day rows older than the seal horizon, collapsed.",
        }),
        retainedRows: T.Integer({
          minimum: 0,
          description: "Day rows older than the retention, folded into the baseline.",
        }),
      },
      strict,
    ),
    warnings: T.Array(
      T.Object(
        {
          code: T.String({ maxLength: 32 }),
          message: T.String({ maxLength: 512 }),
          key: T.Optional(T.String({ maxLength: 128 })),
        },
        strict,
      ),
      { maxItems: 101 },
    ),
  },
  strict,
);

/** What the import route refuses besides a signed-in route's refusals. */
export const IMPORT_REFUSALS: ErrorCode[] = [
  "invalid_query",
  "invalid_body",
  "body_too_large",
  "body_too_deep",
  "body_too_slow",
  "too_many_bodies",
  "server_busy",
  "gzip_required",
  "format_unsupported",
  "format_too_new",
  "import_other_account",
  "denylisted_string",
  "unknown_namespace",
  "unknown_cute_name",
  "unknown_mirror_section",
  "profile_mismatch",
  "day_too_far_ahead",
  "too_many_keys",
  "too_many_profiles",
  "total_out_of_range",
];
