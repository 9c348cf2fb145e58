// POST /v1/stats/import: an export file (format 2, gzip) taken into the signed-in account (issue 37).
import { Elysia } from "elysia";
import { authGuard } from "../auth/auth-guard.ts";
import { PendingBody } from "../http/body.ts";
import { ApiError } from "../http/errors.ts";
import { refuses } from "../http/route-detail.ts";
import { importFile, type ImportDeps } from "./import.ts";
import { IMPORT_REFUSALS, ImportAnswer, ImportQuery } from "./import.schema.ts";

export function importRoutes(deps: ImportDeps & { config: { importMaxWireBytes: number } }) {
  return new Elysia({ name: "tally.import" }).use(authGuard(deps)).post(
    "/v1/stats/import",
    async ({ signedIn, body, query }) => {
      // The body is read here, after the token guard: a stranger's file is never read.
      if (!(body instanceof PendingBody)) throw new ApiError("invalid_body", "send the export file as the body");
      // The file is held, and counted against the large bodies' pool, until the import is done.
      return body.withGzipped(deps.config.importMaxWireBytes, signedIn.uuid, (wire) =>
        importFile(deps, signedIn.uuid, () => new Blob([wire]).stream(), {
          confirmOtherAccount: query.confirm === "other-account",
          takeBoardOptIns: query.boards === "opt-in",
        }),
      );
    },
    {
      query: ImportQuery,
      response: ImportAnswer,
      detail: {
        tags: ["stats"],
        summary:
          "Take an export file (GET /v1/stats/export, format 2, gzip) into this account: checked as uploads are, merged, all or nothing",
        description:
          "The body is an export file (GET /v1/stats/export, format 2) sent with Content-Type: application/json and Content-Encoding: gzip (required). It is read as it streams, checked whole, then applied in one transaction. `?confirm=other-account` takes another account's file; `?boards=opt-in` takes the board opt-ins of the account's own file.",
        ...refuses(...IMPORT_REFUSALS),
      },
    },
  );
}
