// Reads JSON request bodies: plain or `Content-Encoding: gzip`, with a cap on the bytes on the wire
// and on the decoded size (a gzip bomb stops at the cap, it is never inflated whole).
import { Elysia } from "elysia";
import { ApiError } from "./errors.ts";
import { requestFacts, setBodyInfo } from "./request-context.ts";
import { readStreamCapped } from "./read-stream.ts";

export type BodyLimits = { maxBodyBytes: number; maxDecodedBodyBytes: number };

const readCapped = (stream: ReadableStream<Uint8Array>, cap: number, what: string) =>
  readStreamCapped(stream, cap, () => new ApiError("body_too_large", `${what} is larger than ${cap} bytes`));

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes and parses one JSON body under the limits, recording how it arrived. */
export async function readJsonBody(request: Request, limits: BodyLimits): Promise<unknown> {
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "identity") {
    throw new ApiError("unsupported_media_type", `Content-Encoding ${encoding} is not accepted; send gzip or nothing`);
  }
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limits.maxBodyBytes) throw new ApiError("body_too_large", `the body is larger than ${limits.maxBodyBytes} bytes`);
  if (!request.body) throw new ApiError("invalid_body", "the body is empty; send a JSON object");
  const wire = await readCapped(request.body, limits.maxBodyBytes, "the body");
  let bytes = wire;
  if (encoding === "gzip") {
    const inflated = new Blob([wire]).stream().pipeThrough(new DecompressionStream("gzip"));
    try {
      bytes = await readCapped(inflated, limits.maxDecodedBodyBytes, "the decoded body");
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw new ApiError("invalid_body", "the body is not valid gzip");
    }
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

/** Every request that carries a body is read as JSON by readJsonBody. */
export function bodyReader(limits: BodyLimits) {
  return new Elysia({ name: "tally.body" }).onParse({ as: "global" }, ({ request }) => {
    const hasBody = request.headers.get("content-length") !== "0" && (request.headers.has("content-length") || request.headers.has("transfer-encoding") || request.headers.has("content-type"));
    if (!hasBody) return;
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") {
      throw new ApiError("unsupported_media_type", "send the body as Content-Type: application/json");
    }
    return readJsonBody(request, limits);
  });
}

/**
 * A route hook (run as `transform`, before validation) refusing a plain body over `bytes`:
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
