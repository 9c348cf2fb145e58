// The one onError: every refusal becomes the stable error body (or an HTML page for web routes);
// anything unexpected is logged whole and answered with a generic 500 and the request id.
import { Elysia, ValidationError } from "elysia";
import type { Log } from "../log.ts";
import { ApiError, errorBody } from "./errors.ts";
import { requestId } from "./request-context.ts";
import { validationMessage } from "./valid-body.ts";
import { isDatabaseDown, isStorageFull } from "../db/errors.ts";
import { repeatLimiter } from "./log-repeats.ts";
import { abandonedBody } from "./client-abort.ts";

type Refusal = {
  status: number;
  code: string;
  message: string;
  path?: string;
  headers?: Record<string, string>;
  extra?: Record<string, unknown>;
};

function describeValidation(error: ValidationError): Refusal {
  // A path segment of the wrong shape names nothing that exists.
  if (error.type === "params") return { status: 404, code: "not_found", message: "no such resource" };
  const first = error.all[0] as
    | { path?: string; message?: string; schema?: { additionalProperties?: unknown } }
    | undefined;
  const path = first?.path || "/";
  const field = error.type === "query" ? "query parameter" : "field";
  const message = validationMessage(field, path, first?.message);
  return { status: 400, code: error.type === "query" ? "invalid_query" : "invalid_body", message, path };
}

/** Maps what a handler threw to what the client is told; null means "an internal error". */
export function refusalOf(code: string | number, error: unknown): Refusal | null {
  // A refusal raised while reading the body reaches here wrapped in Elysia's ParseError.
  if (code === "PARSE" && (error as Error).cause instanceof ApiError) error = (error as Error).cause;
  if (error instanceof ApiError)
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      path: error.path,
      headers: error.headers,
      extra: error.extra,
    };
  if (error instanceof ValidationError) return describeValidation(error);
  switch (code) {
    case "NOT_FOUND":
      return { status: 404, code: "not_found", message: "no such route" };
    case "PARSE":
      return { status: 400, code: "invalid_body", message: "the body could not be parsed" };
    case "INVALID_COOKIE_SIGNATURE":
      return { status: 400, code: "invalid_body", message: "a cookie is not valid" };
  }
  return null;
}

const isWebPath = (path: string) => !path.startsWith("/v1/") && path !== "/metrics";

/** The website's answer to a refused web route (handed in by createApp: http/ knows no page). */
export type ErrorPage = (refusal: {
  status: number;
  message: string;
  requestId?: string;
  headers: Record<string, string>;
}) => Response;

/** `now`: the service's clock, for how often a repeated database error is logged (log-repeats.ts). */
export function onErrorPlugin(log: Log, errorPage: ErrorPage, now: () => number) {
  const repeats = repeatLimiter(now);
  return new Elysia({ name: "tally.on-error" }).onError(
    { as: "global" },
    ({ code, error, request, path, route, set }) => {
      const id = requestId(request);
      let refusal = refusalOf(code, abandonedBody(request, error) ?? error);
      if (!refusal) {
        const unavailable = isDatabaseDown(error);
        const full = !unavailable && isStorageFull(error);
        // The route pattern (`/u/:name`), never the path: a path can hold a player name or a share key.
        const where = { requestId: id, route: route || "(unmatched)", error };
        const message = full ? STORAGE_FULL_LOG : unavailable ? "database unavailable" : "unhandled error";
        // Every unhandled error is its own line; the database's two states, once a minute.
        const repeat = full || unavailable ? repeats.admit(message) : {};
        if (repeat) log.error(message, { ...where, ...repeat });
        refusal = unavailable
          ? {
              status: 503,
              code: "database_unavailable",
              message: "the database is not reachable; try again shortly",
              headers: { "retry-after": "5" },
            }
          : full
            ? {
                status: 503,
                code: "storage_full",
                message: "the service's storage is full; nothing was stored, try again later",
                headers: { "retry-after": "60" },
              }
            : { status: 500, code: "internal", message: "internal error; quote the request id when reporting it" };
      }
      set.status = refusal.status;
      const headers: Record<string, string> = {
        ...carriedHeaders(set.headers),
        ...refusal.headers,
        ...(id ? { "x-request-id": id } : {}),
        "x-content-type-options": "nosniff",
      };
      if (isWebPath(path))
        return errorPage({ status: refusal.status, message: refusal.message, requestId: id, headers });
      const body = {
        ...refusal.extra,
        ...errorBody(refusal.code, refusal.message, refusal.path, refusal.status >= 500 ? id : undefined),
      };
      return new Response(JSON.stringify(body), {
        status: refusal.status,
        headers: { ...headers, "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
      });
    },
  );
}

/**
 * Headers a guard set for every answer of its request, refusals included: a personal access
 * token's RateLimit-* (tokens/read-guard.ts) stay on a 403 or 404 given after the token was counted.
 */
function carriedHeaders(set: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(set ?? {}))
    if (name.startsWith("ratelimit-") && typeof value === "string") out[name] = value;
  return out;
}

/** What the operator reads when the database cannot write (docs/decisions.md: storage_full). */
export const STORAGE_FULL_LOG =
  "storage full: the database could not write (disk_full / ENOSPC), or the disk holding the embedded database has less free " +
  "space than EMBEDDED_MIN_FREE_MB. Free space on the disk holding DATA_DIR (embedded) or Postgres's data directory; until " +
  "then requests that need the database are refused 503 storage_full with Retry-After, and they are accepted again " +
  "on their own once there is space (nothing acknowledged is lost)";
