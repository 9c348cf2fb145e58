// Reads JSON request bodies: plain or `Content-Encoding: gzip`, with a cap on the bytes on the wire
// and on the decoded size (a gzip bomb stops at the cap, it is never inflated whole), and a nesting
// depth checked by a linear scan before JSON.parse.
//
// Nothing is read up front. The global parse hook only marks a body as pending; a route that takes
// one reads it in its own `transform` (readBody or validBody), which runs after the address rate
// limit, the token guard and the route's own limit. A route that takes no body reads none.
//
// What a read may cost, whatever the client does:
// - time: the whole body within BODY_READ_TIMEOUT_MS, and after a fifth of it at least
//   BODY_MIN_BYTES_PER_SECOND on average; else 408 body_too_slow, the stream cancelled and the
//   connection closed (read-stream.ts);
// - memory: each read reserves what it will hold (body-gate.ts): while the bytes arrive, the
//   declared Content-Length (bounded by the route's wire cap; the cap when none is declared); a
//   gzip body then grows its reservation by what it inflates, chunk by chunk, up to the decoded
//   cap. Small routes (no cap of their own, and forms) reserve from a pool of their own, so uploads
//   and reports can never starve sign-in;
// - share: per pool, one body in flight per signed-in account and BODY_READS_PER_ADDRESS per
//   client address; beyond, 429 too_many_bodies with Retry-After.
// The decoding itself (framing, gunzip under the cap, the depth scan) is in body-decode.ts.
import { Elysia } from "elysia";
import { ApiError } from "./errors.ts";
import { requestFacts, setBodyInfo } from "./request-context.ts";
import { type Pace, readStreamCapped } from "./read-stream.ts";
import { bodyGate, type BodyGate, type Reservation } from "./body-gate.ts";
import { addressSubject, clientAddress } from "./client-address.ts";
import type { SignedIn } from "./signed-in.ts";
import { FORM_MAX_BYTES, formTooLarge, jsonFraming, readFormBody, readJsonBody, reserveFor } from "./body-decode.ts";

export type BodyLimits = {
  /** Largest body as sent over the wire, gzip or plain (every route). */
  maxBodyBytes: number;
  /** Largest decoded body of a route that names no cap of its own (sign-in, settings). */
  smallBodyMaxBytes: number;
  /** Deepest nesting of arrays and objects accepted. */
  maxJsonDepth: number;
  /** Bytes the bodies of routes with a cap of their own (uploads, reports) may reserve together. */
  bodyDecodeBudgetBytes: number;
  /** Bytes the small routes' bodies (sign-in, settings, forms) may reserve together. */
  smallBodyDecodeBudgetBytes: number;
  /** Bodies that may wait for room in a pool; more answer 503 server_busy. */
  bodyDecodeQueue: number;
  /** The whole body must arrive within this. */
  bodyReadTimeoutMs: number;
  /** After a fifth of the timeout, the least average rate a body may arrive at; 0: none. */
  bodyMinBytesPerSecond: number;
  /** Bodies one client address may have in flight at once, per pool; 0: no limit. */
  bodyReadsPerAddress: number;
  /** Whether the client address is the last X-Forwarded-For entry. */
  trustProxy: boolean;
};

type Server = Parameters<typeof clientAddress>[1];

/** The two pools: small routes never wait behind uploads and reports. */
type Gates = { small: BodyGate; large: BodyGate };

/** What the parse hook leaves in `body` until a route reads it. */
export class PendingBody {
  constructor(
    private readonly request: Request,
    private readonly server: Server,
    private readonly limits: BodyLimits,
    private readonly gates: Gates,
  ) {}

  /**
   * Reads the body under `cap` decoded bytes (none: the small-body cap, from the small pool), as
   * `account` when signed in.
   */
  async read(cap?: number, account?: string): Promise<unknown> {
    const f = jsonFraming(this.request, this.limits.maxBodyBytes, cap ?? this.limits.smallBodyMaxBytes);
    const gate = cap === undefined ? this.gates.small : this.gates.large;
    return this.within(gate, f.reserve, account, (held) =>
      readJsonBody(this.request, f, this.limits.maxJsonDepth, this.pace(), held),
    );
  }

