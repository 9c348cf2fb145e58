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

export type ChartProps = {
  id: string;
  label: string;
  from: string;
  to: string;
  points: ChartPoint[];
  /** count keys start at zero; a best or a gauge is scaled to its own range */
  fromZero: boolean;
  format: (value: number) => string;
  /** the day's words, when the caller keeps them for every chart (formatDay otherwise) */
  dayText?: (day: string) => string;
};

export function Chart(p: ChartProps): JSX.Element {
  const start = epochDay(p.from);
  const span = Math.max(1, epochDay(p.to) - start);
  const n = p.points.length;
  // One pass for each point's day index and the extremes (a year of 40 keys is 12 000 points).
  const at = new Array<number>(n);
  let hi = -Infinity;
  let lo = Infinity;
  let best = p.points[0]!;
  for (let i = 0; i < n; i++) {
    const q = p.points[i]!;
    at[i] = epochDay(q.day) - start;
    if (q.value > hi) hi = q.value;
    if (q.value < lo) lo = q.value;
    if (q.value > best.value) best = q;
  }
  if (p.fromZero) lo = Math.min(0, lo);
  const range = hi - lo || 1;
  const x = (i: number) => r1((at[i]! / span) * W);
  const y = (v: number) => r1(BOTTOM - ((v - lo) / range) * (BOTTOM - TOP));
  // A line through each stretch of consecutive days, a dot for a day alone.
  let line = "";
  let dots = "";
  let runs = 0;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && at[j] === at[j - 1]! + 1) j++;
    runs++;
    if (j - i === 1) dots += `<circle class="dot" cx="${x(i)}" cy="${y(p.points[i]!.value)}" r="2"></circle>`;
    else for (let k = i; k < j; k++) line += `${k === i ? "M" : "L"}${x(k)} ${y(p.points[k]!.value)}`;
    i = j;
  }
  const summary =
    `${p.label} per day from ${formatDay(p.from)} to ${formatDay(p.to)}: ${n} day${n === 1 ? "" : "s"} recorded` +
    `${runs > 1 ? ` in ${runs} stretches` : ""}; highest ${p.format(best.value)} on ${formatDay(best.day)}.`;
  // The hover columns: a vertical stroke one day wide through the plot per observed day, with the
  // day's words and value as its <title>. In the group's own units a day is 1 wide and the plot 1
  // high, so each column is only "M<day index> 0v1" (a few bytes: a year has 365 of them per key).
  const dayText = p.dayText ?? formatDay;
  let columns = "";
  for (let i = 0; i < n; i++) {
    const q = p.points[i]!;
    columns += `<path d="M${at[i]} 0v1"><title>${dayText(q.day)}: ${esc(p.format(q.value))}</title></path>`;
  }
  return (
    <figure class="chart">
      <figcaption>{esc(p.label)}, per day</figcaption>
      <svg
        viewBox={`-2 0 ${W + 4} ${H}`}
        role="img"
        aria-labelledby={`${p.id}-t`}
        data-points={String(n)}
        data-gaps={String(runs - 1)}
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
        {line ? <path class="line" d={line} /> : ""}
        {dots}
        <g class="days" transform={`scale(${Math.round((W / span) * 1e4) / 1e4} ${BOTTOM})`}>
          {columns}
        </g>
      </svg>
    </figure>
  );
}
