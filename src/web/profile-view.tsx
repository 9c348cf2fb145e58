import type { ProfileLookup } from "../profiles/profile-source.ts";
import type { Player } from "../profiles/players.ts";
import type { ProfileEntry } from "../profiles/allowlist.ts";
import { esc, Layout, type Preview } from "./layout.tsx";
import { formatAge, formatNumber } from "./format.ts";

export function Problem(props: { title: string; text: string }): JSX.Element {
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
    // No profile id on the page (issue 34): a co-op profile's id leads to its other members through
    // the game's API; a profile is named by its cute name.
    <section class="card" aria-label={`Profile ${name}`}>
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

export function ProfilePage(props: {
  player: Player;
  lookup: ProfileLookup;
  now: number;
  preview?: Preview;
}): JSX.Element {
  const { player, lookup } = props;
  const age = formatAge(props.now - lookup.fetchedAt);
  return (
    <Layout
      title={`${player.name} · profile`}
      description={`Public game profile of ${player.name}`}
      preview={props.preview}
    >
      <div class="player">
        <img src={`/v1/assets/head/${player.uuid}.png`} width="64" height="64" alt={`${player.name}'s head`} />
        <div>
          <h1>{esc(player.name)}</h1>
          <p class="muted">
            {esc(`${lookup.profiles.length} profile${lookup.profiles.length === 1 ? "" : "s"}`)} · public data from the
            game's API
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
