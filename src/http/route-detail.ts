// What a route puts in its `detail` for the OpenAPI document (http/openapi.ts builds the document
// from them): the refusals its handler can give, examples of its body and answers, answers it gives
// as a Response of its own, and the mark of a route outside /v1/ the document describes all the same.
import type { TSchema } from "@sinclair/typebox";
import type { ErrorCode } from "./errors.ts";

export const REFUSES = "x-tally-refuses";
export const EXAMPLES = "x-tally-examples";
export const ANSWERS = "x-tally-answers";
export const DESCRIBED = "x-tally-described";

type Extra = Partial<Record<ErrorCode, Record<string, TSchema>>>;
export type Refusals = { codes: ErrorCode[]; extra: Extra };

/**
 * For a route's `detail`: the refusals its handler can give besides those every route of its kind
 * gives. A trailing object names fields answered beside `error` for a code (e.g. the current
 * settings on a 409 conflict).
 */
export function refuses(...codes: (ErrorCode | Extra)[]): object {
  const refusals: Refusals = { codes: [], extra: {} };
  for (const c of codes) {
    if (typeof c === "string") refusals.codes.push(c);
    else Object.assign(refusals.extra, c);
  }
  return { [REFUSES]: refusals };
}

/** For a route's `detail`: an example request body and examples of answers by status (from fixtures/). */
export function examples(e: { body?: unknown; answers?: Record<number, unknown> }): object {
  return { [EXAMPLES]: e };
}

/** For a route's `detail`: answers it gives as a Response of its own (no `response` schema to check). */
export function answers(responses: Record<number, unknown>): object {
  return { [ANSWERS]: responses };
}

/**
 * For a route's `detail` outside /v1/ that the document describes all the same (a page's preview
 * image or badge: files other sites embed by address).
 */
export const DESCRIBED_OUTSIDE_V1 = { [DESCRIBED]: true } as const;

/** The answers of an image route (http/etag.ts answers 304 to a matching If-None-Match). */
export const PNG_ANSWERS = {
  200: {
    description: "The image.",
    headers: { ETag: { schema: { type: "string" } } },
    content: { "image/png": { schema: { type: "string", format: "binary" } } },
  },
  304: { description: "Not modified: the If-None-Match ETag is current." },
};
