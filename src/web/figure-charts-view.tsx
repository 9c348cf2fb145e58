// A group's largest figures as cards with their charts of the chosen range (the group's list page,
// page 1): the page charts a handful of figures, never every figure it lists (issues 22, 40).
import { Chart, type ChartPoint } from "./chart.tsx";
import { esc } from "./layout.tsx";
import { formatDay, formatValue } from "./format.ts";
import { ItemLabel, lifetimeText, sinceText, type StatsView } from "./stats-view.tsx";
import { query } from "./find-view.tsx";
import type { KeyFigure } from "./key-figure.ts";
import { RangeTabs } from "./range-tabs.tsx";

type ChartsView = Pick<
  StatsView,
  "catalogue" | "items" | "itemImages" | "path" | "selected" | "profiles" | "range" | "period"
>;

/** The cards, and the range's tabs (each keeping the list it is on: `here` is its query string). */
export function FigureCharts(props: {
  view: ChartsView;
  id: string;
  figures: readonly KeyFigure[];
  days: Map<string, ChartPoint[]>;
  /** The list's own parameters, kept by the range's links (already escaped for an attribute). */
  keep: string;
}): JSX.Element {
  const { view } = props;
  // Every chart names the same days in its tooltips: each day's words are made once.
  const words = new Map<string, string>();
  const dayText = (day: string) => words.get(day) ?? (words.set(day, formatDay(day)), words.get(day)!);
  return (
    <section aria-labelledby={`${props.id}-charts`}>
      <h3 id={`${props.id}-charts`}>The largest, day by day</h3>
      <RangeTabs
        label="Chart range"
        range={view.range}
        href={(days) => {
          const base = query(view, { range: days });
          return `${base}${base.includes("?") ? "&amp;" : "?"}${props.keep}#${props.id}-charts`;
        }}
      />
      <ul class="figures">
        {props.figures.map((f, k) => {
          const points = props.days.get(f.key);
          return (
            <li data-key={f.key}>
              <ItemLabel view={view} f={f} />
              <span class="value">{esc(lifetimeText(view.catalogue, f))}</span>
              <span class="since">{esc(sinceText(f.kind, f.lifetime))}</span>
              {points?.length ? (
                <Chart
                  id={`${props.id}-c${k}`}
                  label={f.label}
                  from={view.range.from}
                  to={view.range.to}
                  points={points}
                  kind={f.kind as "count" | "max" | "min" | "gauge"}
                  fromZero={f.kind === "count"}
                  format={(v) => formatValue(view.catalogue, f.unit, v)}
                  dayText={dayText}
                />
              ) : (
                <p class="since">Nothing recorded in these {String(view.range.days)} days.</p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
