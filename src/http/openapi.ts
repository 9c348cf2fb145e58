// The OpenAPI document (GET /v1/openapi.json), built from the routes themselves: each route's
// TypeBox schemas (the ones its validBody, params, query and response checks use) become its
// request body, parameters and answers, so the description cannot drift from what is enforced.
// A route names the refusals it can give with `refuses(...)` (route-detail.ts) in its `detail`; the refusals every
// route of a kind gives (a body route's invalid_body, a signed-in route's unauthorized, ...) are
// added here. Every refusal is described with the one error shape and, per status, its codes.
import { Kind, OptionalKind, type TSchema } from "@sinclair/typebox";
import { errorStatus, type ErrorCode } from "./errors.ts";
import { ANSWERS, DESCRIBED, EXAMPLES, REFUSES, type Refusals } from "./route-detail.ts";
import {
  optionalTokenOf,
  PERSONAL_TOKEN_SCHEME,
  RATE_LIMIT_HEADERS,
  signedIn,
  tokenScopesOf,
  tokenSecurity,
} from "./openapi-tokens.ts";

type Json = Record<string, unknown>;
type Route = { method: string; path: string; hooks?: Record<string, unknown> };
type Detail = { hide?: boolean; tags?: string[]; summary?: string; description?: string; [k: string]: unknown };

/** Whether the document describes a route: every /v1/ route and those marked DESCRIBED_OUTSIDE_V1, unless hidden. */
export function isDescribed(route: Route): boolean {
  const detail = (route.hooks?.detail ?? {}) as Detail;
  return !detail.hide && (route.path.startsWith("/v1/") || detail[DESCRIBED] === true);
}

/** The error shape, with the codes a response of one status may carry. */
export function errorSchema(codes: readonly string[], extra: Record<string, TSchema> = {}): Json {
  return {
    type: "object",
    additionalProperties: false,
    required: ["error"],
    properties: {
      ...plain(extra),
      error: {
        type: "object",
        additionalProperties: false,
        required: ["code", "message"],
        properties: {
          code: { type: "string", enum: [...codes] },
          message: { type: "string", description: "What went wrong, for a person." },
          path: {
            type: "string",
            description: "JSON path of the faulty field of the body or query, when one is at fault.",
          },
          requestId: { type: "string", description: "On 5xx only: quote it when reporting the fault." },
        },
      },
    },
  };
}

/** A TypeBox schema as plain JSON Schema (its symbol-keyed marks dropped). */
const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json;
const isSchema = (s: unknown): s is TSchema =>
  typeof s === "object" && s !== null && (Kind in s || "type" in s || "anyOf" in s || "$ref" in s);
const isOptional = (s: unknown) => (s as { [OptionalKind]?: string })[OptionalKind] === "Optional";

const operationId = (method: string, path: string) =>
  method.toLowerCase() +
  path
    .split(/[/{}:.-]+/)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join("");

function refusalsOf(hooks: Record<string, unknown>, detail: Detail, scopes?: readonly string[]): Refusals {
  const declared = (detail[REFUSES] as Refusals | undefined) ?? { codes: [], extra: {} };
  const codes = new Set<ErrorCode>(declared.codes);
  if (hooks.body)
    for (const c of [
      "invalid_body",
      "body_too_large",
      "body_too_deep",
      "unsupported_media_type",
      "body_too_slow",
      "too_many_bodies",
      "server_busy",
    ] as const)
      codes.add(c);
  if (hooks.query) codes.add("invalid_query");
  // A path segment of the wrong shape names nothing (on-error.ts): 404.
  if (JSON.stringify(hooks.params ?? {}).includes('"pattern"')) codes.add("not_found");
  if (signedIn(hooks)) codes.add("unauthorized");
  if (scopes && scopes.length > 0) for (const c of ["missing_scope", "rate_limited"] as const) codes.add(c);
  else if (scopes) codes.add("token_not_accepted");
  codes.add("internal");
  codes.add("database_unavailable");
  return { codes: [...codes], extra: declared.extra };
}

const REASON: Record<number, string> = {
  400: "Malformed request",
  401: "Not signed in, or the sign-in was refused",
  404: "Nothing there",
  408: "The body arrived too slowly",
  409: "Conflict with the current state",
  413: "Body too large, or too large to send uncompressed",
  415: "Unsupported media type or encoding",
  422: "A rule of the contract was broken",
  429: "Too many requests from this address or account",
  500: "Internal error",
  502: "An upstream answered something unusable",
  503: "Unavailable for now",
  504: "An upstream did not answer in time",
};

