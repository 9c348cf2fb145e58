// The texture server: a skin by its hash. GET {TEXTURES_URL}/texture/<hash> -> 200 PNG; 404.
// The URL is always rebuilt here from the setting and a hash that matched its pattern.
// The hash is the SHA-256 of the file written without leading zeros (Mojang formats it as a
// number), so about one skin in sixteen has 63 characters, one in 256 has 62: the file with the
// zero written out does not exist (nodecraft/crafthead#114, minotar/skin-spec#8). A shortened hash
// never starts with 0. Eight zeros dropped (56 characters) is as short as we accept: nine would be
// a one-in-68-billion skin.
// Mojang's CDN refuses a caller over its limit with an HTML 403, which pauses the texture server
// like a 429 (see call.ts).
import { getBytes } from "./call.ts";

/** A texture hash as the texture server hands it out: hex only, never a URL. */
export const TEXTURE_HASH = "(?:[0-9a-f]{64}|[1-9a-f][0-9a-f]{55,62})";
const TEXTURE_HASH_RE = new RegExp(`^${TEXTURE_HASH}$`);
export const isTextureHash = (s: string) => TEXTURE_HASH_RE.test(s);

export type TexturesDeps = { fetch: typeof fetch; texturesUrl: string; timeoutMs: number; maxBytes: number };

export async function textureBytes(deps: TexturesDeps, hash: string): Promise<Uint8Array | null> {
  if (!isTextureHash(hash)) throw new Error("texture hash of the wrong shape reached the texture client");
  return getBytes(
    {
      fetch: deps.fetch,
      upstream: "texture server",
      url: `${deps.texturesUrl}/texture/${hash}`,
      timeoutMs: deps.timeoutMs,
      init: { headers: { accept: "image/png" } },
      absent: [404],
      gatewayThrottles: true,
    },
    deps.maxBytes,
  );
}
