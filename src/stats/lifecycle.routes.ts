// Export and erasure of the signed-in account's data.
import { Elysia } from "elysia";
import { Type as T } from "@sinclair/typebox";
import { authGuard } from "../http/auth-guard.ts";
import { exportStream, type ExportDeps } from "./export.ts";
import { eraseAccount, eraseData } from "./erase.ts";
import { statsTables } from "./erase.query.ts";

const Count = T.Integer({ minimum: 0 });
const strict = { additionalProperties: false } as const;
/** One count per table erasure empties, named as erase.query.ts names them. */
const statsCounts = Object.fromEntries(Object.keys(statsTables).map((name) => [name, Count])) as Record<keyof typeof statsTables, typeof Count>;
const DataErased = T.Object({ removed: T.Object(statsCounts, strict), total: Count }, strict);
const AccountErased = T.Object({ removed: T.Object({ ...statsCounts, account: Count, deviceSessions: Count, pageTokens: Count }, strict), total: Count }, strict);

export function lifecycleRoutes(deps: ExportDeps) {
  const tags = ["stats"];
  return new Elysia({ name: "tally.lifecycle" })
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
      { detail: { tags, summary: "Everything the service holds about this account, streamed as one JSON document" } },
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
