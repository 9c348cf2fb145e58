// A month's or a year's recap (issue 35): the stored body in words. Keys get their labels here
// (describeKey, stats/labels.ts), numbers the page's formats (format.ts); the month's chart is the
// site's day chart (chart.tsx), the year's the same bars a month at a time.
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { ItemNamer } from "../items/item-names.ts";
import { describeKey } from "../stats/fold.ts";
import { distinctLabels } from "../stats/labels.ts";
import type { RecapBody, ScopeRecap } from "../recaps/recap-body.ts";
import { recapPeriod, steps } from "../recaps/recap-period.ts";
import { Chart } from "./chart.tsx";
import { formatDay, formatLength, formatNumber, formatValue } from "./format.ts";
import { esc, Layout, type Preview } from "./layout.tsx";
import { activityWords, change, dayWords, MONTHS, periodWords, previousWords, spanWords } from "./recap-words.ts";

export type RecapView = {
  catalogue: Catalogue;
  items?: ItemNamer;
  body: RecapBody;
  /** The page's title and its first heading (a share page names nobody). */
  title: string;
  path: string;
  preview?: Preview;
  /** A board's title by its id (a board the operator has since removed: undefined). */
  boardTitle?: (id: string) => string | undefined;
  /** The owner's page: the share form and the other periods. */
  owner?: {
    action: string;
    shared: string | null;
    periods: { period: string; href: string; current: boolean }[];
  };
};

function YearBars(p: { id: string; values: number[] }): JSX.Element {
  const W = 300;
  const BOTTOM = 84;
  const TOP = 16;
  const hi = Math.max(1, ...p.values);
  const step = W / 12;
  let bars = "";
  let columns = "";
  p.values.forEach((v, i) => {
    const x = Math.round((i + 0.5) * step * 10) / 10;
    const y = Math.round((BOTTOM - (v / hi) * (BOTTOM - TOP)) * 10) / 10;
    bars += `M${x} ${BOTTOM}V${v === 0 ? BOTTOM - 0.5 : y}`;
    columns += `<path d="M${i} 0v1"><title>${MONTHS[i]}: ${v} active day${v === 1 ? "" : "s"}</title></path>`;
  });
  const labels = MONTHS.map(
    (m, i) => `<text x="${Math.round((i + 0.5) * step * 10) / 10}" y="98" text-anchor="middle">${m.charAt(0)}</text>`,
  ).join("");
  return (
    <figure class="chart">
      <figcaption>Active days per month</figcaption>
      <svg viewBox={`-4 0 ${W + 8} 104`} role="img" aria-labelledby={`${p.id}-t`} data-kind="count">
        <title id={`${p.id}-t`}>
          {esc(`Active days per month: ${p.values.map((v, i) => `${MONTHS[i]} ${v}`).join(", ")}.`)}
        </title>
        <line class="grid" x1="0" y1={String(TOP)} x2={String(W)} y2={String(TOP)} />
        <line class="axis" x1="0" y1={String(BOTTOM)} x2={String(W)} y2={String(BOTTOM)} />
        <text class="high" x="0" y={String(TOP - 4)}>
          {esc(formatNumber(hi))}
        </text>
        {`<path class="bars" stroke-width="${Math.round((step - 4) * 10) / 10}" d="${bars}"></path>${labels}`}
        <g class="days" transform={`translate(0 0) scale(${step} ${BOTTOM})`}>
          {columns}
        </g>
      </svg>
    </figure>
  );
}

