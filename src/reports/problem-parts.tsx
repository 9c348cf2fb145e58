// Pieces the maintainers' list and a problem's page share: times in UTC, a problem's state as a
// class, the 30-day sparkline, and the problem's head (its exception and the mod's frame). All
// report text is escaped and, being plain text since intake, has no control character or bidi override.
import { esc, sync } from "../web/layout.tsx";
import type { ChartPoint } from "../web/chart.tsx";
import { formatDay } from "../web/format.ts";
import type { Problem } from "./reports.query.ts";
import { topFrame } from "./problems-list.ts";
import { plainLine } from "./plain-text.ts";

export const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
export const stateClass = (p: Problem) =>
  p.state === "resolved" ? "resolved" : p.state === "muted" ? "muted" : p.regressedIn ? "regressed" : "open";

/** 30 days of counts as a small line (a day without a report is a zero: nothing was reported). */
export function Sparkline(p: { id: number; days: ChartPoint[] }): string {
  const W = 120;
  const H = 24;
  const max = Math.max(1, ...p.days.map((d) => d.value));
  const step = W / Math.max(1, p.days.length - 1);
  const pts = p.days
    .map((d, i) => `${Math.round(i * step * 10) / 10},${Math.round((H - 2 - (d.value / max) * (H - 4)) * 10) / 10}`)
    .join(" ");
  const total = p.days.reduce((n, d) => n + d.value, 0);
  const busiest = p.days.reduce((a, b) => (b.value > a.value ? b : a), p.days[0]!);
  const summary = `${total} report${total === 1 ? "" : "s"} in the last ${p.days.length} days${total ? `; most on ${formatDay(busiest.day)} (${busiest.value})` : ""}`;
  return sync(
    <svg
      class="spark"
      viewBox={`0 0 ${W} ${H}`}
      width={String(W)}
      height={String(H)}
      role="img"
      aria-label={esc(summary)}
      data-total={String(total)}
    >
      <title>{esc(summary)}</title>
      <polyline points={pts} />
    </svg>,
  );
}

export function ProblemHead(p: { problem: Problem; link?: boolean }): string {
  const x = p.problem;
  const frame = topFrame(x);
  const what = esc(plainLine(x.exceptionType ?? x.title));
  return sync(
    <span class="admin-head">
      {p.link ? <a href={`/admin/reports/${x.number}`}>{what as "safe"}</a> : (what as "safe")}
      {frame ? <code class="admin-frame">at {esc(plainLine(frame))}</code> : ""}
    </span>,
  );
}
