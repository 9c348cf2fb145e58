// A fake of the name service (Mojang's api): GET /users/profiles/minecraft/<name>
//   200 { id, name } (name as the player spells it; lookup is case-insensitive); 404 with
//   { path, errorMessage } for an unknown name (older deployments answer 204 with no body);
//   429 with Mojang's TooManyRequestsException body when throttled, or, from its gateway, a 403
//   with an HTML page (recorded bodies: test/support/recorded/mojang/).
import { fakeUpstream, json } from "../upstream.ts";
import { gateway403Html, tooManyRequests } from "../recorded.ts";

export type NamesFailure = "none" | "throttled" | "gateway403" | "error500";

export function fakeNames(players: { uuid: string; name: string }[]) {
  const state = { unknownAs: 404 as 404 | 204, failure: "none" as NamesFailure };
  const server = fakeUpstream({
    "GET /users/profiles/minecraft/:name": (_req, call) => {
      const asked = decodeURIComponent(call.path.split("/").pop() ?? "");
      if (state.failure === "throttled")
        return new Response(tooManyRequests(), { status: 429, headers: { "content-type": "application/json" } });
      if (state.failure === "gateway403")
        return new Response(gateway403Html(), { status: 403, headers: { "content-type": "text/html" } });
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
