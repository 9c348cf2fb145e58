// Periods on the statistics page (issue 16): the chosen period (day, week, month or year) so far
// beside the whole one before it, every key folded by its kind, with the change between them.
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Period, PeriodKey, PeriodTotals } from "../stats/periods.ts";
import { esc } from "./layout.tsx";
import { formatDay, formatValue } from "./format.ts";

const NAMES: Record<Period, { tab: string; current: string; previous: string }> = {
  day: { tab: "Day", current: "Today", previous: "Yesterday" },
  week: { tab: "Week", current: "This week", previous: "Last week" },
  month: { tab: "Month", current: "This month", previous: "Last month" },
  year: { tab: "Year", current: "This year", previous: "Last year" },
};

const span = (from: string, to: string) => (from === to ? formatDay(from) : `${formatDay(from)} to ${formatDay(to)}`);

/** The change in the key's unit with its sign; a count's also as a share of the previous period. */
function changeText(catalogue: Catalogue, k: PeriodKey): string {
  if (k.change === null) return k.value === null ? "none yet" : "new";
  if (k.change === 0) return "same";
  const sign = k.change > 0 ? "+" : "\u2212";
  const amount = `${sign}${formatValue(catalogue, k.unit, Math.abs(k.change))}`;
  if (k.kind !== "count" || !k.previous || k.previous < 0) return amount;
  const share = Math.round((Math.abs(k.change) / k.previous) * 100);
  return `${amount} (${sign}${share}%)`;
}

function PeriodTable(props: {
  catalogue: Catalogue;
  caption: string;
  totals: PeriodTotals;
  order: (keys: PeriodKey[]) => PeriodKey[];
}): JSX.Element {
  const { totals, catalogue } = props;
  const names = NAMES[totals.period];
  if (totals.keys.length === 0)
    return (
      <p class="muted">
        {esc(props.caption)}: nothing recorded {esc(names.current.toLowerCase())} or {esc(names.previous.toLowerCase())}
        .
      </p>
    );
  const value = (k: PeriodKey, v: number | null) => (v === null ? "\u2013" : formatValue(catalogue, k.unit, v));
  return (
    <table class="periods" data-period={totals.period}>
      <caption>{esc(props.caption)}</caption>
      <thead>
        <tr>
          <th scope="col">Statistic</th>
          <th scope="col" class="num">
            {esc(names.current)}
          </th>
          <th scope="col" class="num">
            {esc(names.previous)}
          </th>
          <th scope="col" class="num">
            Change
          </th>
        </tr>
      </thead>
      <tbody>
        {props.order(totals.keys).map((k) => (
          <tr data-key={k.key}>
            <th scope="row">
              {esc(k.label)}
              {k.kind === "count" ? "" : <small class="muted"> {esc(kindWords[k.kind])}</small>}
            </th>
            <td class="num">{esc(value(k, k.value))}</td>
            <td class="num">{esc(value(k, k.previous))}</td>
            <td class={`num change${k.change === null || k.change === 0 ? "" : k.change > 0 ? " up" : " down"}`}>
              {esc(changeText(catalogue, k))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const kindWords: Record<PeriodKey["kind"], string> = {
  count: "total",
  max: "best",
  min: "best (lowest)",
  gauge: "last reading",
};

export type PeriodsView = {
  catalogue: Catalogue;
  period: Period;
  /** the link of each period's tab */
  link: (period: Period) => string;
  scopes: { caption: string; totals: PeriodTotals }[];
  /** orders a scope's keys as the page orders its figures */
  order: (keys: PeriodKey[]) => PeriodKey[];
};

export function Periods(view: PeriodsView): JSX.Element {
  const first = view.scopes[0]!.totals;
  const names = NAMES[view.period];
  return (
    <>
      <nav aria-label="Period">
        <ul class="tabs">
          {(Object.keys(NAMES) as Period[]).map((p) => (
            <li>
              <a href={view.link(p)} aria-current={p === view.period ? "page" : undefined}>
                {NAMES[p].tab}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p class="muted">
        {esc(names.current)} so far ({esc(span(first.from, first.to))}) against {esc(names.previous.toLowerCase())} (
        {esc(span(first.previous.from, first.previous.to))}). A count adds up its days, a best keeps the best day, a
        reading is the last one taken.
      </p>
      {view.scopes.map((s) => (
        <PeriodTable catalogue={view.catalogue} caption={s.caption} totals={s.totals} order={view.order} />
      ))}
    </>
  );
}
