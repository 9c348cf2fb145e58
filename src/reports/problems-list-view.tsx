// The maintainers' list of problems (regressions first, then by count and last seen) with its
// filters and search, a 30-day sparkline each. Server-rendered, no script.
import { esc, sync } from "../web/layout.tsx";
import type { ChartPoint } from "../web/chart.tsx";
import { formatNumber } from "../web/format.ts";
import type { ListedProblem, ProblemFilter } from "./problems-list.query.ts";
import { stateText } from "./problems-list.ts";
import { versionRange } from "./versions.ts";
import { plainLine } from "./plain-text.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { ProblemHead, Sparkline, stateClass, when } from "./problem-parts.tsx";

export type ListView = {
  problems: ListedProblem[];
  days: Map<number, ChartPoint[]>;
  filter: ProblemFilter;
  choices: { versions: string[]; tools: string[] };
  csrf: string;
  chatNote?: string;
  /** Days the "recent" count covers. */
  recentDays: number;
};

function option(value: string, label: string, current: string | undefined) {
  return (
    <option value={esc(value)} selected={current === value || (!current && value === "")}>
      {esc(label)}
    </option>
  );
}

/** The exception and where in the mod's own code it was thrown (or the grouped message). */
export function ListPage(v: ListView): string {
  const f = v.filter;
  return AdminLayout({
    title: "Bug reports",
    csrf: v.csrf,
    children: sync(
      <>
        <nav class="admin-nav">
          <strong>Problems</strong> · <a href="/admin/versions">Release health</a> · <a href="/admin/boards">Boards</a>
        </nav>
        <h1>Bug reports</h1>
        {v.chatNote ? (
          <p class="note" role="status">
            {esc(v.chatNote)}
          </p>
        ) : (
          ""
        )}
        <form class="admin-filters" method="get" action="/admin/reports">
          <label>
            Search{" "}
            <input
              type="search"
              name="q"
              value={esc(f.text ?? "")}
              maxlength="100"
              placeholder="exception, class, title"
            />
          </label>
          <label>
            State{" "}
            <select name="state">
              {option("", "any", f.state)}
              {option("open", "open", f.state)}
              {option("regressed", "regressed", f.state)}
              {option("resolved", "resolved", f.state)}
              {option("muted", "muted", f.state)}
            </select>
          </label>
          <label>
            Tool{" "}
            <select name="tool">
              {option("", "any", f.tool)}
              {v.choices.tools.map((t) => option(t, t, f.tool))}
            </select>
          </label>
          <label>
            Mod version{" "}
            <select name="version">
              {option("", "any", f.version)}
              {v.choices.versions.map((t) => option(t, t, f.version))}
            </select>
          </label>
          <button type="submit">Filter</button>
        </form>
        <p class="muted">
          {String(v.problems.length)} problem{v.problems.length === 1 ? "" : "s"}: regressions first, then most reported
          in the last {String(v.recentDays)} days.
        </p>
        <div class="admin-scroll">
          <table class="admin-problems">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Problem</th>
                <th scope="col">State</th>
                <th scope="col" class="num">
                  Reports
                </th>
                <th scope="col">Last 30 days</th>
                <th scope="col">First and last seen</th>
                <th scope="col">Versions</th>
              </tr>
            </thead>
            <tbody>
              {v.problems.map((p) => (
                <tr data-problem={String(p.number)}>
                  <td>{String(p.number)}</td>
                  <td>
                    {ProblemHead({ problem: p, link: true }) as "safe"}
                    <span class="admin-title muted">
                      {p.exceptionType ? `${esc(plainLine(p.title))} · ` : ""}
                      {esc(p.tool)}
                    </span>
                  </td>
                  <td>
                    <span class={`state ${stateClass(p)}`}>{esc(stateText(p))}</span>
                  </td>
                  <td class="num">
                    {formatNumber(p.count)}
                    <span class="admin-title muted">{formatNumber(p.recent)} lately</span>
                  </td>
                  <td>{Sparkline({ id: p.id, days: v.days.get(p.id) ?? [] }) as "safe"}</td>
                  <td class="admin-when">
                    {esc(when(p.firstSeenAt))}
                    <br />
                    {esc(when(p.lastSeenAt))}
                  </td>
                  <td>{esc(versionRange(p.minVersion, p.maxVersion))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {v.problems.length ? "" : <p>No problem matches.</p>}
      </>,
    ),
  });
}
