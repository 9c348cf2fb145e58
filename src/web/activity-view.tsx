// A profile's latest sessions and timeline on the statistics page. Figures are named as the page
// names them: an item by the game's own name when the item list has it (issue 34).
import type { Catalogue } from "../catalogue/catalogue.ts";
import type { ItemNamer } from "../items/item-names.ts";
import { describeKey } from "../stats/fold.ts";
import type { RecentEvent, RecentSession } from "../stats/activity.ts";
import { esc } from "./layout.tsx";
import { formatLength, formatTime, formatValue } from "./format.ts";
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

function amountText(catalogue: Catalogue, a: { k: string; v: number }, items?: ItemNamer): JSX.Element {
  const unit = catalogue.lookup(a.k)?.unit ?? "count";
  return `${describeKey(catalogue, a.k, items).label}: ${formatValue(catalogue, unit, a.v)}`;
}

const unitOf = (catalogue: Catalogue, key: string) => catalogue.lookup(key)?.unit ?? "count";
const MINUS = "\u2212";

/** One gain or cost of a session: what, how much and how much an hour of the session. */
function AmountRow(props: {
  catalogue: Catalogue;
  items?: ItemNamer;
  a: { k: string; v: number };
  ms: number;
  side: "gain" | "cost";
}): JSX.Element {
  const { catalogue, a, ms, side } = props;
  const sign = side === "cost" ? MINUS : "";
  const rate = perHour(a.v, ms);
  return (
    <tr class={side}>
      <th scope="row" title={a.k} tabindex="0">
        {esc(describeKey(catalogue, a.k, props.items).label)}
        {side === "cost" ? <small class="muted"> spent</small> : ""}
      </th>
      <td class="num">{esc(sign + formatValue(catalogue, unitOf(catalogue, a.k), a.v))}</td>
      <td class="num">{rate === null ? "\u2013" : esc(sign + rateText(catalogue, a.k, rate))}</td>
    </tr>
  );
}

/** Net coins of a session: its coin gains less its coin costs, when it has both (null otherwise). */
function netCoins(catalogue: Catalogue, s: Pick<RecentSession, "gains" | "costs">): number | null {
  const coins = (list: { k: string; v: number }[]) => list.filter((a) => unitOf(catalogue, a.k) === "coins");
  const gains = coins(s.gains);
  const costs = coins(s.costs);
  if (gains.length === 0 || costs.length === 0) return null;
  const sum = (list: { v: number }[]) => list.reduce((n, a) => n + a.v, 0);
  return sum(gains) - sum(costs);
}

function Session(props: { catalogue: Catalogue; items?: ItemNamer; zone: string; s: RecentSession }): JSX.Element {
  const { catalogue, s } = props;
  const ms = s.endedAt - s.startedAt;
  const net = netCoins(catalogue, s);
  const netRate = net === null ? null : perHour(net, ms);
  const signed = (n: number) => (n < 0 ? MINUS : "+") + formatValue(catalogue, "coins", Math.abs(n));
  const rows = s.gains.length + s.costs.length;
  return (
    <li class="session" data-activity={s.activity}>
      <h3>
        {esc(words(s.activity))}{" "}
        <small class="muted">
          <time datetime={new Date(s.startedAt).toISOString()}>{esc(formatTime(s.startedAt, props.zone))}</time>,{" "}
          <span class="length">{esc(formatLength(ms))}</span>
        </small>
      </h3>
      {rows === 0 ? (
        <p class="muted">No gains or costs recorded.</p>
      ) : (
        <table class="amounts">
          <thead>
            <tr>
              <th scope="col">Gained or spent</th>
              <th scope="col" class="num">
                Amount
              </th>
              <th scope="col" class="num">
                Per hour
              </th>
            </tr>
          </thead>
          <tbody>
            {s.gains.map((a) => (
              <AmountRow catalogue={catalogue} items={props.items} a={a} ms={ms} side="gain" />
            ))}
            {s.costs.map((a) => (
              <AmountRow catalogue={catalogue} items={props.items} a={a} ms={ms} side="cost" />
            ))}
          </tbody>
          {net === null ? (
            ""
          ) : (
            <tfoot>
              <tr class="net">
                <th scope="row">Net coins</th>
                <td class="num">{esc(signed(net))}</td>
                <td class="num">{netRate === null ? "\u2013" : esc(`${signed(Math.round(netRate))} / h`)}</td>
              </tr>
            </tfoot>
          )}
        </table>
      )}
    </li>
  );
}

export function Sessions(view: {
  catalogue: Catalogue;
  items?: ItemNamer;
  zone: string;
  sessions: RecentSession[];
}): JSX.Element {
  if (view.sessions.length === 0) return <p class="muted">No sessions recorded for this profile.</p>;
  return (
    <>
      <p class="muted">
        {view.sessions.length === 1
          ? "The latest session"
          : `The latest ${view.sessions.length} sessions, newest first`}{" "}
        (times in {esc(view.zone)}; per hour: the amount over the session's length).
      </p>
      <ol class="sessions">
        {view.sessions.map((s) => (
          <Session catalogue={view.catalogue} items={view.items} zone={view.zone} s={s} />
        ))}
      </ol>
    </>
  );
}

export function Timeline(view: {
  catalogue: Catalogue;
  items?: ItemNamer;
  zone: string;
  events: RecentEvent[];
}): JSX.Element {
  if (view.events.length === 0) return <p class="muted">No timeline events recorded for this profile.</p>;
  return (
    <ol class="timeline">
      {view.events.map((e) => {
        const known = TIMELINE_KINDS[e.kind];
        const about = e.key
          ? e.value === null
            ? describeKey(view.catalogue, e.key, view.items).label
            : amountText(view.catalogue, { k: e.key, v: e.value }, view.items)
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
