// A request id on every answer (X-Request-Id), a `log` in every handler's context that stamps it
// on each line, and one log line per request with its outcome. The line names the route pattern
// (`/p/:name`, `/s/:key`), never the path: a path can hold another player's name or a share key,
// and a log is storage too.
import { Elysia } from "elysia";
import type { Log } from "../log.ts";
import { beginRequest, requestFacts } from "./request-context.ts";

/** What this records into (the service's metrics registry; http/ names no module above it). */
export type RequestMetrics = {
  requests: { inc(labels: { route: string; method: string; status: string }): void };
  latency: { observe(labels: { route: string }, seconds: number): void };
};

/**
 * `trustProxy` off: the first request that carries X-Forwarded-For is logged once, since behind a
 * proxy every client would then count as the proxy's one address (its rate limits, its body slots).
 */
export function requestLog(log: Log, metrics: RequestMetrics, trustProxy = false) {
  let toldOfProxy = trustProxy;
  return new Elysia({ name: "tally.request-log" })
    .onRequest(({ request, set }) => {
      set.headers["x-request-id"] = beginRequest(request).id;
      if (!toldOfProxy && request.headers.has("x-forwarded-for")) {
        toldOfProxy = true;
        log.warn(
          "a request carries X-Forwarded-For but TRUST_PROXY is off: behind a proxy, every client counts as the proxy's one address for rate limits and body slots; set TRUST_PROXY=true if this service is reachable only through your own proxy (logged once)",
        );
      }
      // No answer of this service is ever to be sniffed into another type (JSON read as HTML).
      set.headers["x-content-type-options"] = "nosniff";
    })
    .derive({ as: "global" }, ({ request }) => ({ log: log.child({ requestId: requestFacts(request)?.id }) }))
    .onAfterResponse({ as: "global" }, ({ request, route, set, responseValue }) => {
      const f = requestFacts(request);
      const status = responseValue instanceof Response ? responseValue.status : Number(set.status ?? 200);
      const pattern = route || "(unmatched)";
      metrics.requests.inc({ route: pattern, method: request.method, status: String(status) });
      if (f) metrics.latency.observe({ route: pattern }, (performance.now() - f.startedAt) / 1000);
      log.info("request", {
        requestId: f?.id,
        method: request.method,
        route: pattern,
        status,
        ms: f ? Math.round((performance.now() - f.startedAt) * 100) / 100 : undefined,
      });
    });
}
