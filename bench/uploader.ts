// The reference uploader: how a client (the mod's recorder) sends recorded data to
// POST /v1/stats/ingest, written as the example for the mod's authors and used as the load
// generator of the benchmarks and fault tests.
// - Its types are the client generated from the served OpenAPI document (bench/api.gen.ts, by
//   openapi-typescript: `bun run api:client`), so a change of the document that breaks a client
//   breaks this file's type check. Envelopes are also checked against the wire schema
//   (src/wire/envelope.ts) before they leave, so a client bug is caught on the client, not refused
//   by the service.
// - Each envelope gets its batchId once, when it is prepared, and keeps it across every re-send:
//   the service applies a batchId once (contract 4.1), so a retry after a timeout never counts
//   twice. Prepare, persist the prepared body, then send until an answer is final.
// - A body over 8 KiB is gzip-compressed (contract 4.1 gzip_required).
// - Final answers: 200 (applied, or `duplicate` with the first answer) and every 4xx but 408 and 429
//   (the refusal's `code` says what to fix; re-sending the same bytes would be refused again).
//   Retried: network failures, timeouts, 408 (the body arrived too slowly), 429 and 503, after
//   Retry-After when the service sends it.
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Envelope as EnvelopeSchema } from "../src/wire/envelope.ts";
import type { paths } from "./api.gen.ts";

const checkEnvelope = TypeCompiler.Compile(EnvelopeSchema);
const GZIP_OVER_BYTES = 8 * 1024;

type Ingest = paths["/v1/stats/ingest"]["post"];
type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
/** The upload, as POST /v1/stats/ingest's request body is described. */
export type Envelope = Json<Ingest["requestBody"]>;
/** The answer to an upload (200). */
export type Answer = Json<Ingest["responses"][200]>;
/** A refusal the service describes (every status but 200 carries one), or the uploader's own. */
export type Refusal =
  | Json<Ingest["responses"][Exclude<keyof Ingest["responses"], 200>]>["error"]
  | { code: "not_sent" | "unknown" | "network"; message: string };

/** An envelope ready to send: its batchId and the exact bytes every attempt sends. */
export type PreparedUpload = { batchId: string; body: Uint8Array<ArrayBuffer>; headers: Record<string, string> };

export type UploadResult =
  /** sealedDays: the days refused day_sealed; the outbox drops them and never sends them again (contract 3, 7). */
  | { ok: true; status: 200; answer: Answer; sealedDays: string[]; attempts: number; ms: number }
  | { ok: false; status: number; refusal: Refusal; attempts: number; ms: number };

/** A fresh batchId: 32 lower-case hex characters from a random source. */
export function newBatchId(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");
}

/** Checks the envelope against the wire schema and encodes it once, gzip when over 8 KiB. */
export function prepareUpload(envelope: Envelope): PreparedUpload {
  if (!checkEnvelope.Check(envelope)) {
    const first = checkEnvelope.Errors(envelope).First();
    throw new Error(`the envelope does not match the wire schema at ${first?.path || "/"}: ${first?.message}`);
  }
  const json = new TextEncoder().encode(JSON.stringify(envelope));
  const gzip = json.byteLength > GZIP_OVER_BYTES;
  return {
    batchId: envelope.batchId,
    body: gzip ? Bun.gzipSync(json) : json,
    headers: { "content-type": "application/json", ...(gzip ? { "content-encoding": "gzip" } : {}) },
  };
}

export type UploaderOptions = {
  /** The service's base URL, e.g. https://stats.example.org (the address override of contract 1.5). */
  baseUrl: string;
  /** The account token from sign-in (POST /v1/auth/verify). */
  token: string;
  /** How long one attempt may take before it is abandoned and sent again (same batchId). */
  timeoutMs?: number;
  /** Attempts before giving up on an upload that keeps failing for a reason worth retrying. */
  maxAttempts?: number;
  /** Waits between retries when the service names no Retry-After: doubled each time, from this. */
  backoffMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
};

export class Uploader {
  private readonly o: Required<UploaderOptions>;

  constructor(options: UploaderOptions) {
    this.o = { timeoutMs: 10_000, maxAttempts: 6, backoffMs: 250, fetch, sleep: Bun.sleep, ...options };
  }

  /** Prepares and sends one envelope until its answer is final. */
  send(envelope: Envelope): Promise<UploadResult> {
    return this.sendPrepared(prepareUpload(envelope));
  }

  /** Sends the same bytes until the answer is final: 200, a refusal, or out of attempts. */
  async sendPrepared(upload: PreparedUpload): Promise<UploadResult> {
    const start = performance.now();
    let last: { status: number; refusal: Refusal } = {
      status: 0,
      refusal: { code: "not_sent", message: "no attempt was made" },
    };
    for (let attempt = 1; attempt <= this.o.maxAttempts; attempt++) {
      let waitMs = this.o.backoffMs * 2 ** (attempt - 1);
      try {
        const res = await this.o.fetch(`${this.o.baseUrl}/v1/stats/ingest`, {
          method: "POST",
          headers: { ...upload.headers, authorization: `Bearer ${this.o.token}` },
          body: upload.body,
          signal: AbortSignal.timeout(this.o.timeoutMs),
        });
        const ms = performance.now() - start;
        if (res.status === 200) {
          const answer = (await res.json()) as Answer;
          const sealedDays = answer.refused.filter((r) => r.code === "day_sealed").map((r) => r.day);
          return { ok: true, status: 200, answer, sealedDays, attempts: attempt, ms };
        }
        const refusal = ((await res.json().catch(() => null)) as { error?: Refusal } | null)?.error ?? {
          code: "unknown",
          message: `HTTP ${res.status}`,
        };
        if (res.status !== 408 && res.status !== 429 && res.status !== 503)
          return { ok: false, status: res.status, refusal, attempts: attempt, ms };
        last = { status: res.status, refusal };
        const retryAfter = Number(res.headers.get("retry-after"));
        if (Number.isFinite(retryAfter) && retryAfter > 0) waitMs = retryAfter * 1000;
      } catch (error) {
        // A timeout or a broken connection: the service may or may not have applied it. The same
        // batchId makes the re-send safe either way.
        last = { status: 0, refusal: { code: "network", message: String(error) } };
      }
      if (attempt < this.o.maxAttempts) await this.o.sleep(waitMs);
    }
    return { ok: false, ...last, attempts: this.o.maxAttempts, ms: performance.now() - start };
  }
}
