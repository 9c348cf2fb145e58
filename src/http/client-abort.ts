// A body the client abandoned: the connection closed (or the request was aborted) before the body
// was whole, so reading it rejects with an AbortError. That is the client's doing, not the
// service's: it is answered (to nobody) as the client's abort, 499 `body_aborted`, and logged only by
// the request's own info line. Before, each one logged an error line with the stack and counted a
// 500 (docs/decisions.md, "A body the client abandoned").
import { ApiError } from "./errors.ts";

/** The refusal for `error` when it is the read of a body the client abandoned; otherwise null. */
export function abandonedBody(request: Request, error: unknown): ApiError | null {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const aborted = [error, cause].some((e) => (e as { name?: unknown } | null)?.name === "AbortError");
  if (!aborted || !request.signal.aborted) return null;
  return new ApiError("body_aborted", "the client closed the connection before the body was whole");
}
