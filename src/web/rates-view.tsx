// Rates per hour on the statistics page (issue 16): each activity's gains and costs per hour of
// its sessions in the chosen range, and the words of one rate.
import type { Catalogue } from "../catalogue/catalogue.ts";
import { describeKey } from "../stats/fold.ts";
import type { ItemNamer } from "../items/item-names.ts";
import type { ActivityRate, RangeRates } from "../stats/rates.ts";
import { esc } from "./layout.tsx";
import { LEADING_PER_GROUP, leadingBy } from "./key-list.ts";
import { formatDay, formatLength, formatNumber, formatValue } from "./format.ts";

/**
 * An amount per hour in its key's unit: "2.4 / h", "1,250,000 coins / h". A whole-number unit
 * keeps one decimal under 100 an hour (two drops in 50 minutes are 2.4 an hour, not 2).
 */
export function rateText(catalogue: Catalogue, key: string, perHour: number): string {
  const unitId = catalogue.lookup(key)?.unit ?? "count";
  const unit = catalogue.document.units.find((u) => u.id === unitId);
  const wholeUnit = unitId !== "ms" && (unit?.scale ?? 1) === 1;
  if (wholeUnit && Math.abs(perHour) < 100 && !Number.isInteger(Math.round(perHour * 10) / 10)) {
    const number = formatNumber(Math.round(perHour * 10), 10);
    return `${unitId === "count" || !unit ? number : `${number} ${unit.label}`} / h`;
  }
  return `${formatValue(catalogue, unitId, Math.round(perHour))} / h`;
}

const words = (id: string) => {
  const w = id.replaceAll("_", " ");
  return w.charAt(0).toUpperCase() + w.slice(1);
};

/**
 * An activity's gains or costs per hour: its LEADING_PER_GROUP largest amounts, then how many more
 * (a session may list 200 keys, an activity's range thousands: the page stays bounded, issue 22).
 */
function Amounts(props: { catalogue: Catalogue; items?: ItemNamer; amounts: ActivityRate["gains"] }): JSX.Element {
  if (props.amounts.length === 0) return <span class="muted">none</span>;
  const shown = [...props.amounts]
    .sort(
      leadingBy(
        (a) => a.v,
        (a) => a.k,
      ),
    )
    .slice(0, LEADING_PER_GROUP);
  const more = props.amounts.length - shown.length;
  return (
    <ul class="rates">
      {shown.map((a) => (
        <li>
          {esc(describeKey(props.catalogue, a.k, props.items).label)}:{" "}
          <strong>{esc(a.perHour === null ? "no time recorded" : rateText(props.catalogue, a.k, a.perHour))}</strong>
        </li>
      ))}
      {more > 0 ? <li class="muted">and {formatNumber(more)} more</li> : ""}
    </ul>
  );
}

export function ActivityRates(props: {
  catalogue: Catalogue;
  /** The game's item names: rates name items as the page does (absent: ids in words). */
  items?: ItemNamer;
  days: number;
  from: string;
  rates: RangeRates;
}): JSX.Element {
  const { since, activities } = props.rates;
  if (activities.length === 0) return <p class="muted">No sessions in these {String(props.days)} days, so no rates.</p>;
  // More sessions than a page reads: the newest days are counted, and the caption says from when.
  const caption =
    since === props.from
      ? `Per hour of the sessions begun in the last ${props.days} days, by activity`
      : `Per hour of the sessions begun since ${formatDay(since)}, by activity (the last ${props.days} days hold more than one page reads)`;
  return (
    <table class="rates">
      <caption class="muted">{esc(caption)}</caption>
      <thead>
        <tr>
          <th scope="col">Activity</th>
          <th scope="col" class="num">
            Time
          </th>
          <th scope="col">Gains per hour</th>
          <th scope="col">Costs per hour</th>
        </tr>
      </thead>
      <tbody>
        {activities.map((r) => (
          <tr data-activity={r.activity}>
            <th scope="row">{esc(words(r.activity))}</th>
            <td class="num">
              {esc(formatLength(r.ms))}
              <br />
              <small class="muted">
                {String(r.sessions)} session{r.sessions === 1 ? "" : "s"}
              </small>
            </td>
            <td>
              <Amounts catalogue={props.catalogue} items={props.items} amounts={r.gains} />
            </td>
            <td>
              <Amounts catalogue={props.catalogue} items={props.items} amounts={r.costs} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
