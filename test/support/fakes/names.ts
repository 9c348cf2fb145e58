// A fake of the name service (Mojang's api): GET /users/profiles/minecraft/<name>
//   200 { id, name } (name as the player spells it; lookup is case-insensitive); 404 with
//   { path, errorMessage } for an unknown name (older deployments answer 204 with no body);
//   429 { path, errorMessage } when throttled.
import { fakeUpstream, json } from "../upstream.ts";

export function fakeNames(players: { uuid: string; name: string }[]) {
  const state = { unknownAs: 404 as 404 | 204, failure: "none" as "none" | "throttled" | "error500" };
  const server = fakeUpstream({
    "GET /users/profiles/minecraft/:name": (_req, call) => {
      const asked = decodeURIComponent(call.path.split("/").pop() ?? "");
      if (state.failure === "throttled") return json({ path: call.path, errorMessage: "Too Many Requests" }, 429);
      if (state.failure === "error500") return new Response("Internal Server Error", { status: 500 });
      const p = players.find((x) => x.name.toLowerCase() === asked.toLowerCase());
      if (!p) {
        if (state.unknownAs === 204) return new Response(null, { status: 204 });
        return json({ path: call.path, errorMessage: `Couldn't find any profile with name ${asked}` }, 404);
      }
      return json({ id: p.uuid, name: p.name });
    },
  });
  return { ...server, state, players, lookups: () => server.calls.length };
}
