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