function errorResponses(refusals: Refusals): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of refusals.codes) {
    const status = errorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Json = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    codes.sort();
    const extra = Object.assign({}, ...codes.map((c) => refusals.extra[c] ?? {})) as Record<string, TSchema>;
    const retry = status === 429 || status === 503 || status === 504;
    out[status] = {
      description: `${REASON[status] ?? "Refused"}: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
      ...(retry
        ? {
            headers: {
              "Retry-After": {
                description: "Seconds to wait before trying again, when known.",
                schema: { type: "integer", minimum: 0 },
              },
            },
          }
        : {}),
      content: { "application/json": { schema: errorSchema(codes, extra) } },
    };
  }
  return out;
}

function documentedAnswers(hooks: Record<string, unknown>, detail: Detail, example: Record<number, unknown>): Json {
  const out = plain(detail[ANSWERS] ?? {});
  const response = hooks.response;
  const map: Record<string, unknown> = isSchema(response)
    ? { 200: response }
    : ((response as Record<string, unknown>) ?? {});
  for (const [status, schema] of Object.entries(map)) {
    if (!isSchema(schema)) continue;
    const ex = example[Number(status)];
    out[status] = {
      description: status.startsWith("2") ? "The answer." : `Status ${status}.`,
      content: { "application/json": { schema: plain(schema), ...(ex === undefined ? {} : { example: ex }) } },
    };
  }
  return out;
}

function parameters(hooks: Record<string, unknown>): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [
    ["path", hooks.params],
    ["query", hooks.query],
  ] as const) {
    if (!isSchema(schema)) continue;
    const s = plain(schema) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, p] of Object.entries(s.properties ?? {})) {
      const { description, ...rest } = p as Json & { description?: string };
      out.push({
        name,
        in: where,
        required: where === "path" || (s.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  return out;
}

const TAGS: Record<string, string> = {
  health: "Whether the service is up, and the schema versions it accepts.",
  catalogue: "The catalogue of counter keys, namespaces and categories.",
  auth: "The account check with the identity provider, and device sessions.",
  account: "The signed-in player's settings, status, page link and share link.",
  stats: "Uploads, the folded statistics, export and erasure.",
  tokens: "Personal access tokens: read-only credentials a player makes for their own tools.",
  profiles: "Profile look-ups through the project's game API key, and players by name.",
  assets: "The image proxy: heads, skins and items, by id only.",
  reports: "Bug reports from the mod.",
  pages:
    "A findable statistics page's figures as JSON for widgets: no token needed (the owner's page:read token also reads a page that is not findable), readable from any site (CORS), cacheable.",
  previews: "Link preview cards (PNG) and badges (SVG) of the statistics and profile pages.",
};

export type OpenApiInfo = { title: string; version: string; description: string };

/** The OpenAPI 3.1 document of every /v1/ route that is not hidden, and the routes marked DESCRIBED_OUTSIDE_V1. */
export function openapiDocument(routes: readonly Route[], info: OpenApiInfo): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const hooks = route.hooks ?? {};
    const detail = (hooks.detail ?? {}) as Detail;
    if (!isDescribed(route)) continue;
    const method = route.method.toLowerCase();
    const path = route.path.replace(/:([^/]+)/g, "{$1}");
    const { scopes: optional, rest: marked } = optionalTokenOf(detail);
    const { [REFUSES]: _r, [EXAMPLES]: ex, [ANSWERS]: _a, [DESCRIBED]: _d, hide: _h, ...rest } = marked;
    const example = (ex ?? {}) as { body?: unknown; answers?: Record<number, unknown> };
    const operation: Json = { operationId: operationId(method, path), ...rest };
    const params = parameters(hooks);
    if (params.length) operation.parameters = params;
    if (isSchema(hooks.body)) {
      operation.requestBody = {
        required: !isOptional(hooks.body),
        description: "JSON; may be sent with Content-Encoding: gzip.",
        content: {
          "application/json": {
            schema: plain(hooks.body),
            ...(example.body === undefined ? {} : { example: example.body }),
          },
        },
      };
    }
    const scopes = tokenScopesOf(hooks, route.method, route.path);
    const refusals = refusalsOf(hooks, detail, scopes);
    const documented = documentedAnswers(hooks, detail, example.answers ?? {});
    if (scopes?.length || optional?.length)
      for (const [status, answer] of Object.entries(documented))
        if (status.startsWith("2"))
          (answer as Json).headers = { ...RATE_LIMIT_HEADERS, ...((answer as Json).headers as Json) };
    const errors = errorResponses(refusals);
    // A status the route answers with its own schema (health's 503) keeps that schema.
    for (const status of Object.keys(documented)) delete errors[status];
    operation.responses = { ...documented, ...errors };
    Object.assign(operation, tokenSecurity(scopes, operation.description as string | undefined, optional));
    (paths[path] ??= {})[method] = operation;
  }
  const tags = [
    ...new Set(
      Object.values(paths).flatMap((item) =>
        Object.values(item).flatMap((op) => (op as { tags?: string[] }).tags ?? []),
      ),
    ),
  ].sort();
  return {
    openapi: "3.1.0",
    info,
    servers: [{ url: "/", description: "This service" }],
    tags: tags.map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "The token from POST /v1/auth/verify: Authorization: Bearer <token>.",
        },
        personalToken: PERSONAL_TOKEN_SCHEME,
      },
    },
  };
}
