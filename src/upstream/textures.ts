// The texture server: a skin by its hash. GET {TEXTURES_URL}/texture/<64 hex> -> 200 PNG; 404.
// The URL is always rebuilt here from the setting and a hash that matched its pattern.
import { callUpstream, UpstreamError } from "./upstream-error.ts";
import { readCapped } from "./read-capped.ts";

export async function textureBytes(deps: { fetch: typeof fetch; texturesUrl: string; timeoutMs: number; maxBytes: number }, hash: string): Promise<Uint8Array | null> {
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error("texture hash of the wrong shape reached the texture client");
  const res = await callUpstream(deps.fetch, "texture server", `${deps.texturesUrl.replace(/\/+$/, "")}/texture/${hash}`, deps.timeoutMs, { headers: { accept: "image/png" } });
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new UpstreamError("texture server", "status", `texture server answered ${res.status}`, res.status);
  }
  return readCapped(res, "texture server", deps.maxBytes);
}
