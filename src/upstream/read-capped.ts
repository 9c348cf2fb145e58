// Reads an upstream body up to a cap: a larger one is refused as soon as it says so (Content-Length)
// or as soon as it passes the cap while streaming, so a huge answer is never held whole.
import { UpstreamError } from "./upstream-error.ts";

export async function readCapped(res: Response, upstream: string, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? "NaN");
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new UpstreamError(upstream, "malformed", `${upstream} answered ${declared} bytes, over the ${maxBytes}-byte cap`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      size += r.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new UpstreamError(upstream, "malformed", `${upstream} answered more than the ${maxBytes}-byte cap`);
      }
      chunks.push(r.value);
    }
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
