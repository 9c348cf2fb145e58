// Reads JSON request bodies: plain or `Content-Encoding: gzip`, with a cap on the bytes on the wire
// and on the decoded size (a gzip bomb stops at the cap, it is never inflated whole), and a nesting
// depth checked by a linear scan before JSON.parse.
//
// Nothing is read up front. The global parse hook only marks a body as pending; a route that takes
// one reads it in its own `transform` (readBody or validBody), which runs after the address rate
// limit, the token guard and the route's own limit. A route that takes no body reads none. Each
// read reserves its route's decoded cap from a shared budget (body-gate.ts), so the memory spent
// decoding bodies at once is bounded whatever the number of connections.
import { Elysia } from "elysia";
import { ApiError } from "./errors.ts";
import { requestFacts, setBodyInfo } from "./request-context.ts";
import { readStreamCapped } from "./read-stream.ts";
import { bodyGate, type BodyGate } from "./body-gate.ts";

export type BodyLimits = {
  /** Largest body as sent over the wire, gzip or plain (every route). */
  maxBodyBytes: number;
  /** Largest decoded body of a route that names no cap of its own (sign-in, settings). */
  smallBodyMaxBytes: number;
  /** Deepest nesting of arrays and objects accepted. */
  maxJsonDepth: number;
  /** Decoded bytes all bodies being read at once may reserve together. */
  bodyDecodeBudgetBytes: number;
  /** Bodies that may wait for room in that budget; more answer 503 server_busy. */
  bodyDecodeQueue: number;
};

/** Slack for gzip's header and a body that does not compress: wire cap = decoded cap + this. */
const GZIP_SLACK_BYTES = 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A scanner of JSON text fed chunk by chunk: answers true once arrays and objects nest deeper than
 * `max` (brackets outside strings; one pass, constant state). Malformed text is left to JSON.parse.
 */
export function depthScanner(max: number): (chunk: Uint8Array) => boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  return (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === 0x5c) escaped = true;
        else if (b === 0x22) inString = false;
      } else if (b === 0x22) inString = true;
      else if (b === 0x5b || b === 0x7b) {
        if (++depth > max) return true;
      } else if (b === 0x5d || b === 0x7d) depth--;
    }
    return false;
  };
}

/** True when `bytes` (JSON text) nests arrays and objects deeper than `max`. */
export const nestsDeeperThan = (bytes: Uint8Array, max: number) => depthScanner(max)(bytes);

/** Decodes and parses one JSON body under a decoded cap, recording how it arrived. */
export async function readJsonBody(
  request: Request,
  limits: { maxBodyBytes: number; maxDecodedBodyBytes: number; maxJsonDepth: number },
): Promise<unknown> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json")
    throw new ApiError("unsupported_media_type", "send the body as Content-Type: application/json");
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "identity") {
    throw new ApiError("unsupported_media_type", `Content-Encoding ${encoding} is not accepted; send gzip or nothing`);
  }
  const wireCap = Math.min(
    limits.maxBodyBytes,
    limits.maxDecodedBodyBytes + (encoding === "gzip" ? GZIP_SLACK_BYTES : 0),
  );
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > wireCap) throw new ApiError("body_too_large", `the body is larger than ${wireCap} bytes`);
  if (!request.body) throw new ApiError("invalid_body", "the body is empty; send a JSON object");
  // The depth is checked as the decoded bytes arrive: a bomb of brackets stops at its 33rd, never
  // inflated further.
  const tooDeep = depthScanner(limits.maxJsonDepth);
  const checkDepth = (chunk: Uint8Array) => {
    if (tooDeep(chunk))
      throw new ApiError(
        "body_too_deep",
        `the body nests arrays and objects deeper than ${limits.maxJsonDepth} levels`,
      );
  };
  const wire = await readStreamCapped(
    request.body,
    wireCap,
    () => new ApiError("body_too_large", `the body is larger than ${wireCap} bytes`),
    encoding === "gzip" ? undefined : checkDepth,
  );
  let bytes = wire;
  if (encoding === "gzip") {
    const inflated = new Blob([wire]).stream().pipeThrough(new DecompressionStream("gzip"));
    try {
      bytes = await readStreamCapped(
        inflated,
        limits.maxDecodedBodyBytes,
        () => new ApiError("body_too_large", `the decoded body is larger than ${limits.maxDecodedBodyBytes} bytes`),
        checkDepth,
      );
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw new ApiError("invalid_body", "the body is not valid gzip");
    }
  } else if (bytes.byteLength > limits.maxDecodedBodyBytes) {
    throw new ApiError("body_too_large", `the body is larger than ${limits.maxDecodedBodyBytes} bytes`);
  }
  setBodyInfo(request, { gzip: encoding === "gzip", wireBytes: wire.byteLength, decodedBytes: bytes.byteLength });
  if (bytes.byteLength === 0) throw new ApiError("invalid_body", "the body is empty; send a JSON object");
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ApiError("invalid_body", "the body is not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError("invalid_body", `the body is not valid JSON (${(e as Error).message})`);
  }
}

