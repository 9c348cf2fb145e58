// GET /metrics: Prometheus text format. Off (404, like any unknown path) unless METRICS_ENABLED;
// with METRICS_TOKEN set, only for `Authorization: Bearer <that token>` (wrong ones are limited per
// address: http/operator-token.ts).
import { Elysia } from "elysia";
import type { Metrics } from "./metrics.ts";
import { requireOperatorBearer, type OperatorDeps } from "../http/operator-token.ts";

export function metricsRoutes(
  deps: OperatorDeps & { metrics: Metrics; config: { metricsEnabled: boolean; metricsToken: string } },
) {
  const app = new Elysia({ name: "tally.metrics" });
  if (!deps.config.metricsEnabled) return app;
  return app.get(
    "/metrics",
    async ({ request, server }) => {
      const token = deps.config.metricsToken;
      if (token)
        await requireOperatorBearer(deps, { request, server }, token, {
          realm: "tally metrics",
          message: "metrics need the METRICS_TOKEN bearer token",
        });
      return new Response(await deps.metrics.registry.metrics(), {
        headers: { "content-type": deps.metrics.registry.contentType, "cache-control": "no-store" },
      });
    },
    { detail: { hide: true } },
  );
}
