// GET /p/<name>: a player's public profile page, read through the profile source with this
// service's game API key. Their head comes through our own image proxy. States: an unknown name
// (404), a player without profiles, the game API down (the last good answer, with its age), and a
// service without a game API key (503).
import { Elysia } from "elysia";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { profileSource, type ProfileDeps } from "../profiles/profile-source.ts";
import { findPlayer, type PlayerDeps } from "../profiles/players.ts";
import { sync } from "./layout.tsx";
import { htmlPage } from "./respond.ts";
import { Problem, ProfilePage } from "./profile-view.tsx";
import { profilePreview } from "../cards/preview.tsx";

const NAME = /^[A-Za-z0-9_]{3,16}$/;

export function profilePageRoutes(deps: ProfileDeps & PlayerDeps & { config: Config }) {
  const source = profileSource(deps);
  const limit = { name: "lookup", perWindow: deps.config.lookupRateLimit, windowMs: 60_000 };
  const problem = (
    request: Request,
    status: number,
    title: string,
    text: string,
    headers: Record<string, string> = {},
  ) => htmlPage(request, sync(Problem({ title, text })), { status, cacheControl: "no-store", headers });
  const noKey = (request: Request) =>
    problem(
      request,
      503,
      "Profiles are not available here yet",
      "This service has no game API key yet, so it cannot look up profiles. Its operator has to add one.",
    );

  return (
    new Elysia({ name: "tally.web.profile" })
      // The home page's look-up form: /p/?name=<name> goes to the profile's own address.
      .get(
        "/p/",
        ({ request }) => {
          const name = new URL(request.url).searchParams.get("name")?.trim() ?? "";
          if (!NAME.test(name))
            return problem(request, 404, "No such player", "A player name is 3 to 16 letters, digits or underscores.");
          return new Response(null, { status: 303, headers: { location: `/p/${name}`, "cache-control": "no-store" } });
        },
        { detail: { hide: true } },
      )
      .get(
        "/p/:name",
        async ({ params, request, server }) => {
          const name = params.name;
          if (!NAME.test(name)) return problem(request, 404, "No such player", `No player is named ${name}.`);
          await enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
          // Without a key there is nothing to show: say so before asking the name service anything.
          if (!deps.config.gameApiKey) return noKey(request);
          try {
            const player = await findPlayer(deps, name);
            const lookup = await source.lookup(player.uuid);
            const preview = profilePreview(deps.config.baseUrl, player.name, lookup.profiles.length);
            return htmlPage(request, sync(ProfilePage({ player, lookup, now: deps.clock.now(), preview })), {
              cacheControl: lookup.stale ? "no-store" : "public, max-age=60",
            });
          } catch (e) {
            if (!(e instanceof ApiError)) throw e;
            switch (e.code) {
              case "unknown_player":
                return problem(request, 404, "No such player", `No player is named ${name}.`);
              case "no_upstream_key":
                return noKey(request);
              case "upstream_refused_uuid":
                return problem(request, 404, "No such player", `The game's API does not know ${name}.`);
              default:
                return problem(
                  request,
                  503,
                  "The game's API is not answering",
                  "Profile look-ups are not working right now, and there is no earlier answer to show. Try again in a little while.",
                  e.headers,
                );
            }
          }
        },
        { detail: { hide: true } },
      )
  );
}
