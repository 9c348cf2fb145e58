// A key's daily chart as server-rendered SVG: one x position per calendar day of the range, a line
// through each stretch of consecutive observed days, a dot for a day standing alone. A day without
// an observation is a gap in the line, never a zero (contract 2.3 rule 5).
import Html from "@kitajs/html";
import { esc } from "./layout.tsx";
import { formatDay } from "./format.ts";

export type ChartPoint = { day: string; value: number };

const W = 300;
const H = 96;
const TOP = 14;
const BOTTOM = 80;

/** Days since 1970-01-01 of a calendar day "YYYY-MM-DD" (cheaper than parsing a Date per point). */
const epochDay = (day: string) => Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / 86_400_000;
const r1 = (n: number) => Math.round(n * 10) / 10;

/** Stretches of consecutive days. */
export function runsOf(points: ChartPoint[]): ChartPoint[][] {
  const runs: ChartPoint[][] = [];
  let previous = NaN;
  for (const p of points) {
    const index = epochDay(p.day);
    if (index === previous + 1) runs.at(-1)!.push(p);
    else runs.push([p]);
    previous = index;
  }
  return runs;
}

export type ChartProps = {
  id: string;
  label: string;
  from: string;
  to: string;
  points: ChartPoint[];
  /** count keys start at zero; a best or a gauge is scaled to its own range */
  fromZero: boolean;
  format: (value: number) => string;
};

export function Chart(p: ChartProps): JSX.Element {
  const start = epochDay(p.from);
  const span = Math.max(1, epochDay(p.to) - start);
  const values = p.points.map((q) => q.value);
  const hi = Math.max(...values);
  const lo = p.fromZero ? Math.min(0, ...values) : Math.min(...values);
  const range = hi - lo || 1;
  const x = (day: string) => r1(((epochDay(day) - start) / span) * W);
  const y = (v: number) => r1(BOTTOM - ((v - lo) / range) * (BOTTOM - TOP));
  const runs = runsOf(p.points);
  const best = p.points.reduce((a, b) => (b.value > a.value ? b : a));
  const summary =
    `${p.label} per day from ${formatDay(p.from)} to ${formatDay(p.to)}: ${p.points.length} day${p.points.length === 1 ? "" : "s"} recorded` +
    `${runs.length > 1 ? ` in ${runs.length} stretches` : ""}; highest ${p.format(best.value)} on ${formatDay(best.day)}.`;
  const paths = runs.filter((r) => r.length > 1).map((r) => "M" + r.map((q) => `${x(q.day)} ${y(q.value)}`).join("L"));
  const dots = runs.filter((r) => r.length === 1).map((r) => r[0]!);
  return (
    <figure class="chart">
      <figcaption>{esc(p.label)}, per day</figcaption>
      <svg
        viewBox={`-2 0 ${W + 4} ${H}`}
        role="img"
        aria-labelledby={`${p.id}-t`}
        data-points={String(p.points.length)}
        data-gaps={String(runs.length - 1)}
        data-days={String(span + 1)}
      >
        <title id={`${p.id}-t`}>{esc(summary)}</title>
        <line class="axis" x1="0" y1={String(BOTTOM)} x2={String(W)} y2={String(BOTTOM)} />
        <text x="0" y="10">
          {esc(p.format(hi))}
        </text>
        <text x="0" y={String(H - 2)}>
          {esc(formatDay(p.from))}
        </text>
        <text x={String(W)} y={String(H - 2)} text-anchor="end">
          {esc(formatDay(p.to))}
        </text>
        {paths.length ? <path class="line" d={paths.join("")} /> : ""}
        {dots.map((q) => (
          <circle class="dot" cx={String(x(q.day))} cy={String(y(q.value))} r="2" />
        ))}
      </svg>
    </figure>
  );
}
