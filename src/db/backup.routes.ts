// GET /v1/admin/backup: the embedded database's dump, for `tally backup` while the service runs.
// Absent (404) unless ADMIN_TOKEN is set, and only for that bearer token (wrong ones are limited
// per address: http/operator-token.ts).
import { Elysia } from "elysia";
import { ApiError } from "../http/errors.ts";
import { requireOperatorBearer, type OperatorDeps } from "../http/operator-token.ts";

export function backupRoutes(deps: OperatorDeps & { backup?: () => Promise<Blob>; config: { adminToken: string } }) {
  const app = new Elysia({ name: "tally.backup" });
  const token = deps.config.adminToken;
  if (!token) return app;
  return app.get(
    "/v1/admin/backup",
    async ({ request, server }) => {
      await requireOperatorBearer(deps, { request, server }, token, {
        realm: "tally admin",
        message: "the backup needs the ADMIN_TOKEN bearer token",
      });
      if (!deps.backup) throw new ApiError("conflict", "this service runs on Postgres: back it up with pg_dump");
      const stamp = new Date(deps.clock.now()).toISOString().replace(/[:.]/g, "-");
      return new Response(await deps.backup(), {
        headers: {
          "content-type": "application/gzip",
          "content-disposition": `attachment; filename="tally-backup-${stamp}.tgz"`,
          "cache-control": "no-store",
        },
      });
    },
    { detail: { hide: true } },
  );
}
