// GET /p/<name>: a player's public profile page, read through the profile source with this
// service's game API key. Their head comes through our own image proxy. States: an unknown name
// (404), a player without profiles, the game API down (the last good answer, with its age), and a
// service without a game API key (503).
import { Elysia } from "elysia";
import Html from "@kitajs/html";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { profileSource, type ProfileDeps, type ProfileLookup } from "../profiles/profile-source.ts";
import { findPlayer, type Player, type PlayerDeps } from "../profiles/players.ts";
import type { ProfileEntry } from "../profiles/allowlist.ts";
import { esc, Layout, sync } from "./layout.tsx";
import { formatAge, formatNumber } from "./format.ts";
import { htmlPage } from "./respond.ts";

const NAME = /^[A-Za-z0-9_]{3,16}$/;

function Problem(props: { title: string; text: string }): JSX.Element {
  return (
    <Layout title={props.title}>
      <h1>{esc(props.title)}</h1>
      <p>{esc(props.text)}</p>
      <p>
        <a href="/">Home</a>
      </p>
    </Layout>
  );
}

const utcDate = (at: number) => new Date(at).toISOString().slice(0, 10);

function Profile(props: { p: ProfileEntry }): JSX.Element {
  const p = props.p;
  const rows: [string, string | undefined][] = [
    ["Game mode", p.gameMode ?? "classic"],
    ["Members", p.memberCount === undefined ? undefined : formatNumber(p.memberCount)],
    ["Purse", p.purse === undefined ? undefined : `${formatNumber(p.purse)} coins`],
    ["Bank", p.bankBalance === undefined ? undefined : `${formatNumber(p.bankBalance)} coins`],
    ["SkyBlock experience", p.skyblockXp === undefined ? undefined : formatNumber(p.skyblockXp)],
    ["Fairy souls", p.fairySouls === undefined ? undefined : formatNumber(p.fairySouls)],
    ["First joined", p.firstJoin === undefined ? undefined : `${utcDate(p.firstJoin)} (UTC)`],
  ];
  const name = p.cuteName ?? "Unnamed profile";
  return (
    <section class="card" aria-label={`Profile ${name}`} data-profile={p.profileId}>
      <h2>
        {esc(name)} {p.selected ? <small>(selected)</small> : ""}
      </h2>
      <table>
        <tbody>
          {rows
            .filter((r): r is [string, string] => r[1] !== undefined)
            .map(([k, v]) => (
              <tr>
                <th scope="row">{esc(k)}</th>
                <td class="num">{esc(v)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </section>
  );
}

export function ProfilePage(props: { player: Player; lookup: ProfileLookup; now: number }): JSX.Element {
  const { player, lookup } = props;
  const age = formatAge(props.now - lookup.fetchedAt);
  return (
    <Layout title={`${player.name} · profile`} description={`Public game profile of ${player.name}`}>
      <div class="player">
        <img src={`/v1/assets/head/${player.uuid}.png`} width="64" height="64" alt={`${player.name}'s head`} />
        <div>
          <h1>{esc(player.name)}</h1>
          <p class="muted">
            {esc(`${lookup.profiles.length} profile${lookup.profiles.length === 1 ? "" : "s"}`)} · public data from the game's API
          </p>
        </div>
      </div>
      {lookup.stale ? (
        <p class="note" role="status">
          The game's API is not answering right now. This is what it said {esc(age)} ago.
        </p>
      ) : (
        <p class="muted">Fetched {esc(age)} ago.</p>
      )}
      {lookup.profiles.length === 0 ? (
        <p>{esc(player.name)} has no profiles in this game mode yet.</p>
      ) : (
        lookup.profiles.map((p) => <Profile p={p} />)
      )}
    </Layout>
  );
}

export function profilePageRoutes(deps: ProfileDeps & PlayerDeps & { config: Config }) {
  const source = profileSource(deps);
  const limit = { name: "lookup", perWindow: deps.config.lookupRateLimit, windowMs: 60_000 };
  const problem = (request: Request, status: number, title: string, text: string, headers: Record<string, string> = {}) =>
    htmlPage(request, sync(Problem({ title, text })), { status, cacheControl: "no-store", headers });
  const noKey = (request: Request) =>
    problem(request, 503, "Profiles are not available here yet", "This service has no game API key yet, so it cannot look up profiles. Its operator has to add one.");

  return new Elysia({ name: "tally.web.profile" })
    // The home page's look-up form: /p/?name=<name> goes to the profile's own address.
    .get(
      "/p/",
      ({ request }) => {
        const name = new URL(request.url).searchParams.get("name")?.trim() ?? "";
        if (!NAME.test(name)) return problem(request, 404, "No such player", "A player name is 3 to 16 letters, digits or underscores.");
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
          return htmlPage(request, sync(ProfilePage({ player, lookup, now: deps.clock.now() })), { cacheControl: lookup.stale ? "no-store" : "public, max-age=60" });
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
              return problem(request, 503, "The game's API is not answering", "Profile look-ups are not working right now, and there is no earlier answer to show. Try again in a little while.", e.headers);
          }
        }
      },
      { detail: { hide: true } },
    );
}
