// The maintainers' page's Boards section (issue 35): the figures held out of the ranking for
// passing their board's plausibility bound, the players excluded from every board, a form to
// exclude a player by name, and per player "Let rank again". Names are shown here, to the operator
// only, because exclusion is by name (as `tally boards held` prints them); nothing else about a
// player is: no id, no other figure. Server-rendered, no script; every form carries the CSRF field.
import { esc, sync } from "../web/layout.tsx";
import type { HeldFigure } from "../boards/operator.ts";
import { windowWords } from "../boards/windows.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { when } from "./problem-parts.tsx";

export type BoardsAdminView = {
  held: HeldFigure[];
  excluded: { name: string | null; at: number }[];
  /** How many of each a listing shows at most. */
  listed: number;
  csrf: string;
  /** A figure in its board's unit, in words. */
  format: (unit: string, value: bigint) => string;
  done?: string;
  /** A refused form: its message, its stable code, and the name typed. */
  refused?: { code: string; message: string; name: string };
};

function Nav(p: { here: "reports" | "versions" | "boards" }): string {
  const link = (here: typeof p.here, href: string, words: string) =>
    p.here === here ? <strong>{words}</strong> : <a href={href}>{words}</a>;
  return sync(
    <nav class="admin-nav">
      {link("reports", "/admin/reports", "Problems")} · {link("versions", "/admin/versions", "Release health")} ·{" "}
      {link("boards", "/admin/boards", "Boards")}
    </nav>,
  );
}

/** One player's form: exclude or let rank again, by name. */
function PlayerAction(p: { action: "exclude" | "include"; name: string; csrf: string }): string {
  return sync(
    <form class="admin-action" method="post" action={`/admin/boards/${p.action}`}>
      <input type="hidden" name="csrf" value={p.csrf} />
      <input type="hidden" name="name" value={esc(p.name)} />
      <button type="submit" aria-label={esc(`${p.action === "exclude" ? "Exclude" : "Let rank again"}: ${p.name}`)}>
        {p.action === "exclude" ? "Exclude" : "Let rank again"}
      </button>
    </form>,
  );
}

const gone = <span class="muted">An account since erased</span>;

export function BoardsAdminPage(v: BoardsAdminView): string {
  const excludedNames = new Set(v.excluded.map((e) => e.name));
  return AdminLayout({
    title: "Boards: held figures and exclusions",
    csrf: v.csrf,
    children: sync(
      <>
        {Nav({ here: "boards" }) as "safe"}
        <h1>Boards</h1>
        <p>
          A figure past its board's plausibility bound is held out of the ranking, and while a player holds one on a
          board none of their figures there rank. Look at each: let the player rank again, or exclude them. An excluded
          player's scores leave every board at once, their uploads rank nothing, and the mod tells them they are
          excluded. Letting a player rank again forgets their held figures; they rank from their next upload.
        </p>
        {v.done ? (
          <p class="note" role="status">
            {esc(v.done)}
          </p>
        ) : (
          ""
        )}
        {v.refused ? (
          <p class="note" role="alert" data-code={v.refused.code}>
            {esc(v.refused.message)}
          </p>
        ) : (
          ""
        )}
        <section class="admin-boards" aria-labelledby="exclude-h">
          <h2 id="exclude-h">Exclude a player</h2>
          <form class="admin-filters" method="post" action="/admin/boards/exclude">
            <input type="hidden" name="csrf" value={v.csrf} />
            <label>
              Player name{" "}
              <input
                name="name"
                required
                maxlength="16"
                autocomplete="off"
                spellcheck="false"
                value={esc(v.refused?.name ?? "")}
              />
            </label>
            <button type="submit">Exclude from every board</button>
          </form>
        </section>
        <section class="admin-boards" aria-labelledby="held-h">
          <h2 id="held-h">Held figures</h2>
          {v.held.length === 0 ? (
            <p class="muted">No figure is held.</p>
          ) : (
            <div class="admin-scroll">
              <table class="admin-held">
                <thead>
                  <tr>
                    <th>Player</th>
                    <th>Board</th>
                    <th>Window</th>
                    <th class="num">Figure</th>
                    <th>Held since</th>
                    <th>Review</th>
                  </tr>
                </thead>
                <tbody>
                  {v.held.map((h) => (
                    <tr>
                      <td>{h.name === null ? gone : esc(h.name)}</td>
                      <td>{h.board ? esc(h.board.title) : <span class="muted">A board no longer kept</span>}</td>
                      <td>{h.window ? esc(windowWords(h.window)) : esc(h.windowId)}</td>
                      <td class="num">{esc(h.board ? v.format(h.board.unit, h.value) : h.value.toString())}</td>
                      <td class="admin-when">{when(h.at)}</td>
                      <td>
                        {h.name === null
                          ? ""
                          : ((PlayerAction({ action: "include", name: h.name, csrf: v.csrf }) +
                              (excludedNames.has(h.name)
                                ? ""
                                : PlayerAction({ action: "exclude", name: h.name, csrf: v.csrf }))) as "safe")}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {v.held.length >= v.listed ? <p class="muted">The newest {String(v.listed)} are shown.</p> : ""}
        </section>
        <section class="admin-boards" aria-labelledby="excluded-h">
          <h2 id="excluded-h">Excluded players</h2>
          {v.excluded.length === 0 ? (
            <p class="muted">Nobody is excluded.</p>
          ) : (
            <table class="admin-excluded">
              <thead>
                <tr>
                  <th>Player</th>
                  <th>Excluded since</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {v.excluded.map((e) => (
                  <tr>
                    <td>{e.name === null ? gone : esc(e.name)}</td>
                    <td class="admin-when">{when(e.at)}</td>
                    <td>
                      {e.name === null
                        ? ""
                        : (PlayerAction({ action: "include", name: e.name, csrf: v.csrf }) as "safe")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {v.excluded.length >= v.listed ? <p class="muted">The newest {String(v.listed)} are shown.</p> : ""}
        </section>
      </>,
    ),
  });
}
