// The maintainers' page: the sign-in form, the list of problems (by count, then last seen) with
// filters and a 30-day sparkline each, and one problem in detail (daily chart, versions seen, state
// changes, the scrubbed samples, the actions). Server-rendered, no script; every form posts to
// this service (CSP form-action 'self') and carries the CSRF field. All report text is escaped
// and, being plain text since intake, has no control character or bidi override.
import type Html from "@kitajs/html";
import { esc, Layout, sync } from "../web/layout.tsx";
import { Chart, type ChartPoint } from "../web/chart.tsx";
import { formatDay, formatNumber } from "../web/format.ts";
import type { ListedProblem, Problem, ProblemEvent, Sample, ProblemFilter } from "./reports.query.ts";
import { distinctSamples, stateText, topFrame } from "./problems-list.ts";
import { versionRange } from "./versions.ts";
import { plainLine, plainText } from "./plain-text.ts";

const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
const stateClass = (p: Problem) =>
  p.state === "resolved" ? "resolved" : p.state === "muted" ? "muted" : p.regressedIn ? "regressed" : "open";

export function AdminLayout(props: Html.PropsWithChildren<{ title: string; csrf?: string }>): string {
  return Layout({
    title: props.title,
    noindex: true,
    children: sync(
      <div class="admin">
        {props.csrf ? (
          <form class="admin-signout" method="post" action="/admin/logout">
            <input type="hidden" name="csrf" value={props.csrf} />
            <button type="submit">Sign out</button>
          </form>
        ) : (
          ""
        )}
        {props.children as "safe"}
      </div>,
    ),
  });
}

export function LoginPage(p: { error?: string }): string {
  return AdminLayout({
    title: "Maintainers: sign in",
    children: sync(
      <section class="card admin-login">
        <h1>Bug reports: maintainers</h1>
        <p>
          Sign in with the service's <code>ADMIN_TOKEN</code>. The browser keeps a cookie for this page only (8 hours).
        </p>
        {p.error ? (
          <p class="note" role="alert">
            {esc(p.error)}
          </p>
        ) : (
          ""
        )}
        <form method="post" action="/admin/login">
          <label for="token">Admin token</label>
          <input id="token" name="token" type="password" autocomplete="current-password" required maxlength="256" />
          <button type="submit">Sign in</button>
        </form>
      </section>,
    ),
  });
}

/** 30 days of counts as a small line (a day without a report is a zero: nothing was reported). */
export function Sparkline(p: { id: number; days: ChartPoint[] }): string {
  const W = 120;
  const H = 24;
  const max = Math.max(1, ...p.days.map((d) => d.value));
  const step = W / Math.max(1, p.days.length - 1);
  const pts = p.days
    .map((d, i) => `${Math.round(i * step * 10) / 10},${Math.round((H - 2 - (d.value / max) * (H - 4)) * 10) / 10}`)
    .join(" ");
  const total = p.days.reduce((n, d) => n + d.value, 0);
  const busiest = p.days.reduce((a, b) => (b.value > a.value ? b : a), p.days[0]!);
  const summary = `${total} report${total === 1 ? "" : "s"} in the last ${p.days.length} days${total ? `; most on ${formatDay(busiest.day)} (${busiest.value})` : ""}`;
  return sync(
    <svg
      class="spark"
      viewBox={`0 0 ${W} ${H}`}
      width={String(W)}
      height={String(H)}
      role="img"
      aria-label={esc(summary)}
      data-total={String(total)}
    >
      <title>{esc(summary)}</title>
      <polyline points={pts} />
    </svg>,
  );
}

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
export function ProblemHead(p: { problem: Problem; link?: boolean }): string {
  const x = p.problem;
  const frame = topFrame(x);
  const what = esc(plainLine(x.exceptionType ?? x.title));
  return sync(
    <span class="admin-head">
      {p.link ? <a href={`/admin/reports/${x.number}`}>{what as "safe"}</a> : (what as "safe")}
      {frame ? <code class="admin-frame">at {esc(plainLine(frame))}</code> : ""}
    </span>,
  );
}

