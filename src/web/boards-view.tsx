// The boards' pages (issue 35): the list of boards, and one board's window as a table, 100 a page,
// with the viewer's own ranks pinned above it on their own view. Words first, ids one hover away.
import Html from "@kitajs/html";
import { Layout, type Preview } from "./layout.tsx";
import type { BoardPage } from "../boards/ranking.ts";

type Described = BoardPage["board"];
type Row = BoardPage["rows"][number];
export type Format = (unit: string, value: number) => string;

export function BoardsListPage(props: { boards: Described[] }): JSX.Element {
  const groups = [...new Set(props.boards.map((b) => b.group))];
  return (
    <Layout title="Boards" path="/boards" description="Opt-in boards of tally's players: kills, loot, dungeon runs.">
      <h1>Boards</h1>
      <p>
        Only players who turned boards on in the mod are ranked; a player is named only when their statistics page is
        findable. Weeks run Monday to Sunday in each player's own time zone.
      </p>
      {groups.map((g) => (
        <section class="board-group">
          <h2>{Html.escapeHtml(g.charAt(0).toUpperCase() + g.slice(1))}</h2>
          <ul class="board-list">
            {props.boards
              .filter((b) => b.group === g)
              .map((b) => (
                <li>
                  <a href={`/boards/${b.id}`} title={b.id}>
                    {Html.escapeHtml(b.title)}
                  </a>
                  {b.description ? <span class="muted"> — {Html.escapeHtml(b.description)}</span> : ""}
                </li>
              ))}
          </ul>
        </section>
      ))}
    </Layout>
  );
}

function Who(props: { row: Row }): JSX.Element {
  const r = props.row;
  const profile = r.cuteName ? <span class="muted"> ({Html.escapeHtml(r.cuteName)})</span> : "";
  if (r.name === null) return <span class="muted">A player</span>;
  return (
    <>
      {r.you ? (
        <strong>{Html.escapeHtml(r.name)} (you)</strong>
      ) : r.linked ? (
        <a href={`/u/${encodeURIComponent(r.name)}`}>{Html.escapeHtml(r.name)}</a>
      ) : (
        Html.escapeHtml(r.name)
      )}
      {profile}
    </>
  );
}

