// GET /v1/assets/head/<uuid>.png, /v1/assets/skin/<texture hash>.png, /v1/assets/item/<item id>.png.
// No route takes a URL: each id must match its pattern or the answer is 404 before any upstream
// is asked (a `..`, an encoded slash or a URL fails the pattern). Public; rate limited per client
// address (ASSET_RATE_LIMIT_PER_MINUTE, in Postgres). ETag on every image, 304 on a match.
import { Elysia } from "elysia";
import { Type as T } from "@sinclair/typebox";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import type { Config } from "../config.ts";
import { imageProxy, type AssetDeps, type Image } from "./image-proxy.ts";
import { etagMatches } from "../http/etag.ts";
import { TEXTURE_HASH } from "../upstream/textures.ts";
import { answers, refuses, PNG_ANSWERS } from "../http/route-detail.ts";

/** Id patterns (the file name is the id plus ".png"). */
export const HEAD_ID = "[0-9a-f]{32}";
/** A texture hash: 64 hex, or 56 to 63 when the texture server dropped leading zeros (textures.ts). */
export const SKIN_ID = TEXTURE_HASH;
/** The catalogue's segment shape (contract 2.2), which item ids take in counter keys. */
export const ITEM_ID = "[A-Za-z0-9_][A-Za-z0-9_;:+#-]{0,63}";

const fileParams = (id: string, maxLength: number) =>
  T.Object({ file: T.String({ pattern: `^${id}\\.png$`, maxLength }) }, { additionalProperties: false });
const idOf = (file: string) => file.slice(0, -".png".length);

function serve(request: Request, image: Image): Response {
  const headers = { etag: image.etag, "cache-control": image.cacheControl, "x-content-type-options": "nosniff" };
  if (etagMatches(request.headers.get("if-none-match"), image.etag))
    return new Response(null, { status: 304, headers });
  return new Response(image.png as Uint8Array<ArrayBuffer>, { headers: { ...headers, "content-type": "image/png" } });
}

export function assetRoutes(deps: AssetDeps & { config: Config }) {
  const limit = { name: "assets", perWindow: deps.config.assetRateLimit, windowMs: 60_000 };
  const proxy = imageProxy(deps);
  const tags = ["assets"];
  const png = {
    ...refuses(
      "rate_limited",
      "upstream_bad_image",
      "upstream_timeout",
      "upstream_unavailable",
      "upstream_rate_limited",
    ),
    ...answers(PNG_ANSWERS),
  };
  return new Elysia({ name: "tally.assets" })
    .onTransform(({ request, server }) =>
      enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy)),
    )
    .get("/v1/assets/head/:file", async ({ params, request }) => serve(request, await proxy.head(idOf(params.file))), {
      params: fileParams(HEAD_ID, 36),
      detail: {
        tags,
        summary: "A player's head (face and hat from the skin), 64x64 PNG; the default head when there is no skin",
        ...png,
      },
    })
    .get("/v1/assets/skin/:file", async ({ params, request }) => serve(request, await proxy.skin(idOf(params.file))), {
      params: fileParams(SKIN_ID, 68),
      detail: { tags, summary: "A skin by texture hash, re-encoded PNG, immutable", ...png },
    })
    .get("/v1/assets/item/:file", async ({ params, request }) => serve(request, await proxy.item(idOf(params.file))), {
      params: fileParams(ITEM_ID, 68),
      detail: { tags, summary: "An item image by item id, re-encoded PNG", ...png },
    });
}
