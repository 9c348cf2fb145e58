import { esc } from "./layout.tsx";
import { formatDay } from "./format.ts";

/** One observed day; a gauge's day also has its low and high (the gauge row keeps them). */
export type ChartPoint = { day: string; value: number; low?: number; high?: number };

const W = 300;
const H = 112;
/** The plot runs from TOP (its high gridline) to BOTTOM (its low gridline, the axis). */
const TOP = 16;
const BOTTOM = 84;

/** Days since 1970-01-01 of a calendar day "YYYY-MM-DD" (cheaper than parsing a Date per point). */
const epochDay = (day: string) => Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / 86_400_000;
const r1 = (n: number) => Math.round(n * 10) / 10;

export type ChartProps = {
  id: string;
  label: string;
  from: string;
  to: string;
  points: ChartPoint[];
  /**
   * How the days are drawn: a count as bars from zero, a gauge as a line with the day's low-high
   * band, a max or min as a point per day (each is that day's best, not a level between days).
   * Without it: bars when `fromZero`, else a line.
   */
  kind?: "count" | "max" | "min" | "gauge";
  /** count keys start at zero; a best or a gauge is scaled to its own range */
  fromZero: boolean;
  format: (value: number) => string;
  /** the day's words, when the caller keeps them for every chart (formatDay otherwise) */
  dayText?: (day: string) => string;
};

