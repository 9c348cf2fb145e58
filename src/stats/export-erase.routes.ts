// Export and erasure of the signed-in account's data.
import { Elysia } from "elysia";
import { authGuard } from "../auth/auth-guard.ts";
import { exportStream, type ExportDeps } from "./export.ts";
import { csvHeaders, csvStream } from "./export-csv.ts";
import { eraseAccount, eraseData } from "./erase.ts";
import { AccountErased, CSV_ANSWERS, DataErased, EXPORT_ANSWERS } from "./export-erase.schema.ts";
import { answers } from "../http/openapi.ts";

export function exportEraseRoutes(deps: ExportDeps) {
  const tags = ["stats"];
  return new Elysia({ name: "tally.export-erase" })
    .use(authGuard(deps))
    .get(
      "/v1/stats/export",
      async ({ signedIn }) =>
        new Response(await exportStream(deps, signedIn.uuid), {
          headers: {
            "content-type": "application/json; charset=utf-8",
            "content-disposition": `attachment; filename="tally-export-${signedIn.uuid}.json"`,
            "cache-control": "no-store",
          },
        }),
      {
        detail: {
          tags,
          summary: "Everything the service holds about this account, streamed as one JSON document",
          ...answers(EXPORT_ANSWERS),
        },
      },
    )
    .get(
      "/v1/stats/export.csv",
      ({ signedIn }) => new Response(csvStream(deps.db, signedIn.uuid), { headers: csvHeaders(signedIn.uuid) }),
      {
        detail: {
          tags,
          summary: "Every recorded day value (installs folded by kind) as CSV: one line per profile, key and day",
          ...answers(CSV_ANSWERS),
        },
      },
    )
    .delete("/v1/stats/data", ({ signedIn }) => eraseData(deps.db, signedIn.uuid), {
      response: DataErased,
      detail: { tags, summary: "Delete all recorded statistics (settings stay); answers the rows removed" },
    })
    .delete("/v1/stats/account", ({ signedIn }) => eraseAccount(deps.db, signedIn.uuid), {
      response: AccountErased,
      detail: { tags, summary: "Delete the account, its sessions and all its data; answers the rows removed" },
    });
}
