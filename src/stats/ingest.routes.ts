// POST /v1/stats/ingest: the only write path for recorded data (contract 4.1).
import { Elysia } from "elysia";
import { authGuard } from "../auth/auth-guard.ts";
import { readBody, requireGzipOver } from "../http/body.ts";
import { validBody } from "../http/valid-body.ts";
import { ApiError } from "../http/errors.ts";
import { ACCEPTED_SCHEMAS } from "../wire/schema-version.ts";
import { Envelope } from "../wire/envelope.ts";
import { IngestAnswer } from "./ingest.schema.ts";
import { ingest, type IngestDeps } from "./ingest.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { examples, refuses } from "../http/route-detail.ts";
import { INGEST_REFUSALS } from "./ingest.schema.ts";
import firstDay from "../../fixtures/uploads/01-first-day.json";
import firstDayAnswer from "../../fixtures/uploads/01-first-day.answer.json";
import { BoundedMap, PINS_KEPT } from "./pins-memo.ts";

/** Contract 4.1 and 8: a body over 8 KiB comes gzip-compressed. */
const GZIP_OVER_BYTES = 8 * 1024;
const gzipRule = requireGzipOver(GZIP_OVER_BYTES);

/** Runs before validation: a body of a schema we do not speak is told so, not "unknown field". */
function schemaRule({ body }: { body: unknown }) {
  const schema = (body as { schema?: unknown } | null)?.schema;
  if (Number.isSafeInteger(schema) && !ACCEPTED_SCHEMAS.includes(schema as number)) {
    throw new ApiError(
      "unsupported_schema",
      `schema ${schema} is not accepted; this service accepts ${ACCEPTED_SCHEMAS.join(", ")} (see GET /v1/health)`,
      "/schema",
    );
  }
}

export function ingestRoutes(
  base: Omit<IngestDeps, "pins"> & { metrics: Metrics; config: { maxDecodedBodyBytes: number } },
) {
  const deps: IngestDeps = { ...base, pins: new BoundedMap(PINS_KEPT) };
  return new Elysia({ name: "tally.ingest" }).use(authGuard(deps)).post(
    "/v1/stats/ingest",
    async ({ signedIn, body }) => {
      const answer = await ingest(deps, signedIn.uuid, body);
      const m = base.metrics;
      m.ingestUploads.inc({ duplicate: String(answer.duplicate) });
      if (!answer.duplicate) {
        m.ingestRows.inc({ outcome: "applied" }, answer.applied.rows);
        m.ingestRows.inc(
          { outcome: "refused" },
          answer.refused.reduce((n, r) => n + r.rows, 0),
        );
        m.ingestRows.inc({ outcome: "dropped" }, answer.dropped.rows);
      }
      return answer;
    },
    {
      // The body is read here, after the token guard: a stranger's body is never decoded.
      transform: [readBody(base.config.maxDecodedBodyBytes), gzipRule, schemaRule, validBody(Envelope)],
      body: Envelope,
      response: IngestAnswer,
      detail: {
        tags: ["stats"],
        summary: "Upload one envelope of recorded data (gzip when over 8 KiB)",
        ...refuses(...INGEST_REFUSALS),
        ...examples({ body: firstDay, answers: { 200: firstDayAnswer } }),
      },
    },
  );
}