export function Chart(p: ChartProps): JSX.Element {
  const kind = p.kind ?? (p.fromZero ? "count" : "gauge");
  const start = epochDay(p.from);
  const span = Math.max(1, epochDay(p.to) - start);
  const n = p.points.length;
  // One pass for each point's day index and the extremes (a year of 40 keys is 12 000 points).
  const at = new Array<number>(n);
  let hi = -Infinity;
  let lo = Infinity;
  let best = p.points[0]!;
  let least = p.points[0]!;
  for (let i = 0; i < n; i++) {
    const q = p.points[i]!;
    at[i] = epochDay(q.day) - start;
    if (q.value > best.value) best = q;
    if (q.value < least.value) least = q;
    const top = q.high ?? q.value;
    const bottom = q.low ?? q.value;
    if (top > hi) hi = top;
    if (bottom < lo) lo = bottom;
  }
  if (p.fromZero || kind === "count") {
    lo = Math.min(0, lo);
    hi = Math.max(0, hi);
  }
  const range = hi - lo || 1;
  const x = (i: number) => r1((at[i]! / span) * W);
  const y = (v: number) => r1(BOTTOM - ((v - lo) / range) * (BOTTOM - TOP));
  // Each stretch of consecutive days: a gauge's line and band run through it; a day alone is a dot.
  let line = "";
  let band = "";
  let marks = "";
  let runs = 0;
  // A bar is as wide as a day, at least one unit so a year's bars still show, with a gap when there is room.
  const dayWidth = W / (span + 1);
  const barWidth = r1(Math.max(1, dayWidth > 3 ? dayWidth - 1 : dayWidth));
  const zero = y(Math.max(lo, Math.min(0, hi)));
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && at[j] === at[j - 1]! + 1) j++;
    runs++;
    if (kind === "gauge") {
      if (j - i === 1) {
        const q = p.points[i]!;
        if (q.low !== undefined && q.high !== undefined && q.high > q.low)
          band += `<path class="band" d="M${x(i)} ${y(q.high)}V${y(q.low)}"></path>`;
        marks += `<circle class="dot" cx="${x(i)}" cy="${y(q.value)}" r="2"></circle>`;
      } else {
        let upper = "";
        let lower = "";
        for (let k = i; k < j; k++) {
          const q = p.points[k]!;
          line += `${k === i ? "M" : "L"}${x(k)} ${y(q.value)}`;
          upper += `${k === i ? "M" : "L"}${x(k)} ${y(q.high ?? q.value)}`;
          lower = `L${x(k)} ${y(q.low ?? q.value)}${lower}`;
        }
        band += `<path class="band" d="${upper}${lower}Z"></path>`;
      }
    }
    i = j;
  }
  // Bars and points are one path each, a few bytes a day (a year of 40 keys is 12 000 of them): a bar
  // is a vertical stroke as wide as the bar from zero to its value (at least half a unit, so a day of
  // zero still shows), a point a round cap of a stroke of no length.
  if (kind === "count") {
    let bars = "";
    for (let i = 0; i < n; i++) {
      const v = y(p.points[i]!.value);
      const end = Math.abs(zero - v) < 0.5 ? r1(zero - 0.5) : v;
      bars += `M${x(i)} ${zero}V${end}`;
    }
    marks = `<path class="bars" stroke-width="${barWidth}" d="${bars}"></path>`;
  } else if (kind === "max" || kind === "min") {
    let points = "";
    for (let i = 0; i < n; i++) points += `M${x(i)} ${y(p.points[i]!.value)}h0`;
    marks = `<path class="points" d="${points}"></path>`;
  }
  const latest = p.points[n - 1]!;
  const dayText = p.dayText ?? formatDay;
  const extreme = kind === "min" ? { word: "lowest", q: least } : { word: "highest", q: best };
  const summary =
    `${p.label} per day from ${formatDay(p.from)} to ${formatDay(p.to)}: ${n} day${n === 1 ? "" : "s"} recorded` +
    `${runs > 1 ? ` in ${runs} stretches` : ""}; ${extreme.word} ${p.format(extreme.q.value)} on ${formatDay(extreme.q.day)}` +
    `; latest ${p.format(latest.value)} on ${formatDay(latest.day)}.`;
  // The hover columns: a vertical stroke one day wide through the plot per observed day, with the
  // day's words and value (a gauge's also with its low and high) as its <title>. In the group's own
  // units a day is 1 wide and the plot 1 high, so each column is only "M<day index> 0v1".
  let columns = "";
  for (let i = 0; i < n; i++) {
    const q = p.points[i]!;
    const range =
      q.low !== undefined && q.high !== undefined
        ? ` (low ${esc(p.format(q.low))}, high ${esc(p.format(q.high))})`
        : "";
    columns += `<path d="M${at[i]} 0v1"><title>${dayText(q.day)}: ${esc(p.format(q.value))}${range}</title></path>`;
  }
  const mid = r1((TOP + BOTTOM) / 2);
  return (
    <figure class="chart">
      <figcaption>{esc(p.label)}, per day</figcaption>
      <svg
        viewBox={`-4 0 ${W + 8} ${H}`}
        role="img"
        aria-labelledby={`${p.id}-t`}
        data-kind={kind}
        data-points={String(n)}
        data-gaps={String(runs - 1)}
        data-days={String(span + 1)}
      >
        <title id={`${p.id}-t`}>{esc(summary)}</title>
        <line class="grid" x1="0" y1={String(TOP)} x2={String(W)} y2={String(TOP)} />
        <line class="grid" x1="0" y1={String(mid)} x2={String(W)} y2={String(mid)} />
        <line class="axis" x1="0" y1={String(BOTTOM)} x2={String(W)} y2={String(BOTTOM)} />
        <text class="high" x="0" y={String(TOP - 4)}>
          {esc(p.format(hi))}
        </text>
        <text class="low" x="0" y={String(BOTTOM + 11)}>
          {esc(p.format(lo))}
        </text>
        <text x="0" y={String(H - 2)}>
          {esc(formatDay(p.from))}
        </text>
        <text x={String(W)} y={String(H - 2)} text-anchor="end">
          {esc(formatDay(p.to))}
        </text>
        {band}
        {line ? <path class="line" d={line} /> : ""}
        {marks}
        <circle class="latest" cx={String(x(n - 1))} cy={String(y(latest.value))} r="3.5" />
        <text class="latest" x={String(W)} y={String(TOP - 4)} text-anchor="end">
          {`latest ${esc(p.format(latest.value))}`}
        </text>
        <g class="days" transform={`scale(${Math.round((W / span) * 1e4) / 1e4} ${BOTTOM})`}>
          {columns}
        </g>
      </svg>
    </figure>
  );
}
