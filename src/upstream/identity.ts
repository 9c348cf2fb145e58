// The identity provider's session server (Mojang), behind a gateway that refuses a caller over its
// limit with an HTML 403: that, like a 429, is throttling (call.ts).
//   GET {IDENTITY_URL}/session/minecraft/hasJoined?username=&serverId=
//   200 { id, name, properties }: joined; 204: not joined; anything else: unavailable.
import { Type as T } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { getJson } from "./call.ts";
import { UpstreamError } from "./upstream-error.ts";
import { TEXTURE_HASH } from "./textures.ts";

const JoinedProfile = T.Object({
  id: T.String({ pattern: "^[0-9a-f]{32}$" }),
  name: T.String({ pattern: "^[A-Za-z0-9_]{1,16}$" }),
  properties: T.Optional(T.Array(T.Unknown())),
});

export type IdentityDeps = { fetch: typeof fetch; identityUrl: string; timeoutMs: number };
export type JoinAnswer = { joined: true; uuid: string; name: string } | { joined: false };

const UPSTREAM = "identity provider";

export async function hasJoined(deps: IdentityDeps, name: string, serverId: string): Promise<JoinAnswer> {
  const answer = await getJson({
    fetch: deps.fetch,
    upstream: UPSTREAM,
    url: `${deps.identityUrl}/session/minecraft/hasJoined?username=${encodeURIComponent(name)}&serverId=${encodeURIComponent(serverId)}`,
    timeoutMs: deps.timeoutMs,
    absent: [204],
    gatewayThrottles: true,
  });
  if (!answer) return { joined: false };
  // Its id is undashed lower-case hex; anything else is an answer we cannot trust.
  if (!Value.Check(JoinedProfile, answer.body)) {
    throw new UpstreamError(UPSTREAM, "malformed", "identity provider answered 200 without a valid profile");
  }
  return { joined: true, uuid: answer.body.id, name: answer.body.name };
}

// The session server's profile with textures:
//   GET {IDENTITY_URL}/session/minecraft/profile/<uuid> -> 200 { id, name, properties: [{ name:
//   "textures", value: base64 JSON { textures: { SKIN?: { url } } } }] }; 204 or 404: no such player.
// Only the texture hash is taken from the skin URL: the URL itself is never fetched (contract 1.3).
const SKIN_PATH = new RegExp(`^/texture/(${TEXTURE_HASH})$`);

/** The skin's texture hash; null: no such player; { } without a hash: the player has no skin. */
export async function profileSkinHash(deps: IdentityDeps, uuid: string): Promise<{ skinHash?: string } | null> {
  const answer = await getJson({
    fetch: deps.fetch,
    upstream: UPSTREAM,
    url: `${deps.identityUrl}/session/minecraft/profile/${encodeURIComponent(uuid)}`,
    timeoutMs: deps.timeoutMs,
    absent: [204, 404],
    gatewayThrottles: true,
  });
  if (!answer) return null;
  const body = answer.body as { properties?: unknown } | null;
  const properties = Array.isArray(body?.properties) ? (body.properties as { name?: unknown; value?: unknown }[]) : [];
  const property = properties.find((p) => p?.name === "textures");
  if (typeof property?.value !== "string" || property.value.length > 16_384) return {};
  let skinUrl: unknown;
  try {
    const textures = JSON.parse(Buffer.from(property.value, "base64").toString("utf8")) as {
      textures?: { SKIN?: { url?: unknown } };
    };
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
  const hash = SKIN_PATH.exec(path)?.[1];
  return hash ? { skinHash: hash } : {};
}
