// One JSON or form body decoded under its caps (body.ts decides when, and from which pool): the
// framing its headers declare (gzip or plain, the wire and decoded caps, what to reserve), the
// gunzip that stops at the decoded cap, the depth scan before JSON.parse, the small form reader.
import { ApiError } from "./errors.ts";
import { setBodyInfo } from "./request-context.ts";
import { type Pace, readStreamCapped } from "./read-stream.ts";
import type { Reservation } from "./body-gate.ts";

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

/** How a body says it arrives, checked from its headers before anything is reserved or read. */
type Framing = { gzip: boolean; wireCap: number; decodedCap: number; reserve: number };

/** The wire bytes to reserve: the declared length (never over the wire cap), else the wire cap. */
export function reserveFor(request: Request, wireCap: number, tooLarge: () => ApiError): number {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > wireCap) throw tooLarge();
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : wireCap;
}

export function jsonFraming(request: Request, maxBodyBytes: number, decodedCap: number): Framing {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json")
    throw new ApiError("unsupported_media_type", "send the body as Content-Type: application/json");
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "identity") {
    throw new ApiError("unsupported_media_type", `Content-Encoding ${encoding} is not accepted; send gzip or nothing`);
  }
  const gzip = encoding === "gzip";
  const wireCap = Math.min(maxBodyBytes, decodedCap + (gzip ? GZIP_SLACK_BYTES : 0));
  const tooLarge = () => new ApiError("body_too_large", `the body is larger than ${wireCap} bytes`);
  if (!request.body) throw new ApiError("invalid_body", "the body is empty; send a JSON object");
  return { gzip, wireCap, decodedCap, reserve: reserveFor(request, wireCap, tooLarge) };
}

/** Decodes and parses one JSON body under its framing's caps, growing `held` as it inflates. */
export async function readJsonBody(
  request: Request,
  f: Framing,
  maxJsonDepth: number,
  pace: Pace,
  held: Reservation,
): Promise<unknown> {
  // The depth is checked as the decoded bytes arrive: a bomb of brackets stops at its 33rd, never
  // inflated further.
  const tooDeep = depthScanner(maxJsonDepth);
  const checkDepth = (chunk: Uint8Array) => {
    if (tooDeep(chunk))
      throw new ApiError("body_too_deep", `the body nests arrays and objects deeper than ${maxJsonDepth} levels`);
  };
  const wire = await readStreamCapped(
    request.body!,
    f.wireCap,
    () => new ApiError("body_too_large", `the body is larger than ${f.wireCap} bytes`),
    f.gzip ? undefined : checkDepth,
    pace,
  );
  let bytes = wire;
  if (f.gzip) {
    const inflated = new Blob([wire]).stream().pipeThrough(new DecompressionStream("gzip"));
    // Inflating is quick (the wire is all here); what it holds joins the reservation as it comes.
    const grow = (chunk: Uint8Array) => {
      held.grow(chunk.byteLength);
      checkDepth(chunk);
    };
    try {
      bytes = await readStreamCapped(
        inflated,
        f.decodedCap,
        () => new ApiError("body_too_large", `the decoded body is larger than ${f.decodedCap} bytes`),
        grow,
      );
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw new ApiError("invalid_body", "the body is not valid gzip");
    }
  } else if (bytes.byteLength > f.decodedCap) {
    throw new ApiError("body_too_large", `the body is larger than ${f.decodedCap} bytes`);
  }
  setBodyInfo(request, { gzip: f.gzip, wireBytes: wire.byteLength, decodedBytes: bytes.byteLength });
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

export const formTooLarge = () => new ApiError("body_too_large", `a form is at most ${FORM_MAX_BYTES} bytes`);

/** Reads a small `application/x-www-form-urlencoded` body into an object of its first values. */
export async function readFormBody(request: Request, pace: Pace): Promise<Record<string, string>> {
  const bytes = await readStreamCapped(request.body!, FORM_MAX_BYTES, formTooLarge, undefined, pace);
  setBodyInfo(request, { gzip: false, wireBytes: bytes.byteLength, decodedBytes: bytes.byteLength });
  const fields: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(new TextDecoder().decode(bytes))) if (!(k in fields)) fields[k] = v;
  return fields;
}