export function ListPage(v: ListView): string {
  const f = v.filter;
  return AdminLayout({
    title: "Bug reports",
    csrf: v.csrf,
    children: sync(
      <>
        <nav class="admin-nav">
          <strong>Problems</strong> · <a href="/admin/versions">Release health</a>
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

export type DetailView = {
  problem: Problem;
  days: ChartPoint[];
  from: string;
  to: string;
  versions: { version: string; count: number; lastSeenAt: number }[];
  events: ProblemEvent[];
  samples: Sample[];
  csrf: string;
  done?: string;
  /** The newest mod version known: what "Fixed in" offers. */
  newestVersion?: string;
};

function ActionForm(p: { id: number; action: string; csrf: string; label: string; children?: JSX.Element }): string {
  return sync(
    <form class="admin-action" method="post" action={`/admin/reports/${p.id}/${p.action}`}>
      <input type="hidden" name="csrf" value={p.csrf} />
      {(p.children ?? "") as "safe"}
      <button type="submit">{esc(p.label)}</button>
    </form>,
  );
}

const actionWords: Record<string, string> = {
  resolved: "Resolved in",
  reopened: "Reopened",
  muted: "Muted",
  regressed: "Regression: reported from",
};

export function DetailPage(v: DetailView): string {
  const p = v.problem;
  return AdminLayout({
    title: `Problem #${p.number}`,
    csrf: v.csrf,
    children: sync(
      <>
        <p>
          <a href="/admin/reports">All problems</a>
        </p>
        <h1 class="admin-problem-title">
          <span class="muted">#{String(p.number)}</span> {ProblemHead({ problem: p }) as "safe"}
        </h1>
        {p.exceptionType ? <p class="admin-title">{esc(plainLine(p.title))}</p> : ""}
        {v.done ? (
          <p class="note" role="status">
            {esc(v.done)}
          </p>
        ) : (
          ""
        )}
        <section class="card admin-actions" aria-label="Actions">
          <h2>Actions</h2>
          {
            ActionForm({
              id: p.number,
              action: "resolve",
              csrf: v.csrf,
              label: "Resolve",
              children: (
                <label>
                  Fixed in mod version{" "}
                  <input
                    name="version"
                    required
                    maxlength="64"
                    pattern="[0-9A-Za-z][0-9A-Za-z.+_\-]*"
                    placeholder="1.4.0"
                    value={esc(v.newestVersion ?? "")}
                  />
                </label>
              ),
            }) as "safe"
          }
          {p.state !== "open"
            ? (ActionForm({ id: p.number, action: "reopen", csrf: v.csrf, label: "Reopen" }) as "safe")
            : ""}
          {p.state !== "muted"
            ? (ActionForm({ id: p.number, action: "mute", csrf: v.csrf, label: "Mute" }) as "safe")
            : ""}
          <p class="muted">
            Resolved: reports from older versions are counted and do not reopen it. Muted: counted, never posted to the
            chat.
          </p>
        </section>
        <dl class="admin-facts">
          <dt>State</dt>
          <dd>
            <span class={`state ${stateClass(p)}`}>{esc(stateText(p))}</span>
          </dd>
          <dt>Reports</dt>
          <dd>
            {formatNumber(p.count)} (first {esc(when(p.firstSeenAt))}, last {esc(when(p.lastSeenAt))})
          </dd>
          <dt>Mod versions</dt>
          <dd>{esc(versionRange(p.minVersion, p.maxVersion))}</dd>
          <dt>Minecraft</dt>
          <dd>{esc(p.lastMinecraft)}</dd>
          <dt>Tool</dt>
          <dd>{esc(p.tool)}</dd>
          <dt>Grouped by</dt>
          <dd>
            <code>{esc(plainLine(p.exceptionType ?? p.signature).slice(0, 300))}</code>
          </dd>
          <dt>Chat thread</dt>
          <dd>
            {p.chatThreadId ? "yes" : "not yet"}
            {p.chatUncertainAt !== null
              ? "; the chat never answered a post (it may be there): it is posted once more after CHAT_UNCERTAIN_PAUSE_MS"
              : ""}
          </dd>
        </dl>
        <section>
          <h2>Daily reports</h2>
          {
            Chart({
              id: `p${p.id}`,
              label: "Reports",
              from: v.from,
              to: v.to,
              points: v.days,
              fromZero: true,
              format: (n) => formatNumber(n),
            }) as "safe"
          }
        </section>
        <section>
          <h2>Versions seen</h2>
          <table class="admin-versions">
            <thead>
              <tr>
                <th scope="col">Mod version</th>
                <th scope="col" class="num">
                  Reports
                </th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {v.versions.map((x) => (
                <tr>
                  <td>
                    <a href={`/admin/versions/${encodeURIComponent(x.version)}`}>{esc(x.version)}</a>
                  </td>
                  <td class="num">{formatNumber(x.count)}</td>
                  <td>{esc(when(x.lastSeenAt))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section>
          <h2>State changes</h2>
          {v.events.length ? (
            <ol class="admin-audit">
              {v.events.map((e) => (
                <li>
                  {esc(when(e.at))}: {esc(actionWords[e.action] ?? e.action)}
                  {e.version ? <strong> {esc(e.version)}</strong> : ""} <span class="muted">({esc(e.actor)})</span>
                </li>
              ))}
            </ol>
          ) : (
            <p class="muted">None yet: the problem has been open since its first report.</p>
          )}
        </section>
        <section>
          <h2>Latest reports (scrubbed)</h2>
          {distinctSamples(v.samples).map(({ sample: s, count }) => {
            const trace = s.stackTrace ? plainText(s.stackTrace) : "";
            const cut = trace.indexOf("\n");
            const first = cut < 0 ? trace : trace.slice(0, cut);
            const rest = cut < 0 ? "" : trace.slice(cut + 1);
            return (
              <article class="card admin-sample" data-count={String(count)}>
                <h3>
                  {esc(plainLine(s.title))}
                  {count > 1 ? <span class="admin-times"> ×{String(count)} identical</span> : ""}
                </h3>
                <p class="muted">
                  {count > 1 ? "newest " : ""}
                  {esc(when(s.receivedAt))} · mod {esc(s.modVersion)} · Minecraft {esc(s.minecraft)}
                  {s.loader ? ` · ${esc(s.loader)}` : ""}
                </p>
                {s.message ? <p class="admin-text">{esc(plainText(s.message))}</p> : ""}
                {s.steps ? (
                  <>
                    <h4>Steps</h4>
                    <p class="admin-text">{esc(plainText(s.steps))}</p>
                  </>
                ) : (
                  ""
                )}
                {first ? <p class="admin-trace-head">{esc(first)}</p> : ""}
                {rest ? <pre>{esc(rest)}</pre> : ""}
              </article>
            );
          })}
        </section>
      </>,
    ),
  });
}
