// The service's metrics, in Prometheus text format at GET /metrics (when enabled). One registry per
// app, built in the composition root and handed to what records into it; per instance by nature
// (Prometheus scrapes each instance).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "tally_" });
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: "tally_http_requests_total",
      help: "Requests answered, by route pattern, method and status.",
      labelNames: ["route", "method", "status"],
      registers,
    }),
    latency: new Histogram({
      name: "tally_http_request_duration_seconds",
      help: "Time to answer a request, by route pattern.",
      labelNames: ["route"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    ingestRows: new Counter({
      name: "tally_ingest_rows_total",
      help: "Counter rows of uploads, by outcome (applied, refused as sealed, dropped as consent is off).",
      labelNames: ["outcome"],
      registers,
    }),
    ingestUploads: new Counter({
      name: "tally_ingest_uploads_total",
      help: "Uploads answered 200, by whether they were a duplicate batch.",
      labelNames: ["duplicate"],
      registers,
    }),
    jobRuns: new Counter({
      name: "tally_job_runs_total",
      help: "Scheduler job runs, by job and outcome.",
      labelNames: ["job", "status"],
      registers,
    }),
    jobDuration: new Histogram({
      name: "tally_job_duration_seconds",
      help: "Duration of job runs that ran, by job.",
      labelNames: ["job"],
      buckets: [0.01, 0.1, 1, 10, 60, 600],
      registers,
    }),
    cacheLookups: new Counter({
      name: "tally_cache_lookups_total",
      help: "Look-ups in the shared caches (profiles, names, images), by cache and outcome: hit (fresh), miss (fetched upstream), stale (the last good copy, the upstream failing).",
      labelNames: ["cache", "outcome"],
      registers,
    }),
    chatWebhookGone: new Gauge({
      name: "tally_chat_webhook_gone",
      help: "1 while the chat webhook is deleted (404 Unknown Webhook): bug threads are not posted, reports wait in the outbox.",
      registers,
    }),
    upstreamCalls: new Counter({
      name: "tally_upstream_calls_total",
      help: "Calls to upstreams, by upstream and outcome (2xx, 3xx, 4xx, 5xx, error).",
      labelNames: ["upstream", "outcome"],
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

export type CacheOutcome = "hit" | "miss" | "stale";

/** Counts one look-up in a shared cache; modules built without metrics (tests of one module) skip it. */
export function countCache(
  metrics: Metrics | undefined,
  cache: "profiles" | "names" | "images",
  outcome: CacheOutcome,
) {
  metrics?.cacheLookups.inc({ cache, outcome });
}

/**
 * The injected fetch, counting every upstream call by the setting its address belongs to, so no
 * upstream client needs to know about metrics.
 */
export function countedFetch(inner: typeof fetch, metrics: Metrics, upstreams: Record<string, string>): typeof fetch {
  const bases = Object.entries(upstreams).filter(([, url]) => url !== "");
  const nameOf = (url: string) => bases.find(([, base]) => url.startsWith(base))?.[0] ?? "other";
  return Object.assign(
    async (input: RequestInfo | URL, init?: RequestInit) => {
      const upstream = nameOf(input instanceof Request ? input.url : String(input));
      try {
        const res = await inner(input, init);
        metrics.upstreamCalls.inc({ upstream, outcome: `${Math.floor(res.status / 100)}xx` });
        return res;
      } catch (e) {
        metrics.upstreamCalls.inc({ upstream, outcome: "error" });
        throw e;
      }
    },
    { preconnect: inner.preconnect },
  );
}
