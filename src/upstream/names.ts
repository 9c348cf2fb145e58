// The name service (Mojang): which uuid holds a player name today.
//   GET {NAMES_URL}/users/profiles/minecraft/<name> -> 200 { id, name }; 404 or 204: no such
//   player; 429: throttled. Names are checked against [A-Za-z0-9_]{3,16} before they get here.
import { Type as T } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { callUpstream, UpstreamError } from "./upstream-error.ts";

const NamedProfile = T.Object({
  id: T.String({ pattern: "^[0-9a-f]{32}$", maxLength: 32 }),
  name: T.String({ pattern: "^[A-Za-z0-9_]{1,16}$", maxLength: 16 }),
});

export type NamesDeps = { fetch: typeof fetch; namesUrl: string; timeoutMs: number };

/** The player's uuid and the name as spelled upstream; null when no player has that name. */
export async function uuidForName(deps: NamesDeps, name: string): Promise<{ uuid: string; name: string } | null> {
  const url = `${deps.namesUrl.replace(/\/+$/, "")}/users/profiles/minecraft/${encodeURIComponent(name)}`;
  const res = await callUpstream(deps.fetch, "name service", url, deps.timeoutMs, { headers: { accept: "application/json" } });
  if (res.status === 404 || res.status === 204) {
    await res.body?.cancel();
    return null;
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new UpstreamError("name service", "status", `name service answered ${res.status}`, res.status);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new UpstreamError("name service", "malformed", "name service answered 200 with a body that is not JSON");
  }
  const profile = body && typeof body === "object" ? { id: (body as { id?: unknown }).id, name: (body as { name?: unknown }).name } : body;
  if (!Value.Check(NamedProfile, profile)) throw new UpstreamError("name service", "malformed", "name service answered 200 without a valid profile");
  return { uuid: profile.id, name: profile.name };
}
