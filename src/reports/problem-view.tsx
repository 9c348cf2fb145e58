// One problem in detail: daily chart, versions seen, state changes, the scrubbed samples, and the
// maintainers' actions (each a form carrying the CSRF field). Server-rendered, no script.
import { esc, sync } from "../web/layout.tsx";
import { Chart, type ChartPoint } from "../web/chart.tsx";
import { formatNumber } from "../web/format.ts";
import type { Problem, ProblemEvent, Sample } from "./reports.query.ts";
import { distinctSamples, stateText } from "./problems-list.ts";
import { versionRange } from "./versions.ts";
import { plainLine, plainText } from "./plain-text.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { ProblemHead, stateClass, when } from "./problem-parts.tsx";

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