function Highlights(p: { v: RecapView; r: ScopeRecap; id: string; days: number }): JSX.Element {
  const { r } = p;
  const before = change(r.activeDays, r.previousActiveDays, formatNumber);
  const prev = previousWords(p.v.body.period);
  return (
    <ul class="figures recap-highlights">
      <li>
        <span class="label">Active days</span>
        <span class="value">
          {esc(formatNumber(r.activeDays))} <small>of {esc(formatNumber(p.days))}</small>
        </span>
        <span class={`since ${before.cls}`}>
          {esc(`${before.text} against ${prev} (${formatNumber(r.previousActiveDays)})`)}
        </span>
      </li>
      <li>
        <span class="label">Longest streak</span>
        <span class="value">
          {r.longestStreak
            ? `${esc(formatNumber(r.longestStreak.days))} day${r.longestStreak.days === 1 ? "" : "s"}`
            : "none"}
        </span>
        <span class="since">{r.longestStreak ? esc(spanWords(r.longestStreak.from, r.longestStreak.to)) : ""}</span>
      </li>
      <li>
        <span class="label">Longest session</span>
        <span class="value">{r.longestSession ? esc(formatLength(r.longestSession.ms)) : "none recorded"}</span>
        <span class="since">
          {r.longestSession
            ? `${esc(activityWords(r.longestSession.activity))}, ${esc(dayWords(r.longestSession.day))}`
            : ""}
        </span>
      </li>
      <li>
        <span class="label">Busiest day (most figures recorded)</span>
        <span class="value">{r.busiestDay ? esc(dayWords(r.busiestDay.day)) : "none"}</span>
        <span class="since">{r.busiestDay ? `${esc(formatNumber(r.busiestDay.figures))} figures recorded` : ""}</span>
      </li>
      <li>
        <span class="label">Personal bests set</span>
        <span class="value">{esc(formatNumber(r.personalBests.count))}</span>
        <span class="since">
          {r.personalBests.latest[0] ? `latest: ${esc(bestWords(p.v, r.personalBests.latest[0]))}` : ""}
        </span>
      </li>
    </ul>
  );
}

/** A personal best in words: "Fastest finish, F7: 3 min 35.467 s (25 October)". */
function bestWords(v: RecapView, e: ScopeRecap["personalBests"]["latest"][number]): string {
  const what = e.key ? describeKey(v.catalogue, e.key, v.items).label : "Personal best";
  const value = e.value === null ? "" : `: ${formatValue(v.catalogue, e.unit, e.value)}`;
  return `${what}${value} (${dayWords(e.day)})`;
}

/** The latest personal bests (more than one: the highlight names the latest). */
function Bests(p: { v: RecapView; r: ScopeRecap }): JSX.Element {
  const { latest, count } = p.r.personalBests;
  if (latest.length < 2) return "";
  return (
    <>
      <h3>Personal bests{count > latest.length ? `, the latest ${latest.length} of ${formatNumber(count)}` : ""}</h3>
      <ol class="timeline">
        {latest.map((e) => (
          <li data-kind="personal_best">{esc(bestWords(p.v, e))}</li>
        ))}
      </ol>
    </>
  );
}