/** Largest HTML form body (the maintainers' page: a token, a version, a CSRF field). */
export const FORM_MAX_BYTES = 4096;

/** Reads a small `application/x-www-form-urlencoded` body into an object of its first values. */
async function readFormBody(request: Request): Promise<Record<string, string>> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded")
    throw new ApiError("unsupported_media_type", "send the form as application/x-www-form-urlencoded");
  if (Number(request.headers.get("content-length") ?? NaN) > FORM_MAX_BYTES)
    throw new ApiError("body_too_large", `a form is at most ${FORM_MAX_BYTES} bytes`);
  if (!request.body) return {};
  const bytes = await readStreamCapped(
    request.body,
    FORM_MAX_BYTES,
    () => new ApiError("body_too_large", `a form is at most ${FORM_MAX_BYTES} bytes`),
  );
  setBodyInfo(request, { gzip: false, wireBytes: bytes.byteLength, decodedBytes: bytes.byteLength });
  const fields: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(new TextDecoder().decode(bytes))) if (!(k in fields)) fields[k] = v;
  return fields;
}

/** What the parse hook leaves in `body` until a route reads it. */
export class PendingBody {
  constructor(
    private readonly request: Request,
    private readonly limits: BodyLimits,
    private readonly gate: BodyGate,
  ) {}

  /** Reads the body under `cap` decoded bytes (default: the small-body cap), within the gate. */
  async read(cap = this.limits.smallBodyMaxBytes): Promise<unknown> {
    const release = await this.gate.acquire(cap);
    try {
      return await readJsonBody(this.request, {
        maxBodyBytes: this.limits.maxBodyBytes,
        maxDecodedBodyBytes: cap,
        maxJsonDepth: this.limits.maxJsonDepth,
      });
    } finally {
      release();
    }
  }

  /** Reads a small urlencoded form (the operator pages' forms only), within the gate. */
  async readForm(): Promise<Record<string, string>> {
    const release = await this.gate.acquire(FORM_MAX_BYTES);
    try {
      return await readFormBody(this.request);
    } finally {
      release();
    }
  }
}

/**
 * The global parse hook: a request carrying a body gets a PendingBody and nothing is read. Elysia's
 * own parsers never run (they would read any body on any route, before anything else).
 */
export function bodyReader(limits: BodyLimits) {
  const gate = bodyGate(limits.bodyDecodeBudgetBytes, limits.bodyDecodeQueue);
  return new Elysia({ name: "tally.body" }).onParse({ as: "global" }, ({ request }) => {
    const h = request.headers;
    const hasBody =
      h.get("content-length") !== "0" &&
      (h.has("content-length") || h.has("transfer-encoding") || h.has("content-type"));
    return hasBody ? new PendingBody(request, limits, gate) : undefined;
  });
}

/**
 * A route hook (the first of its `transform`s) reading the pending body under `cap` decoded bytes.
 * Hooks of the plugin (rate limits, the token guard) have run by then.
 */
export function readBody(cap?: number) {
  return async (ctx: { body: unknown }) => {
    if (ctx.body instanceof PendingBody) ctx.body = await ctx.body.read(cap);
  };
}

/** A route hook reading the pending body as a small urlencoded form (the operator pages). */
export function readForm() {
  return async (ctx: { body: unknown }) => {
    if (ctx.body instanceof PendingBody) ctx.body = await ctx.body.readForm();
  };
}

/**
 * A route hook (run as `transform`, after readBody) refusing a plain body over `bytes`:
 * such a body must come gzip-compressed (contract 4.1 and 8: over 8 KiB).
 */
export function requireGzipOver(bytes: number) {
  return ({ request }: { request: Request }) => {
    const info = requestFacts(request)?.body;
    if (info && !info.gzip && info.wireBytes > bytes) {
      throw new ApiError("gzip_required", `a body over ${bytes} bytes must be sent with Content-Encoding: gzip`);
    }
  };
}
