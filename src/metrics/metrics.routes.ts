// GET /metrics: Prometheus text format. Off (404, like any unknown path) unless METRICS_ENABLED;
// with METRICS_TOKEN set, only for `Authorization: Bearer <that token>`.
import { Elysia } from "elysia";
import { ApiError } from "../http/errors.ts";
import type { Metrics } from "./metrics.ts";
import { hasBearer } from "../http/secret.ts";

export function metricsRoutes(deps: { metrics: Metrics; config: { metricsEnabled: boolean; metricsToken: string } }) {
  const app = new Elysia({ name: "tally.metrics" });
  if (!deps.config.metricsEnabled) return app;
  return app.get(
    "/metrics",
    async ({ request }) => {
      const token = deps.config.metricsToken;
      if (token && !hasBearer(request, token)) {
        throw new ApiError("unauthorized", "metrics need the METRICS_TOKEN bearer token", undefined, {
          "www-authenticate": 'Bearer realm="tally metrics"',
        });
      }
      return new Response(await deps.metrics.registry.metrics(), {
        headers: { "content-type": deps.metrics.registry.contentType, "cache-control": "no-store" },
      });
    },
    { detail: { hide: true } },
  );
}
