import type { Catalogue } from "../catalogue/catalogue.ts";
import { describeKey } from "../stats/fold.ts";
import type { RecentEvent, RecentSession } from "../stats/activity.ts";
import { esc } from "./layout.tsx";
import { formatDuration, formatTime, formatValue } from "./format.ts";
import { perHour } from "../stats/rates.ts";
import { rateText } from "./rates-view.tsx";

/** Timeline kinds the page names; any other kind is shown by its own words (kinds are open: contract 2.5). */
const TIMELINE_KINDS: Record<string, string> = {
  level_up: "Level up",
  rare_drop: "Rare drop",
  first: "First",
  personal_best: "Personal best",
  death: "Death",
  unlock: "Unlock",
};

const words = (id: string) => {
  const w = id.replaceAll("_", " ");
  return w.charAt(0).toUpperCase() + w.slice(1);
};

function amountText(catalogue: Catalogue, a: { k: string; v: number }): JSX.Element {
  const unit = catalogue.lookup(a.k)?.unit ?? "count";
  return `${describeKey(catalogue, a.k).label}: ${formatValue(catalogue, unit, a.v)}`;
}

/** A session's gains or costs, each with its rate per hour of the session: "Purse: 50,000 coins (120,000 coins / h)". */
function amountsText(catalogue: Catalogue, amounts: { k: string; v: number }[], ms: number): string {
  const each = amounts.map((a) => {
    const rate = perHour(a.v, ms);
    return `${amountText(catalogue, a)}${rate === null ? "" : ` (${rateText(catalogue, a.k, rate)})`}`;
  });
  return each.join(", ") || "none";
}

export function Sessions(view: { catalogue: Catalogue; zone: string; sessions: RecentSession[] }): JSX.Element {
  if (view.sessions.length === 0) return <p class="muted">No sessions recorded for this profile.</p>;
  return (
    <table>
      <caption class="muted">
        {view.sessions.length === 1
          ? "The latest session"
          : `The latest ${view.sessions.length} sessions, newest first`}{" "}
        (times in {esc(view.zone)})
      </caption>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Activity</th>
          <th scope="col" class="num">
            Length
          </th>
          <th scope="col">Gains</th>
          <th scope="col">Costs</th>
        </tr>
      </thead>
      <tbody>
        {view.sessions.map((s) => (
          <tr>
            <td>{esc(formatTime(s.startedAt, view.zone))}</td>
            <td>{esc(words(s.activity))}</td>
            <td class="num">{esc(formatDuration(s.endedAt - s.startedAt))}</td>
            <td>{esc(amountsText(view.catalogue, s.gains, s.endedAt - s.startedAt))}</td>
            <td>{esc(amountsText(view.catalogue, s.costs, s.endedAt - s.startedAt))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Timeline(view: { catalogue: Catalogue; zone: string; events: RecentEvent[] }): JSX.Element {
  if (view.events.length === 0) return <p class="muted">No timeline events recorded for this profile.</p>;
  return (
    <ol class="timeline">
      {view.events.map((e) => {
        const known = TIMELINE_KINDS[e.kind];
        const about = e.key
          ? e.value === null
            ? describeKey(view.catalogue, e.key).label
            : amountText(view.catalogue, { k: e.key, v: e.value })
          : "";
        return (
          <li data-kind={e.kind}>
            <span class={known ? "kind" : "kind unknown"}>{esc(known ?? words(e.kind))}</span> {esc(about)}{" "}
            <small>
              <time datetime={new Date(e.at).toISOString()}>{esc(formatTime(e.at, view.zone))}</time>
            </small>
          </li>
        );
      })}
    </ol>
  );
}
