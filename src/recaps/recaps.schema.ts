// The recaps API's TypeBox schemas (GET /v1/stats/recaps, POST and DELETE .../share).
import { Type as T } from "@sinclair/typebox";

const strict = { additionalProperties: false } as const;
/** "2026-10" (a month) or "2026" (a year). */
const Period = T.String({ pattern: "^\\d{4}(-(0[1-9]|1[0-2]))?$", maxLength: 7 });

export const RecapParams = T.Object({ period: Period }, strict);

export const RecapShare = T.Object(
  {
    period: Period,
    /** The shared recap's own link (null: not shared). */
    shareUrl: T.Union([T.String({ format: "uri", maxLength: 2048 }), T.Null()]),
  },
  strict,
);

export const RecapList = T.Object({ recaps: T.Array(RecapShare, { maxItems: 60 }) }, strict);