  /**
   * Reads a gzip body as sent, not inflated, under `wireCap` bytes, from the pool of large bodies,
   * and hands it to `use` (POST /v1/stats/import inflates it as it reads it, never whole). The body's
   * reservation, and the account's one body in flight, last until `use` is done: the bytes are held
   * that long, so a sender cannot hold more of them by sending the next file meanwhile.
   */
  async withGzipped<T>(
    wireCap: number,
    account: string | undefined,
    use: (wire: Uint8Array<ArrayBuffer>) => Promise<T>,
  ) {
    const encoding = (this.request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
    if (encoding !== "gzip")
      throw new ApiError("gzip_required", "send the file gzip-compressed, with Content-Encoding: gzip");
    const tooLarge = () => new ApiError("body_too_large", `the body is larger than ${wireCap} bytes`);
    const reserve = reserveFor(this.request, wireCap, tooLarge);
    if (!this.request.body) throw new ApiError("invalid_body", "the body is empty; send the export file");
    return this.within(this.gates.large, reserve, account, async () => {
      const wire = await readStreamCapped(this.request.body!, wireCap, tooLarge, undefined, this.pace());
      setBodyInfo(this.request, { gzip: true, wireBytes: wire.byteLength, decodedBytes: wire.byteLength });
      return use(wire);
    });
  }

  /** Reads a small urlencoded form (the operator pages' forms only), from the small pool. */
  async readForm(): Promise<Record<string, string>> {
    const type = (this.request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded")
      throw new ApiError("unsupported_media_type", "send the form as application/x-www-form-urlencoded");
    const reserve = reserveFor(this.request, FORM_MAX_BYTES, formTooLarge);
    if (!this.request.body) return {};
    return this.within(this.gates.small, reserve, undefined, () => readFormBody(this.request, this.pace()));
  }

  private async within<T>(
    gate: BodyGate,
    bytes: number,
    account: string | undefined,
    read: (held: Reservation) => Promise<T>,
  ): Promise<T> {
    const address = addressSubject(clientAddress(this.request, this.server, this.limits.trustProxy));
    const held = await gate.acquire(bytes, { address, account });
    try {
      return await read(held);
    } finally {
      held.release();
    }
  }

  private pace(): Pace {
    const { bodyReadTimeoutMs: deadlineMs, bodyMinBytesPerSecond: minBytesPerSecond } = this.limits;
    return {
      deadlineMs,
      minBytesPerSecond,
      graceMs: deadlineMs / 5,
      tooSlow: (why) =>
        new ApiError(
          "body_too_slow",
          why === "rate"
            ? `the body arrived slower than ${minBytesPerSecond} bytes a second`
            : `the body did not arrive within ${deadlineMs / 1000} s`,
          undefined,
          // The rest of the body is not read: the connection cannot carry another request.
          { connection: "close" },
        ),
    };
  }
}

/**
 * The global parse hook: a request carrying a body gets a PendingBody and nothing is read. Elysia's
 * own parsers never run (they would read any body on any route, before anything else).
 */
export function bodyReader(limits: BodyLimits) {
  const pool = (budgetBytes: number) =>
    bodyGate({ budgetBytes, maxWaiting: limits.bodyDecodeQueue, perAddress: limits.bodyReadsPerAddress });
  const gates = { small: pool(limits.smallBodyDecodeBudgetBytes), large: pool(limits.bodyDecodeBudgetBytes) };
  return new Elysia({ name: "tally.body" }).onParse({ as: "global" }, ({ request, server }) => {
    const h = request.headers;
    const hasBody =
      h.get("content-length") !== "0" &&
      (h.has("content-length") || h.has("transfer-encoding") || h.has("content-type"));
    return hasBody ? new PendingBody(request, server, limits, gates) : undefined;
  });
}

/** The hooks' context: the body, and who signed in when the route has the token guard. */
type ReadContext = { body: unknown; signedIn?: SignedIn };

/** Reads a pending body (if not read yet) as the signed-in account, if any. */
export async function readPending(ctx: ReadContext, cap?: number) {
  if (ctx.body instanceof PendingBody) ctx.body = await ctx.body.read(cap, ctx.signedIn?.uuid);
}

/**
 * A route hook (the first of its `transform`s) reading the pending body under `cap` decoded bytes.
 * Hooks of the plugin (rate limits, the token guard) have run by then.
 */
export function readBody(cap?: number) {
  // Async, so Elysia awaits it (it looks at the function's kind, not at what it returns).
  return async (ctx: ReadContext) => readPending(ctx, cap);
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
