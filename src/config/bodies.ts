// Settings: Request bodies: sizes, depth, the decode budgets, slow senders (src/http/body.ts).
// A new setting of this capability goes here, with its doc (and a line in the README's settings table).
import { Type as T } from "@sinclair/typebox";
import { setting, Millis, Bytes } from "./setting.ts";

export const bodiesSettings = {
  maxBodyBytes: setting({
    env: "MAX_BODY_BYTES",
    schema: Bytes(8192, 64 * 1024 * 1024),
    default: String(1024 * 1024),
    doc: "Largest request body accepted as sent over the wire (gzip or plain), in bytes.",
  }),
  maxDecodedBodyBytes: setting({
    env: "MAX_DECODED_BODY_BYTES",
    schema: Bytes(8192, 256 * 1024 * 1024),
    default: String(8 * 1024 * 1024),
    doc: "Largest upload (POST /v1/stats/ingest) after gunzip, in bytes (guards against gzip bombs).",
  }),
  smallBodyMaxBytes: setting({
    env: "SMALL_BODY_MAX_BYTES",
    schema: Bytes(1024, 1024 * 1024),
    default: "4096",
    doc: "Largest body after gunzip of the sign-in and account routes (challenge, verify, settings, page token, share), in bytes.",
  }),
  maxJsonDepth: setting({
    env: "MAX_JSON_DEPTH",
    schema: T.Integer({ minimum: 8, maximum: 1000 }),
    default: "32",
    doc: "Deepest nesting of arrays and objects in a request body; deeper is refused body_too_deep before it is parsed.",
  }),
  bodyDecodeBudgetBytes: setting({
    env: "BODY_DECODE_BUDGET_BYTES",
    schema: Bytes(64 * 1024, 4 * 1024 * 1024 * 1024),
    default: String(32 * 1024 * 1024),
    doc: "Bytes the upload and report bodies being read at once may take together: each reserves its declared length, then what it inflates to; the rest wait.",
  }),
  smallBodyDecodeBudgetBytes: setting({
    env: "SMALL_BODY_DECODE_BUDGET_BYTES",
    schema: Bytes(16 * 1024, 1024 * 1024 * 1024),
    default: String(4 * 1024 * 1024),
    doc: "Bytes the small routes' bodies (sign-in, settings, account routes, admin forms) being read at once may take together, apart from BODY_DECODE_BUDGET_BYTES so uploads and reports never starve them.",
  }),
  bodyDecodeQueue: setting({
    env: "BODY_DECODE_QUEUE",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "256",
    doc: "Request bodies that may wait for room in each of the two budgets; beyond, 503 server_busy with Retry-After.",
  }),
  bodyReadTimeoutMs: setting({
    env: "BODY_READ_TIMEOUT_MS",
    schema: Millis(50, 600_000),
    default: "10000",
    doc: "A request body must arrive whole within this many ms of its read starting; else 408 body_too_slow and the connection is closed.",
  }),
  bodyMinBytesPerSecond: setting({
    env: "BODY_MIN_BYTES_PER_SECOND",
    schema: T.Integer({ minimum: 0, maximum: 1024 * 1024 * 1024 }),
    default: "8192",
    doc: "After a fifth of BODY_READ_TIMEOUT_MS, a request body must have arrived at this many bytes a second on average; else 408 body_too_slow. 0: no rate, the timeout only.",
  }),
  bodyReadsPerAddress: setting({
    env: "BODY_READS_PER_ADDRESS",
    schema: T.Integer({ minimum: 0, maximum: 100_000 }),
    default: "8",
    doc: "Request bodies one client address (IPv6: one /64) may have in flight at once in each budget; beyond, 429 too_many_bodies with Retry-After. 0: no limit. (A signed-in account may have one.)",
  }),
} as const;
