// Periods on the statistics page (issue 16): the chosen period (day, week, month or year) so far
// beside the same stretch of the one before (issue 34: a Wednesday's week against last week's
// Monday to Wednesday), every key folded by its kind, with the change between them, better or
// worse by kind (a lower fastest time is better) in colour and in words.
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { Period, PeriodKey, PeriodTotals } from "../stats/periods.ts";
import { esc } from "./layout.tsx";
import { formatDay, formatValue } from "./format.ts";

const NAMES: Record<Period, { tab: string; current: string; previous: string; unit: string }> = {
  day: { tab: "Day", current: "Today", previous: "Yesterday", unit: "day" },
  week: { tab: "Week", current: "This week", previous: "Last week", unit: "week" },
  month: { tab: "Month", current: "This month", previous: "Last month", unit: "month" },
  year: { tab: "Year", current: "This year", previous: "Last year", unit: "year" },
};

/** Whether a change is better for the player: a lower best time is, a higher anything else (decisions.md). */
export function judged(k: Pick<PeriodKey, "kind">, change: number | null): "better" | "worse" | null {
  if (change === null || change === 0) return null;
  return (k.kind === "min" ? change < 0 : change > 0) ? "better" : "worse";
}

const span = (from: string, to: string) => (from === to ? formatDay(from) : `${formatDay(from)} to ${formatDay(to)}`);

/** The change against the same stretch in the key's unit with its sign; a count's also as a share. */
function changeText(catalogue: Catalogue, k: PeriodKey): string {
  const change = k.changeSameStretch;
  if (change === null) return k.value === null ? "none yet" : "new";
  if (change === 0) return "same";
  const sign = change > 0 ? "+" : "\u2212";
  const amount = `${sign}${formatValue(catalogue, k.unit, Math.abs(change))}`;
  const before = k.previousSameStretch;
  if (k.kind !== "count" || !before || before < 0) return amount;
  const share = Math.round((Math.abs(change) / before) * 100);
  // A change too small to round to 1% is not "+0%" (no change reads "same").
  return share === 0 ? `${amount} (under 1%)` : `${amount} (${sign}${share}%)`;
}

const CUES = { better: "\u25b2 better", worse: "\u25bc worse" } as const;

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
            {sameDays(totals) ? "" : <small class="muted"> (same days)</small>}
          </th>
          <th scope="col" class="num">
            Change
          </th>
        </tr>
      </thead>
      <tbody>
        {props.order(totals.keys).map((k) => (
          <tr data-key={k.key}>
            <th scope="row" title={k.key} tabindex="0">
              {esc(k.label)}
              {k.kind === "count" ? "" : <small class="muted"> {esc(kindWords[k.kind])}</small>}
            </th>
            <td class="num">{esc(value(k, k.value))}</td>
            <td class="num">{esc(value(k, k.previousSameStretch))}</td>
            {changeCell(catalogue, k)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function changeCell(catalogue: Catalogue, k: PeriodKey): JSX.Element {
  const judgement = judged(k, k.changeSameStretch);
  return (
    <td class={`num change${judgement ? ` ${judgement}` : ""}`}>
      {esc(changeText(catalogue, k))}
      {judgement ? <span class="cue">{CUES[judgement]}</span> : ""}
    </td>
  );
}

/** True when the stretch compared is the whole previous period (a Sunday's week, a day, ...). */
const sameDays = (t: PeriodTotals) => t.previousSameStretch.to === t.previous.to;

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

/** The period's tabs: day, week, month, year. */
export function PeriodTabs(props: { period: Period; link: (period: Period) => string }): JSX.Element {
  return (
    <nav aria-label="Period">
      <ul class="tabs">
        {(Object.keys(NAMES) as Period[]).map((p) => (
          <li>
            <a href={props.link(p)} aria-current={p === props.period ? "page" : undefined}>
              {NAMES[p].tab}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Periods(view: PeriodsView): JSX.Element {
  const first = view.scopes[0]!.totals;
  const names = NAMES[view.period];
  return (
    <>
      <PeriodTabs period={view.period} link={view.link} />
      <p class="muted">
        {esc(names.current)} so far ({esc(span(first.from, first.to))}) against{" "}
        {sameDays(first)
          ? `${esc(names.previous.toLowerCase())} (${esc(span(first.previousSameStretch.from, first.previousSameStretch.to))})`
          : `the same days of ${esc(names.previous.toLowerCase())} (${esc(span(first.previousSameStretch.from, first.previousSameStretch.to))}), like with like`}
        .
      </p>
      {view.scopes.map((s) => (
        <PeriodTable catalogue={view.catalogue} caption={s.caption} totals={s.totals} order={view.order} />
      ))}
      {/* After the table, not before it: the summary's figures reach a phone's first screen (issue 34). */}
      <p class="muted">
        A count adds up its days, a best keeps the best day (a lower time is better), a reading is the last one taken.
      </p>
    </>
  );
}
