// Players of the fake identity provider, and signing them in through the real flow.
import type { TestApp } from "./app.ts";
import type { Player, fakeIdentity } from "./fakes/identity.ts";

export const alice: Player = {
  uuid: "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
  name: "Alice_01",
  accessToken: "alice-access-token",
};
export const bob: Player = { uuid: "a1b2c3d4e5f60718293a4b5c6d7e8f90", name: "bob", accessToken: "bob-access-token" };

export type SignedIn = {
  token: string;
  uuid: string;
  name: string;
  sessionId: string;
  expiresAt: number;
  auth: { authorization: string };
};

/** challenge -> the mod's join with the identity provider -> verify; throws unless it signs in. */
export async function signIn(
  t: TestApp,
  identity: ReturnType<typeof fakeIdentity>,
  player: Player,
  opts: { zone?: string; userAgent?: string; name?: string } = {},
): Promise<SignedIn> {
  const challenge = (await (await t.postJson("/v1/auth/challenge", {})).json()) as { serverId: string };
  await identity.join(player, challenge.serverId);
  const res = await t.postJson(
    "/v1/auth/verify",
    { serverId: challenge.serverId, name: opts.name ?? player.name, zone: opts.zone ?? "Europe/Berlin" },
    { headers: { "user-agent": opts.userAgent ?? "TallyMod/1.0.0 (Fabric; Minecraft 1.21.4)" } },
  );
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as Omit<SignedIn, "auth">;
  return { ...body, auth: { authorization: `Bearer ${body.token}` } };
}
