// Export and erasure of the signed-in account's data.
import { Elysia } from "elysia";
import { readGuard, type ReadGuardDeps } from "../tokens/read-guard.ts";
import { exportStream, type ExportDeps } from "./export.ts";
import { csvHeaders, csvStream } from "./export-csv.ts";
import type { ExportGate } from "./export-gate.ts";
import { eraseAccount, eraseData, type EraseAlso } from "./erase.ts";
import { AccountErased, CSV_ANSWERS, DataErased, EXPORT_ANSWERS } from "./export-erase.schema.ts";
import { answers, refuses } from "../http/route-detail.ts";

/** The exports take a token with the `export` scope; the erasures take the mod's sign-in only. */
const TOKEN_SCOPES = { "GET /v1/stats/export": ["export"], "GET /v1/stats/export.csv": ["export"] } as const;

/** `exports`: the instance's one gate of running exports (shared with the owner's CSV at /u/<name>/export.csv). */
/**
 * `eraseAlso`: set by createApp, so the boards drop the scores and held figures made of erased
 * statistics (and, with the account, its opt-ins) in the erasure's transaction, without stats
 * importing boards.
 */
export function exportEraseRoutes(deps: ExportDeps & ReadGuardDeps & { exports: ExportGate; eraseAlso?: EraseAlso }) {
  const pageRows = deps.config.exportPageRows;
  const tags = ["stats"];
  return new Elysia({ name: "tally.export-erase" })
    .use(readGuard(deps, TOKEN_SCOPES))
    .get(
      "/v1/stats/export",
      async ({ signedIn, request }) =>
        new Response(
          await deps.exports.open(signedIn.uuid, request.signal, (end) =>
            exportStream(deps, signedIn.uuid, pageRows, end),
          ),
          {
            headers: {
              "content-type": "application/json; charset=utf-8",
              "content-disposition": `attachment; filename="tally-export-${signedIn.uuid}.json"`,
              "cache-control": "no-store",
            },
          },
        ),
      {
        detail: {
          tags,
          summary: "Everything the service holds about this account, streamed as one JSON document",
          ...answers(EXPORT_ANSWERS),
          ...refuses("export_in_progress", "server_busy"),
        },
      },
    )
    .get(
      "/v1/stats/export.csv",
      async ({ signedIn, request }) =>
        new Response(
          await deps.exports.open(signedIn.uuid, request.signal, (end) =>
            csvStream(deps.db, signedIn.uuid, pageRows, end),
          ),
          { headers: csvHeaders(signedIn.uuid) },
        ),
      {
        detail: {
          tags,
          summary: "Every recorded day value (installs folded by kind) as CSV: one line per profile, key and day",
          ...answers(CSV_ANSWERS),
          ...refuses("export_in_progress", "server_busy"),
        },
      },
    )
    .delete("/v1/stats/data", ({ signedIn }) => eraseData(deps.db, signedIn.uuid, deps.eraseAlso), {
      response: DataErased,
      detail: { tags, summary: "Delete all recorded statistics (settings stay); answers the rows removed" },
    })
    .delete("/v1/stats/account", ({ signedIn }) => eraseAccount(deps.db, signedIn.uuid, deps.eraseAlso), {
      response: AccountErased,
      detail: { tags, summary: "Delete the account, its sessions and all its data; answers the rows removed" },
    });
}
