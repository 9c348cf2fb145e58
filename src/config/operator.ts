// Settings: Operators: the admin token, metrics, wrong-token limit.
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting, Bool, OperatorToken, OPERATOR_TOKEN_HINT } from "./setting.ts";

export const operatorSettings = {
  adminToken: setting({
    env: "ADMIN_TOKEN",
    schema: OperatorToken,
    default: "",
    doc: "When set (at least 32 characters), operator routes exist for this bearer token: GET /v1/admin/backup, which `tally backup` uses while the service runs, the bug-report routes under /v1/admin/reports, and the maintainers' page /admin/reports and /admin/boards (signed in with this token).",
    secret: true,
    hint: OPERATOR_TOKEN_HINT,
  }),
  metricsEnabled: setting({
    env: "METRICS_ENABLED",
    schema: Bool,
    default: "false",
    doc: "true serves GET /metrics (Prometheus text format): requests, latencies, ingest rows, jobs, upstream calls.",
  }),
  metricsToken: setting({
    env: "METRICS_TOKEN",
    schema: OperatorToken,
    default: "",
    doc: "When set (at least 32 characters), GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`.",
    secret: true,
    hint: OPERATOR_TOKEN_HINT,
  }),
  operatorFailures: setting({
    env: "OPERATOR_FAILURES_PER_MINUTE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "10",
    doc: "Wrong operator tokens (ADMIN_TOKEN or METRICS_TOKEN, as a bearer token on /v1/admin/* and /metrics or in the /admin/login form) one client address may send per minute; beyond, every attempt from it is answered 429 rate_limited until the minute ends. 0: no limit.",
  }),
} as const;
