// GET /v1/gamemode/profiles/<uuid> (the profile source) and GET /v1/players/<name>, /summary,
// /profiles (the public profile pages' data). Public: no token; rate limited per client address
// (LOOKUP_RATE_LIMIT_PER_MINUTE, one budget for all four, counted in Postgres). A uuid of the wrong
// shape answers 400 invalid_uuid (issue 7: the mod is told its uuid is malformed), a name of the
// wrong shape 404; neither makes any upstream call.
import { Elysia } from "elysia";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import type { Config } from "../config.ts";
import { profileSource, type ProfileDeps, type ProfileLookup } from "./profile-source.ts";
import { findPlayer, summarise, type PlayerDeps } from "./players.ts";
import { NameParams, PlayerAnswer, PlayerProfiles, PlayerSummary, ProfilesDocument } from "./profiles.schema.ts";
import { ApiError } from "../http/errors.ts";
import { Type as T } from "@sinclair/typebox";
import { refuses } from "../http/route-detail.ts";
import { NAME_REFUSALS, PROFILE_REFUSALS } from "./profiles.schema.ts";

const UUID = /^[0-9a-f]{32}$/;
/** The route takes any path segment so that a malformed uuid is told so (400), not "no such route". */
const AnyUuidParams = T.Object({ uuid: T.String({ maxLength: 256 }) }, { additionalProperties: false });

/** Fresh answers may sit in a browser for a minute; a stale one is not kept at all. */
const cacheControl = (lookup: ProfileLookup) => (lookup.stale ? "no-store" : "public, max-age=60");

export function profileRoutes(deps: ProfileDeps & PlayerDeps & { config: Config }) {
  const limit = { name: "lookup", perWindow: deps.config.lookupRateLimit, windowMs: 60_000 };
  const source = profileSource(deps);
  const tags = ["profiles"];
  return new Elysia({ name: "tally.profiles" })
    .onTransform(({ request, server }) =>
      enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy)),
    )
    .get(
      "/v1/gamemode/profiles/:uuid",
      async ({ params, set }) => {
        if (!UUID.test(params.uuid))
          throw new ApiError(
            "invalid_uuid",
            "the uuid is 32 lower-case hexadecimal characters, without dashes",
            "/uuid",
          );
        const lookup = await source.lookup(params.uuid);
        set.headers["cache-control"] = cacheControl(lookup);
        return lookup;
      },
      {
        params: AnyUuidParams,
        response: ProfilesDocument,
        detail: {
          tags,
          summary: "A player's game-mode profiles, allowlisted fields only (503 no_upstream_key until a key is set)",
          ...refuses("rate_limited", "invalid_uuid", ...PROFILE_REFUSALS),
        },
      },
    )
    .get("/v1/players/:name", ({ params }) => findPlayer(deps, params.name), {
      params: NameParams,
      response: PlayerAnswer,
      detail: {
        tags,
        summary: "A player by name: uuid, name as spelled, head image",
        ...refuses("rate_limited", ...NAME_REFUSALS),
      },
    })
    .get(
      "/v1/players/:name/summary",
      async ({ params, set }) => {
        const player = await findPlayer(deps, params.name);
        const lookup = await source.lookup(player.uuid);
        set.headers["cache-control"] = cacheControl(lookup);
        return summarise(player, lookup);
      },
      {
        params: NameParams,
        response: PlayerSummary,
        detail: {
          tags,
          summary: "A player's selected profile and profile count",
          ...refuses("rate_limited", ...NAME_REFUSALS, ...PROFILE_REFUSALS),
        },
      },
    )
    .get(
      "/v1/players/:name/profiles",
      async ({ params, set }) => {
        const player = await findPlayer(deps, params.name);
        const { uuid: _, ...lookup } = await source.lookup(player.uuid);
        set.headers["cache-control"] = cacheControl({ ...lookup, uuid: player.uuid });
        return { ...player, ...lookup };
      },
      {
        params: NameParams,
        response: PlayerProfiles,
        detail: {
          tags,
          summary: "A player's profiles, allowlisted fields only",
          ...refuses("rate_limited", ...NAME_REFUSALS, ...PROFILE_REFUSALS),
        },
      },
    );
}
