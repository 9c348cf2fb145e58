// A player group's page (issue 35): its title, its boards, and its members (to members; a visitor
// of a public group sees how many). Every string a player typed is escaped.
import Html from "@kitajs/html";
import { Layout } from "./layout.tsx";
import type { BoardPage } from "../boards/ranking.ts";

type Described = BoardPage["board"];

export function GroupPageView(props: {
  group: { title: string; public: boolean };
  base: string;
  boards: Described[];
  members: { name: string; creator: boolean; you: boolean }[] | null;
  count: number;
  /** A member's own view: where its forms post, and the invite code (the creator's only). */
  own?: { action: string; creator: boolean; inviteCode: string | null };
}): JSX.Element {
  const { group, base } = props;
  return (
    <Layout title={group.title} path={base}>
      <p class="crumbs">
        <a href="/boards">Boards</a>
      </p>
      <h1>{Html.escapeHtml(group.title)}</h1>
      <p class="muted">
        A group of {props.count.toLocaleString("en-GB")} {props.count === 1 ? "player" : "players"}
        {group.public ? "; anyone may see its boards." : "; only its members see its boards."} Members are ranked once
        they turn boards on in the mod.
      </p>
      <section class="board-group">
        <h2>Its boards</h2>
        <ul class="board-list">
          {props.boards.map((b) => (
            <li>
              <a href={`${base}/boards/${b.id}`} title={b.id}>
                {Html.escapeHtml(b.title)}
              </a>
            </li>
          ))}
        </ul>
      </section>
      {props.members ? (
        <section>
          <h2>Members</h2>
          <ul class="board-list">
            {props.members.map((m) => (
              <li>
                {m.you ? <strong>{Html.escapeHtml(m.name)} (you)</strong> : Html.escapeHtml(m.name)}
                {m.creator ? <span class="muted"> · created the group</span> : ""}
                {props.own?.creator && !m.creator ? (
                  <form
                    method="post"
                    action={`${props.own.action}/remove/${encodeURIComponent(m.name)}`}
                    class="inline"
                  >
                    <button type="submit">Remove</button>
                  </form>
                ) : (
                  ""
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : (
        ""
      )}
      {props.own ? <Manage own={props.own} public={group.public} /> : ""}
    </Layout>
  );
}

/** A member's forms: the creator's code, public or private and a new code; anyone else's leaving. */
function Manage(p: { own: NonNullable<Parameters<typeof GroupPageView>[0]["own"]>; public: boolean }): JSX.Element {
  const { own } = p;
  if (!own.creator)
    return (
      <section class="card">
        <form method="post" action={`${own.action}/leave`}>
          <button type="submit">Leave the group</button>
        </form>
      </section>
    );
  return (
    <section class="card">
      <h2>Invite</h2>
      <p>
        Whoever has this code can join in the mod: <code>{Html.escapeHtml(own.inviteCode ?? "")}</code>
      </p>
      <form method="post" action={`${own.action}/code`}>
        <button type="submit">New code (the old one stops working)</button>
      </form>
      <form method="post" action={`${own.action}/${p.public ? "private" : "public"}`}>
        <button type="submit">{p.public ? "Make it members only" : "Let anyone see its boards"}</button>
      </form>
    </section>
  );
}
