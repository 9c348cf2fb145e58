// The identity provider's session server: did this player join with this serverId?
//   GET {IDENTITY_URL}/session/minecraft/hasJoined?username=&serverId=
//   200 { id, name, properties }: joined; 204: not joined; anything else: unavailable.
import { Type as T } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { callUpstream, UpstreamError } from "./upstream-error.ts";

const JoinedProfile = T.Object({
  id: T.String({ pattern: "^[0-9a-f]{32}$" }),
  name: T.String({ pattern: "^[A-Za-z0-9_]{1,16}$" }),
  properties: T.Optional(T.Array(T.Unknown())),
});

export type JoinAnswer = { joined: true; uuid: string; name: string } | { joined: false };

export async function hasJoined(deps: { fetch: typeof fetch; identityUrl: string; timeoutMs: number }, name: string, serverId: string): Promise<JoinAnswer> {
  const url = `${deps.identityUrl.replace(/\/+$/, "")}/session/minecraft/hasJoined?username=${encodeURIComponent(name)}&serverId=${encodeURIComponent(serverId)}`;
  const res = await callUpstream(deps.fetch, "identity provider", url, deps.timeoutMs);
  if (res.status === 204) return { joined: false };
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new UpstreamError("identity provider", "status", `identity provider answered ${res.status}`, res.status);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new UpstreamError("identity provider", "malformed", "identity provider answered 200 with a body that is not JSON");
  }
  // Its id is undashed lower-case hex; anything else is an answer we cannot trust.
  if (!Value.Check(JoinedProfile, body)) throw new UpstreamError("identity provider", "malformed", "identity provider answered 200 without a valid profile");
  return { joined: true, uuid: body.id, name: body.name };
}

// The session server's profile with textures:
//   GET {IDENTITY_URL}/session/minecraft/profile/<uuid> -> 200 { id, name, properties: [{ name:
//   "textures", value: base64 JSON { textures: { SKIN?: { url } } } }] }; 204 or 404: no such player.
// Only the texture hash is taken from the skin URL: the URL itself is never fetched (contract 1.3).
const TEXTURE_HASH = /\/texture\/([0-9a-f]{64})$/;

/** The skin's texture hash; null: no such player; { } without a hash: the player has no skin. */
export async function profileSkinHash(deps: { fetch: typeof fetch; identityUrl: string; timeoutMs: number }, uuid: string): Promise<{ skinHash?: string } | null> {
  const url = `${deps.identityUrl.replace(/\/+$/, "")}/session/minecraft/profile/${encodeURIComponent(uuid)}`;
  const res = await callUpstream(deps.fetch, "identity provider", url, deps.timeoutMs, { headers: { accept: "application/json" } });
  if (res.status === 204 || res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new UpstreamError("identity provider", "status", `identity provider answered ${res.status}`, res.status);
  }
  let body: { properties?: unknown };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new UpstreamError("identity provider", "malformed", "identity provider answered 200 with a body that is not JSON");
  }
  const property = Array.isArray(body?.properties) ? (body.properties as { name?: unknown; value?: unknown }[]).find((p) => p?.name === "textures") : undefined;
  if (typeof property?.value !== "string" || property.value.length > 16_384) return {};
  let skinUrl: unknown;
  try {
    const textures = JSON.parse(Buffer.from(property.value, "base64").toString("utf8")) as { textures?: { SKIN?: { url?: unknown } } };
    skinUrl = textures?.textures?.SKIN?.url;
  } catch {
    return {};
  }
  if (typeof skinUrl !== "string" || skinUrl.length > 2048) return {};
  let path: string;
  try {
    path = new URL(skinUrl).pathname;
  } catch {
    return {};
  }
  const hash = TEXTURE_HASH.exec(path)?.[1];
  return hash ? { skinHash: hash } : {};
}
