// Item images by item id: GET {ITEM_IMAGES_URL}/<item id, percent-encoded>.png -> 200 PNG; 404.
// The id has matched the item-id pattern before it gets here; it is encoded as one path segment.
import { getBytes } from "./call.ts";

export type ItemImagesDeps = { fetch: typeof fetch; itemImagesUrl: string; timeoutMs: number; maxBytes: number };

export async function itemImageBytes(deps: ItemImagesDeps, id: string): Promise<Uint8Array | null> {
  return getBytes(
    {
      fetch: deps.fetch,
      upstream: "item images",
      url: `${deps.itemImagesUrl}/${encodeURIComponent(id)}.png`,
      timeoutMs: deps.timeoutMs,
      init: { headers: { accept: "image/png" } },
      absent: [404],
    },
    deps.maxBytes,
  );
}
