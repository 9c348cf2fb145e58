// A year of active days (issue 16): a heatmap of the last 53 weeks, Monday to Sunday in rows, one
// column a week, each day a cell shaded by how many keys it has observations of (a day with none
// is blank), each active day with its <title> as the tooltip. Server-rendered SVG, no script; the colours
// come from the stylesheet, so both themes read.
import { addDays } from "../wire/day.ts";
import { esc } from "./layout.tsx";
import { formatDay } from "./format.ts";

export const CALENDAR_WEEKS = 53;
const CELL = 11;
const STEP = 13;
const LEFT = 28;
const TOP = 16;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The first day the calendar shows: the Monday CALENDAR_WEEKS - 1 weeks before the week of `today`. */
export function calendarStart(today: string): string {
  const into = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(today, -into - 7 * (CALENDAR_WEEKS - 1));
}

/** A day's shade from 1 to 4: its keys as a share of the busiest day's. */
const level = (keys: number, most: number) => Math.min(4, Math.max(1, Math.ceil((keys / most) * 4)));

export function Calendar(props: { today: string; days: { day: string; keys: number }[] }): JSX.Element {
  const start = calendarStart(props.today);
  const byDay = new Map(props.days.map((d) => [d.day, d.keys]));
  const most = Math.max(1, ...props.days.map((d) => d.keys));
  let cells = "";
  let empty = "";
  let months = "";
  let active = 0;
  for (let week = 0; week < CALENDAR_WEEKS; week++) {
    const monday = addDays(start, week * 7);
    // A month's name over the week holding its first day; the first week shown names its own
    // month unless another month begins within the next two weeks (the names would overlap).
    const first = [0, 1, 2, 3, 4, 5, 6].map((d) => addDays(monday, d)).find((day) => day.endsWith("-01"));
    const label = first ?? (week === 0 && addDays(start, 20).slice(0, 7) === start.slice(0, 7) ? monday : null);
    if (label && label <= props.today)
      months += `<text x="${LEFT + week * STEP}" y="${TOP - 5}">${MONTHS[Number(label.slice(5, 7)) - 1]}</text>`;
    for (let d = 0; d < 7; d++) {
      const day = addDays(monday, d);
      if (day > props.today) break;
      const keys = byDay.get(day) ?? 0;
      const x = LEFT + week * STEP;
      const y = TOP + d * STEP;
      // A day with nothing recorded is a square of one shared path (issue 34: the page's weight; a
      // cell and its tooltip each were 130 bytes, 47 KB a year); an active day its own cell and words.
      if (!keys) {
        empty += `M${x} ${y}h${CELL}v${CELL}h-${CELL}z`;
        continue;
      }
      active++;
      const words = `${formatDay(day)}: ${keys} ${keys === 1 ? "statistic" : "statistics"} recorded`;
      cells += `<rect class="c${level(keys, most)}" x="${x}" y="${y}" width="${CELL}" height="${CELL}" rx="2" data-day="${day}"><title>${words}</title></rect>`;
    }
  }
  const width = LEFT + CALENDAR_WEEKS * STEP + 10;
  const height = TOP + 7 * STEP + 20;
  const legendY = TOP + 7 * STEP + 6;
  const legend = [0, 1, 2, 3, 4]
    .map(
      (l, i) =>
        `<rect class="c${l}" x="${width - 5 * STEP - 34 + i * STEP}" y="${legendY}" width="${CELL}" height="${CELL}" rx="2"></rect>`,
    )
    .join("");
  const summary = `${active} active day${active === 1 ? "" : "s"} from ${formatDay(start)} to ${formatDay(props.today)}`;
  return (
    <figure class="calendar">
      {/* On a narrow screen the year scrolls sideways, starting at its right end (today): see the stylesheet. */}
      <div class="calendar-scroll">
        <svg
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-label={esc(`Calendar: ${summary}`)}
          data-active={String(active)}
        >
          {months}
          <text x="0" y={String(TOP + 0 * STEP + 9)}>
            Mon
          </text>
          <text x="0" y={String(TOP + 2 * STEP + 9)}>
            Wed
          </text>
          <text x="0" y={String(TOP + 4 * STEP + 9)}>
            Fri
          </text>
          <text x="0" y={String(TOP + 6 * STEP + 9)}>
            Sun
          </text>
          {empty ? `<path class="c0" d="${empty}"></path>` : ""}
          {cells}
          <text x={String(width - 5 * STEP - 38)} y={String(legendY + 9)} text-anchor="end">
            Fewer statistics
          </text>
          {legend}
          <text x={String(width - 32)} y={String(legendY + 9)}>
            More
          </text>
        </svg>
      </div>
      <figcaption class="muted">{esc(summary)}; a day is active when anything was recorded on it.</figcaption>
    </figure>
  );
}
