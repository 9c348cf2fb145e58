// A fake of the identity provider's session server, answering like the real one:
//   POST /session/minecraft/join { accessToken, selectedProfile, serverId } -> 204, or 403 with
//     { error: "ForbiddenOperationException", errorMessage } for a bad access token;
//   GET  /session/minecraft/hasJoined?username=&serverId= -> 200 { id, name, properties } when that
//     join happened (name compared case-insensitively), else 204 with no body.
// `failure` makes hasJoined misbehave the ways the real one can: a 500, no answer, bad JSON, a
// 200 for another player, a 429, or its gateway's HTML 403 (test/support/recorded/mojang/).
import { fakeUpstream, json } from "../upstream.ts";
import { gateway403Html, tooManyRequests } from "../recorded.ts";

export type Player = { uuid: string; name: string; accessToken: string };
export type Failure = "none" | "error500" | "hang" | "malformed" | "otherPlayer" | "rateLimited" | "gateway403";

export function fakeIdentity(players: Player[]) {
  const joins = new Map<string, Player>(); // serverId -> who joined with it
  const state = { failure: "none" as Failure };
  const server = fakeUpstream({
    "POST /session/minecraft/join": (_req, call) => {
      const body = JSON.parse(call.body) as { accessToken: string; selectedProfile: string; serverId: string };
      const player = players.find((p) => p.accessToken === body.accessToken && p.uuid === body.selectedProfile);
      if (!player) return json({ error: "ForbiddenOperationException", errorMessage: "Invalid token." }, 403);
      joins.set(body.serverId, player);
      return new Response(null, { status: 204 });
    },
    "GET /session/minecraft/hasJoined": async (_req, call) => {
      const username = call.query.get("username") ?? "";
      const serverId = call.query.get("serverId") ?? "";
      switch (state.failure) {
        case "error500":
          return new Response("Internal Server Error", { status: 500 });
        case "rateLimited":
          return new Response(tooManyRequests(), { status: 429, headers: { "content-type": "application/json" } });
        case "gateway403":
          return new Response(gateway403Html(), { status: 403, headers: { "content-type": "text/html" } });
        case "hang":
          await new Promise(() => {}); // never answers
          break;
        case "malformed":
          return new Response("{ id: ", { status: 200, headers: { "content-type": "application/json" } });
        case "otherPlayer": {
          const other = players.find((p) => p.name.toLowerCase() !== username.toLowerCase())!;
          return json({ id: other.uuid, name: other.name, properties: [] });
        }
      }
      const joined = joins.get(serverId);
      if (!joined || joined.name.toLowerCase() !== username.toLowerCase()) return new Response(null, { status: 204 });
      const textures = Buffer.from(
        JSON.stringify({ profileId: joined.uuid, profileName: joined.name, textures: {} }),
      ).toString("base64");
      return json({
        id: joined.uuid,
        name: joined.name,
        properties: [{ name: "textures", value: textures, signature: "c2lnbmF0dXJl" }],
        profileActions: [],
      });
    },
  });
  return {
    ...server,
    state,
    /** What the mod does between challenge and verify: join with its own access token. */
    async join(player: Player, serverId: string) {
      const res = await fetch(`${server.url}/session/minecraft/join`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ accessToken: player.accessToken, selectedProfile: player.uuid, serverId }),
      });
      if (res.status !== 204) throw new Error(`join failed: ${res.status}`);
    },
  };
}
