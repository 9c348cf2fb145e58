// The name service (Mojang): which uuid holds a player name today.
//   GET {NAMES_URL}/users/profiles/minecraft/<name> -> 200 { id, name }; 404 { path, errorMessage }
//   (older deployments: 204, no body): no such player; 429, or its gateway's HTML 403: throttled.
// Names are checked against [A-Za-z0-9_]{3,16} before they get here.
import { Type as T } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { getJson } from "./call.ts";
import { UpstreamError } from "./upstream-error.ts";

const NamedProfile = T.Object({
  id: T.String({ pattern: "^[0-9a-f]{32}$", maxLength: 32 }),
  name: T.String({ pattern: "^[A-Za-z0-9_]{1,16}$", maxLength: 16 }),
});

export type NamesDeps = { fetch: typeof fetch; namesUrl: string; timeoutMs: number };

/** The player's uuid and the name as spelled upstream; null when no player has that name. */
export async function uuidForName(deps: NamesDeps, name: string): Promise<{ uuid: string; name: string } | null> {
  const answer = await getJson({
    fetch: deps.fetch,
    upstream: "name service",
    url: `${deps.namesUrl}/users/profiles/minecraft/${encodeURIComponent(name)}`,
    timeoutMs: deps.timeoutMs,
    absent: [404, 204],
    gatewayThrottles: true,
  });
  if (!answer) return null;
  const body = answer.body;
  const profile =
    body && typeof body === "object"
      ? { id: (body as { id?: unknown }).id, name: (body as { name?: unknown }).name }
      : body;
  if (!Value.Check(NamedProfile, profile)) {
    throw new UpstreamError("name service", "malformed", "name service answered 200 without a valid profile");
  }
  return { uuid: profile.id, name: profile.name };
}
