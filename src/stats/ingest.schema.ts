// The ingest answer (design.md 4): what was applied, dropped, refused, and what to look at.
import { Type as T } from "@sinclair/typebox";
import type { ErrorCode } from "../http/errors.ts";

const strict = { additionalProperties: false } as const;
const Count = T.Integer({ minimum: 0 });

export const IngestAnswer = T.Object(
  {
    /** The oldest day still writable; day rows before it are refused day_sealed. */
    sealedBeforeDay: T.String(),
    catalogueVersion: T.Integer(),
    /** true: this batchId was seen within 7 days; this is the answer it got then, nothing applied. */
    duplicate: T.Boolean(),
    warnings: T.Array(T.Object({ code: T.String(), message: T.String(), key: T.Optional(T.String()) }, strict)),
    /** Rows (and sessions, events, mirror sections) of categories the account has turned off. */
    dropped: T.Object({ categories: T.Array(T.String()), rows: Count }, strict),
    /**
     * Rows not stored, by day and code: day_sealed (older than the seal horizon; the mod prunes the
     * day) and too_many_keys (keys new to a profile past its cap of distinct keys; see the warning).
     */
    refused: T.Array(
      T.Object(
        { day: T.String(), code: T.Union([T.Literal("day_sealed"), T.Literal("too_many_keys")]), rows: Count },
        strict,
      ),
    ),
    applied: T.Object({ rows: Count, sessions: Count, events: Count, sections: Count }, strict),
  },
  strict,
);

/** The refusals of an upload beyond those of any body route (design.md 4, docs/decisions.md "HTTP status per condition"). */
export const INGEST_REFUSALS = [
  "gzip_required",
  "unsupported_schema",
  "empty_upload",
  "categories_mismatch",
  "day_too_far_ahead",
  "denylisted_string",
  "unknown_namespace",
  "profile_mismatch",
  "unknown_cute_name",
  "unknown_mirror_section",
  "duplicate_row",
  "too_many_rows",
  "too_many_profiles",
  "total_out_of_range",
] as const satisfies readonly ErrorCode[];
