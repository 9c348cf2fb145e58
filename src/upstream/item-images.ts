// Item images by item id: GET {ITEM_IMAGES_URL}/<item id, percent-encoded>.png -> 200 PNG; 404.
// The id has matched the item-id pattern before it gets here; it is encoded as one path segment.
import { callUpstream, UpstreamError } from "./upstream-error.ts";
import { readCapped } from "./read-capped.ts";

export async function itemImageBytes(deps: { fetch: typeof fetch; itemImagesUrl: string; timeoutMs: number; maxBytes: number }, id: string): Promise<Uint8Array | null> {
  const res = await callUpstream(deps.fetch, "item images", `${deps.itemImagesUrl.replace(/\/+$/, "")}/${encodeURIComponent(id)}.png`, deps.timeoutMs, {
    headers: { accept: "image/png" },
  });
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new UpstreamError("item images", "status", `item images answered ${res.status}`, res.status);
  }
  return readCapped(res, "item images", deps.maxBytes);
}
