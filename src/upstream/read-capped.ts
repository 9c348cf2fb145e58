// Reads an upstream body up to a cap: a larger one is refused as soon as it says so (Content-Length)
// or as soon as it passes the cap while streaming, so a huge answer is never held whole.
import { UpstreamError } from "./upstream-error.ts";
import { readStreamCapped } from "../http/read-stream.ts";

export async function readCapped(res: Response, upstream: string, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? "NaN");
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new UpstreamError(
      upstream,
      "malformed",
      `${upstream} answered ${declared} bytes, over the ${maxBytes}-byte cap`,
    );
  }
  if (!res.body) return new Uint8Array(0);
  return readStreamCapped(
    res.body,
    maxBytes,
    () => new UpstreamError(upstream, "malformed", `${upstream} answered more than the ${maxBytes}-byte cap`),
  );
}