function Gains(p: { v: RecapView; r: ScopeRecap; id: string }): JSX.Element {
  if (p.r.topGains.length === 0) return <p class="muted">No gains recorded in this period.</p>;
  return (
    <div class="recap-gains">
      {p.r.topGains.map((g, gi) => {
        const rows = distinctLabels(
          g.gains.map((x) => ({ ...x, label: describeKey(p.v.catalogue, x.key, p.v.items).label })),
        );
        const top = rows[0]!.value;
        return (
          <section aria-labelledby={`${p.id}-g${gi}`} class="card">
            <h3 id={`${p.id}-g${gi}`}>{esc(g.group)}</h3>
            <ul class="gains">
              {rows.map((x) => {
                const fmt = (n: number) => formatValue(p.v.catalogue, x.unit, n);
                const c = change(x.value, x.previous, fmt);
                const width = Math.max(2, Math.round((x.value / top) * 100));
                return (
                  <li>
                    <span class="what" title={x.key} tabindex="0">
                      {esc(x.label)}
                    </span>
                    <span class="amount">{esc(fmt(x.value))}</span>
                    <svg class="gain-bar" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">
                      <rect x="0" y="0" width={String(width)} height="6" rx="2" />
                    </svg>
                    <small class={c.cls}>
                      {esc(c.text)}
                      {x.previous === null
                        ? ` (none in ${esc(previousWords(p.v.body.period))})`
                        : ` against ${esc(previousWords(p.v.body.period))} (${esc(fmt(x.previous))})`}
                    </small>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

function Scope(p: { v: RecapView; r: ScopeRecap; id: string; heading: string; days: number }): JSX.Element {
  const { body } = p.v;
  const period = recapPeriod(body.period)!;
  const at = steps(period);
  const chart =
    period.kind === "month" ? (
      p.r.perStep.some((n) => n > 0) ? (
        Chart({
          id: `${p.id}-chart`,
          label: "Figures recorded",
          from: body.from,
          to: body.to,
          kind: "count",
          fromZero: true,
          points: at.map((day, i) => ({ day, value: p.r.perStep[i]! })).filter((q) => q.value > 0),
          format: (n) => formatNumber(n),
        })
      ) : (
        ""
      )
    ) : (
      <YearBars id={`${p.id}-chart`} values={p.r.perStep} />
    );
  return (
    <section aria-labelledby={`${p.id}-h`} class="recap-scope">
      <h2 id={`${p.id}-h`}>{esc(p.heading)}</h2>
      <Highlights v={p.v} r={p.r} id={p.id} days={p.days} />
      <div class="card recap-chart">
        <h3>{period.kind === "month" ? "Figures recorded per day" : "Active days per month"}</h3>
        {chart as "safe"}
      </div>
      <h3>Top gains</h3>
      <Gains v={p.v} r={p.r} id={p.id} />
      <Bests v={p.v} r={p.r} />
    </section>
  );
}

export function RecapPage(v: RecapView): JSX.Element {
  const { body } = v;
  const p = recapPeriod(body.period)!;
  const span = Math.round((Date.parse(p.to) - Date.parse(p.from)) / 86_400_000) + 1;
  return (
    <Layout title={v.title} path={v.path} noindex preview={v.preview}>
      <article class="recap">
        <h1>{esc(v.title)}</h1>
        <p class="muted">
          {esc(formatDay(body.from))} to {esc(formatDay(body.to))}, days of the player's own time zone. Changes are
          against the whole {p.kind === "month" ? "month" : "year"} before.
        </p>
        {v.owner ? <Owner o={v.owner} /> : ""}
        <Scope v={v} r={body.account} id="account" heading="Whole account" days={span} />
        {body.profiles.map((x, i) => (
          <Scope v={v} r={x.recap} id={`profile-${i}`} heading={`Profile ${x.cuteName}`} days={span} />
        ))}
        {/* Board placements (src/boards/placements.ts), each board by its title. */}
        {body.boards && body.boards.length > 0 ? (
          <section aria-labelledby="boards-h">
            <h2 id="boards-h">Board placements</h2>
            <ul>
              {body.boards.map((b) => (
                <li>
                  {esc(
                    `${v.boardTitle?.(b.board) ?? "A board no longer kept"}: #${formatNumber(b.rank)} of ${formatNumber(b.of)}${b.at && b.at !== body.period ? ` (${periodWords(b.at)})` : ""}`,
                  )}
                </li>
              ))}
            </ul>
          </section>
        ) : (
          ""
        )}
      </article>
    </Layout>
  );
}

function Owner(p: { o: NonNullable<RecapView["owner"]> }): JSX.Element {
  const { o } = p;
  return (
    <div class="card recap-owner">
      <p>
        {o.shared ? (
          <>
            Shared: anyone with <a href={o.shared}>this link</a> sees this recap, without your name.
          </>
        ) : (
          "Only you can see this recap. Sharing makes a link of its own, which you can stop at any time."
        )}
      </p>
      <form method="post" action={o.action}>
        <input type="hidden" name="do" value={o.shared ? "revoke" : "share"} />
        <button type="submit">{o.shared ? "Stop sharing" : "Share this recap"}</button>
      </form>
      {o.periods.length > 1 ? (
        <nav aria-label="Other recaps">
          <ul class="tabs">
            {o.periods.map((x) => (
              <li>
                <a href={x.href} aria-current={x.current ? "page" : undefined}>
                  {esc(periodWords(x.period))}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : (
        ""
      )}
    </div>
  );
}
