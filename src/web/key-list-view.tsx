// A list of figures (/u/<name>?scope=p&group=<slug>&q=<words>&sort=<order>&page=N): one group's, or
// every group's that match a search (issue 34: find things), a page at a time, each figure with its
// lifetime figure and the period's change. The statistics page lists each group's few largest.
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { PeriodKey, PeriodTotals } from "../stats/periods.ts";
import { esc, Layout } from "./layout.tsx";
import { ItemLabel, lifetimeText, type StatsView } from "./stats-view.tsx";
import { FindForm, query } from "./find-view.tsx";
import { groupSlug, type findFigures, type ListQuery } from "./key-list.ts";
import { changeCell, PeriodTabs } from "./period-view.tsx";
import { formatValue } from "./format.ts";
import type { KeyFigure } from "./key-figure.ts";
import type { ChartPoint } from "./chart.tsx";
import { FigureCharts } from "./figure-charts-view.tsx";

export type KeyListView = Pick<
  StatsView,
  "title" | "heading" | "path" | "noindex" | "selected" | "profiles" | "range" | "period" | "itemImages" | "items"
> & {
  catalogue: Catalogue;
  scope: "p" | "a";
  ask: ListQuery;
  list: NonNullable<ReturnType<typeof findFigures>>;
  /** The period of the page's figures, by key (absent: nothing this period or the one before). */
  changes: Map<string, PeriodKey>;
  period: PeriodTotals["period"];
  /** A group's first page: its few largest figures, charted over the range, with their days. */
  charted: readonly KeyFigure[];
  days: Map<string, ChartPoint[]>;
};

const SORT_WORDS = { name: "by name", value: "largest first", change: "largest rise first" } as const;

export function KeyListPage(view: KeyListView): JSX.Element {
  const { list, ask } = view;
  const slug = list.group === null ? undefined : groupSlug(list.group);
  /** This list with another page, order or period (the search words kept). */
  const link = (change: { page?: number; sort?: string; period?: PeriodTotals["period"] }) => {
    const base = query(
      { ...view, period: change.period ?? view.period },
      slug ? { group: { scope: view.scope, slug, page: change.page } } : {},
    );
    const extra = new URLSearchParams();
    if (!slug) {
      extra.set("scope", view.scope);
      if (change.page && change.page > 1) extra.set("page", String(change.page));
    }
    if (ask.q) extra.set("q", ask.q);
    extra.set("sort", change.sort ?? ask.sort);
    const more = extra.toString().replaceAll("&", "&amp;");
    return `${base}${base.includes("?") ? "&amp;" : "?"}${more}#list`;
  };
  const where = view.scope === "a" ? "whole account" : view.selected ? `profile ${view.selected.cuteName}` : "profile";
  const back = `${query(view, {})}#${slug ? `${view.scope}-${slug}` : "find-h"}`;
  const value = (k: PeriodKey | undefined, unit: string) =>
    k?.value === null || k === undefined ? "\u2013" : formatValue(view.catalogue, unit, k.value);
  return (
    <Layout title={view.title} noindex={view.noindex}>
      <h1>{esc(view.heading)}</h1>
      <p>
        <a href={back}>Back to the statistics page</a>
      </p>
      <FindForm view={view} scope={view.scope} ask={ask} />
      <h2 id="list">
        {list.group === null ? "Figures" : esc(list.group)} ({esc(where)}){ask.q ? <>: “{esc(ask.q)}”</> : ""}:{" "}
        {String(list.total)} {list.total === 1 ? "figure" : "figures"}
      </h2>
      <PeriodTabs period={view.period} link={(period) => link({ period, page: list.page })} />
      <p class="muted">
        {ask.sort === "change" && list.total > list.figures.length
          ? `The ${list.figures.length} largest, largest rise first (narrow the search to order others).`
          : `Page ${list.page} of ${list.pages}, ${SORT_WORDS[ask.sort]}.`}{" "}
        Sort:{" "}
        {(["name", "value", "change"] as const).map((s, i) => (
          <>
            {i > 0 ? " · " : ""}
            {s === ask.sort ? <strong>{SORT_WORDS[s]}</strong> : <a href={link({ sort: s })}>{SORT_WORDS[s]}</a>}
          </>
        ))}
      </p>
      {list.figures.length === 0 ? (
        <p class="muted">No figure matches.</p>
      ) : (
        <table class="key-list reflow">
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col" class="num">
                Lifetime
              </th>
              <th scope="col" class="num">
                This {view.period}
              </th>
              <th scope="col" class="num">
                Change
              </th>
            </tr>
          </thead>
          <tbody>
            {list.figures.map((f) => {
              const k = view.changes.get(f.key);
              return (
                <tr data-key={f.key}>
                  <th scope="row">
                    <ItemLabel view={view} f={f} />
                    {list.group === null ? <small class="muted"> {esc(f.group)}</small> : ""}
                  </th>
                  <td class="num">{esc(lifetimeText(view.catalogue, f))}</td>
                  <td class="num">{esc(value(k, f.unit))}</td>
                  {k ? changeCell(view.catalogue, k) : <td class="num change">–</td>}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {view.charted.length > 0 && slug ? (
        <FigureCharts
          view={view}
          id={`${view.scope}-${slug}`}
          figures={view.charted}
          days={view.days}
          keep={`scope=${view.scope}&amp;group=${slug}`}
        />
      ) : (
        ""
      )}
      {list.pages > 1 ? (
        <nav aria-label="Pages">
          <ul class="tabs">
            {list.page > 1 ? (
              <li>
                <a href={link({ page: list.page - 1 })} rel="prev">
                  Previous
                </a>
              </li>
            ) : (
              ""
            )}
            <li>
              <span class="muted">
                {String(list.page)} / {String(list.pages)}
              </span>
            </li>
            {list.page < list.pages ? (
              <li>
                <a href={link({ page: list.page + 1 })} rel="next">
                  Next
                </a>
              </li>
            ) : (
              ""
            )}
          </ul>
        </nav>
      ) : (
        ""
      )}
    </Layout>
  );
}