function Table(props: { rows: Row[]; unit: string; format: Format; caption: string }): JSX.Element {
  return (
    <table class="board-table">
      <caption>{Html.escapeHtml(props.caption)}</caption>
      <thead>
        <tr>
          <th scope="col" class="num">
            Rank
          </th>
          <th scope="col">Player</th>
          <th scope="col" class="num">
            Score
          </th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => (
          <tr class={r.you ? "you" : undefined}>
            <td class="num">{r.rank.toLocaleString("en-GB")}</td>
            <td>
              <Who row={r} />
            </td>
            <td class="num">{Html.escapeHtml(props.format(props.unit, r.value))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The group a group board belongs to, and the address of its page. */
export type GroupHeading = { title: string; public: boolean; href: string };

export function BoardPageView(props: {
  page: BoardPage;
  base: string;
  format: Format;
  group?: GroupHeading;
  /** The link preview of a player's place (their /u/<name>/boards/<id> address). */
  preview?: Preview;
  /** The owner's own view: how to share their place (its badge and card, rank-cards.routes.ts). */
  share?: ShareProps;
}): JSX.Element {
  const { page, base, format, group, preview, share } = props;
  const w = page.window;
  const link = (kind: string, at: string | null, p?: number) =>
    `${base}?window=${kind}${at ? `&at=${at}` : ""}${p && p > 1 ? `&page=${p}` : ""}`;
  const title = `${group ? `${group.title} · ` : ""}${page.board.title} · ${w.label}`;
  return (
    <Layout
      title={title}
      path={base}
      preview={preview}
      description={
        preview?.description ??
        `${page.board.title}, ${w.label}: ${page.total.toLocaleString("en-GB")} player${page.total === 1 ? "" : "s"} ranked on tally's opt-in boards.`
      }
    >
      <p class="crumbs">
        {group ? (
          <>
            <a href={group.href}>{Html.escapeHtml(group.title)}</a>
            {" · "}
          </>
        ) : (
          ""
        )}
        <a href="/boards">Boards</a>
      </p>
      <h1>{Html.escapeHtml(page.board.title)}</h1>
      {group ? (
        <p class="muted">
          Ranked among the members of {Html.escapeHtml(group.title)} who turned boards on
          {group.public ? " (a public group: anyone may see it)" : " (members only)"}.
        </p>
      ) : (
        ""
      )}
      <nav class="board-windows" aria-label="Window">
        {page.board.windows.map((k) => (
          <a href={link(k, null)} aria-current={k === w.kind ? "page" : undefined}>
            {k === "week" ? "This week" : k === "month" ? "This month" : "All time"}
          </a>
        ))}
      </nav>
      <h2>
        {Html.escapeHtml(w.label)}
        {w.kind !== "all" && !w.open ? <span class="muted"> (closed)</span> : ""}
      </h2>
      {w.kind === "all" ? (
        <p class="muted">All time includes lifetime totals imported before the player's first upload.</p>
      ) : (
        ""
      )}
      <nav class="board-steps" aria-label="Other windows">
        {w.previous ? <a href={link(w.kind, w.previous)}>← Earlier</a> : ""}
        {w.next ? <a href={link(w.kind, w.next)}>Later →</a> : ""}
      </nav>
      {page.me.map((m) =>
        // On the page shown already (a small board, or its first page): a line, not its rows twice.
        page.rows.some((r) => r.you && r.rank === m.rank) ? (
          <p>
            <strong>
              Your rank: #{m.rank} of {page.total.toLocaleString("en-GB")}
            </strong>
            <span class="muted"> (in bold below)</span>
          </p>
        ) : (
          <Table
            rows={m.rows}
            unit={page.board.unit}
            format={format}
            caption={`Your rank: #${m.rank} of ${page.total}`}
          />
        ),
      )}
      {page.rows.length === 0 ? (
        <p>Nobody is ranked in this window yet.</p>
      ) : (
        <Table
          rows={page.rows}
          unit={page.board.unit}
          format={format}
          caption={`${page.total.toLocaleString("en-GB")} ranked, page ${page.page} of ${page.pages}`}
        />
      )}
      <nav class="board-steps" aria-label="Pages">
        {page.page > 1 ? <a href={link(w.kind, w.at, page.page - 1)}>← Better ranks</a> : ""}
        {page.page < page.pages ? <a href={link(w.kind, w.at, page.page + 1)}>Next 100 →</a> : ""}
      </nav>
      {share && page.me.length > 0 && w.open && w.kind === page.board.windows[0] ? (
        <ShareRank {...share} board={page.board.id} title={page.board.title} />
      ) : (
        ""
      )}
    </Layout>
  );
}

type ShareProps = { baseUrl: string; name: string; findable: boolean };

/** The owner's place to share: the address whose preview is their card, and the badge's snippets. */
function ShareRank(props: ShareProps & { board: string; title: string }): JSX.Element {
  const path = `/u/${encodeURIComponent(props.name)}/boards/${encodeURIComponent(props.board)}`;
  const address = `${props.baseUrl}${path}`;
  const md = `[![${props.title.replace(/[[\]]/g, "")}](${address}/badge.svg)](${address})`;
  return (
    <section aria-labelledby="share-h" class="badges">
      <h2 id="share-h">Share your place</h2>
      {!props.findable ? (
        <p class="muted">
          Your place has a badge and a link preview only while your page is findable by name. Make it findable in the
          mod to share it.
        </p>
      ) : (
        <>
          <p class="muted">
            Paste this address into a chat and it shows your card with your place; anyone opening it sees the board.
            Turning boards off takes both away at once.
          </p>
          <pre>
            <code>{Html.escapeHtml(address)}</code>
          </pre>
          <p>
            <img src={`${path}/badge.svg`} alt={`${Html.escapeHtml(props.title)}: your place badge`} />
          </p>
          <p class="since">Badge, as Markdown</p>
          <pre>
            <code>{Html.escapeHtml(md)}</code>
          </pre>
        </>
      )}
    </section>
  );
}
