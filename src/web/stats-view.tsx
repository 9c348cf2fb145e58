import type { Catalogue } from "../catalogue/catalogue.ts";
import type { RecentEvent, RecentSession } from "../stats/activity.ts";
import type { ChartPoint } from "./chart.tsx";
import { esc, Layout } from "./layout.tsx";
import { formatDay, formatValue } from "./format.ts";
import { Sessions, Timeline } from "./activity-view.tsx";
import type { Preview } from "./layout.tsx";
import type { Period, PeriodTotals } from "../stats/periods.ts";
import type { RangeRates } from "../stats/rates.ts";
import { Periods } from "./period-view.tsx";
import { Calendar } from "./calendar-view.tsx";
import { ActivityRates } from "./rates-view.tsx";
import { RangeTabs } from "./range-tabs.tsx";
import { groupSlug } from "./key-list.ts";
import type { KeyFigure } from "./key-figure.ts";
import type { ItemNamer } from "../items/item-names.ts";
import { itemOfKey } from "../stats/fold.ts";
import type { Headline } from "../cards/headline.ts";
import { HeadlineFigures } from "./headline-view.tsx";
import { FindForm, query } from "./find-view.tsx";

/** A lifetime figure's words; one past the safe range says it is at least (or at most) that much. */
export const lifetimeText = (catalogue: Catalogue, f: KeyFigure) =>
  (f.lifetime.clamped ? (f.lifetime.value > 0 ? "more than " : "less than ") : "") +
  formatValue(catalogue, f.unit, f.lifetime.value);

export type StatsView = {
  catalogue: Catalogue;
  /** The game's item names, for the labels the views make themselves (sessions, rates). */
  items?: ItemNamer;
  /** Item pictures come through the image proxy (ITEM_IMAGES_URL is set). */
  itemImages?: boolean;
  title: string;
  heading: string;
  /** the page's own path, without query (links of the range switch and the profile tabs) */
  path: string;
  noindex: boolean;
  notice?: string;
  /** On the owner's own page: where its CSV export downloads. */
  ownerCsv?: string;
  /** The owner's recaps (a month and a year in review), on the owner's own page only. */
  ownerRecaps?: string;
  zone: string;
  profiles: { id: string; cuteName: string }[];
  selected: { id: string; cuteName: string } | null;
  range: { days: number; from: string; to: string; options: readonly number[] };
  profileKeys: KeyFigure[];
  accountKeys: KeyFigure[];
  /** key -> its observed days in the range */
  profileDays: Map<string, ChartPoint[]>;
  accountDays: Map<string, ChartPoint[]>;
  sessions: RecentSession[];
  events: RecentEvent[];
  /** The figures heading the page (the player's choice first), as its card and description show them. */
  headline?: Headline;
  /** On the owner's own page: the form choosing the headline figures, as HTML (headline-view.tsx). */
  headlineForm?: string;
  /** the page's link preview tags (findable and share pages) */
  preview?: Preview;
  /** the owner's badge snippets section, as HTML (src/cards/preview.tsx) */
  badges?: string;
  /** The owner's personal access tokens, to revoke (web/tokens-view.tsx). */
  tokens?: string;
  /** The period shown (a day, week, month or year so far against the one before) of each scope. */
  period: Period;
  periods: { profile: PeriodTotals | null; account: PeriodTotals };
  /** The calendar's days with any observation, with how many keys each has. */
  calendar: { day: string; keys: number }[];
  /** Each activity's gains and costs per hour of its sessions in the range. */
  rates: RangeRates;
  /** Each scope's groups: how many figures each holds and its few largest (the rest: its list page). */
  groups: { p: GroupSummary[]; a: GroupSummary[] };
};

export type GroupSummary = { group: string; total: number; shown: KeyFigure[] };

/** The words under a lifetime figure: where its number starts and what its baseline holds. */
export function sinceText(kind: string, lifetime: KeyFigure["lifetime"]): JSX.Element {
  const { baseline, days } = lifetime;
  if (kind === "gauge")
    return days ? `as of ${formatDay(days.last)}` : baseline ? `as of ${formatDay(baseline.day)}` : "";
  if (baseline && days) return `since ${formatDay(days.first)}, including everything up to ${formatDay(baseline.day)}`;
  if (baseline) return `everything up to ${formatDay(baseline.day)}`;
  if (days) return `since ${formatDay(days.first)}`;
  return "";
}

/** Groups in the catalogue's order (keys, then patterns); groups it does not name follow, by name. */
function groupOrder(catalogue: Catalogue, figures: { group: string }[]): string[] {
  const known: string[] = [];
  for (const e of [...catalogue.document.keys, ...catalogue.document.patterns])
    if (!known.includes(e.group)) known.push(e.group);
  const present = new Set(figures.map((f) => f.group));
  const rest = [...present].filter((g) => !known.includes(g)).sort();
  return [...known.filter((g) => present.has(g)), ...rest];
}

const slug = groupSlug;

/**
 * A figure's label: its words, the raw key one hover or tap away (title; focus shows it, style.css), and for an item its picture
 * through the image proxy (issue 34).
 */
export function ItemLabel(props: {
  view: Pick<StatsView, "catalogue" | "itemImages" | "items">;
  f: { key: string; label: string };
}): JSX.Element {
  const { view, f } = props;
  // Only items the game's list names get a picture: an id it does not know has no image either.
  const id = view.itemImages ? itemOfKey(view.catalogue, f.key) : undefined;
  const item = id !== undefined && view.items?.itemName(id) !== undefined ? id : undefined;
  return (
    <span class="label" title={f.key} tabindex="0">
      {item ? (
        <img
          class="item"
          src={`/v1/assets/item/${encodeURIComponent(item)}.png`}
          width="20"
          height="20"
          alt=""
          loading="lazy"
        />
      ) : (
        ""
      )}
      {esc(f.label)}
    </span>
  );
}

/**
 * The figures of one scope, a section per group (issue 34: find things): its name and how many
 * figures it holds, its few largest with their lifetime figure, and a link to its whole list. Each
 * section has an anchor the list links back to, so the reader comes back where they were.
 */
function Groups(props: { view: StatsView; scope: "p" | "a"; groups: GroupSummary[] }): JSX.Element {
  const { view } = props;
  if (props.groups.length === 0) return <p class="muted">Nothing recorded here yet.</p>;
  const order = groupOrder(view.catalogue, props.groups);
  const groups = [...props.groups].sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
  return (
    <>
      <nav aria-label="Groups" class="group-index">
        <ul>
          {groups.map((g) => (
            <li>
              <a href={`#${props.scope}-${slug(g.group)}`}>{esc(g.group)}</a>{" "}
              <span class="muted">{count(g.total)}</span>
            </li>
          ))}
        </ul>
      </nav>
      {groups.map((g) => {
        const id = `${props.scope}-${slug(g.group)}`;
        const list = `${query(view, { group: { scope: props.scope, slug: slug(g.group) } })}#list`;
        return (
          <section aria-labelledby={id} class="group">
            <h3 id={id}>
              {esc(g.group)} <span class="count">{count(g.total)}</span>
            </h3>
            <table class="key-list">
              <tbody>
                {g.shown.map((f) => (
                  <tr data-key={f.key}>
                    <th scope="row">
                      <ItemLabel view={view} f={f} />
                    </th>
                    <td class="num">{esc(lifetimeText(view.catalogue, f))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p class="more">
              <a href={list}>
                {g.total > g.shown.length ? `All ${count(g.total)} of ${esc(g.group)}` : `${esc(g.group)} by period`}
              </a>
              {g.total > g.shown.length ? (
                <span class="muted"> (the {String(g.shown.length)} largest are shown here)</span>
              ) : (
                ""
              )}
            </p>
          </section>
        );
      })}
    </>
  );
}

const count = (n: number) => `${n.toLocaleString("en-GB")} ${n === 1 ? "figure" : "figures"}`;

export function StatsPage(view: StatsView): JSX.Element {
  return (
    <Layout title={view.title} noindex={view.noindex} preview={view.preview}>
      <h1>{esc(view.heading)}</h1>
      {view.notice ? <p class="note">{esc(view.notice)}</p> : ""}
      {view.ownerRecaps ? (
        <p>
          <a href={view.ownerRecaps}>Your month and year in review</a>{" "}
          <span class="muted">(recaps: only you see them until you share one)</span>
        </p>
      ) : (
        ""
      )}
      {view.ownerCsv ? (
        <p>
          <a href={view.ownerCsv} download="">
            Download every day value as CSV
          </a>{" "}
          <span class="muted">(one line per profile, key and day; only you can download it)</span>
        </p>
      ) : (
        ""
      )}
      <HeadlineFigures headline={view.headline} form={view.headlineForm} />
      {view.profiles.length > 1 ? (
        <nav aria-label="Profiles">
          <ul class="tabs">
            {view.profiles.map((p) => (
              <li>
                <a href={query(view, { profile: p.id })} aria-current={p.id === view.selected?.id ? "page" : undefined}>
                  {esc(p.cuteName)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : (
        ""
      )}
      <section aria-labelledby="periods-h">
        <h2 id="periods-h">Period</h2>
        <Periods
          catalogue={view.catalogue}
          period={view.period}
          link={(period) => `${query(view, { period })}#periods-h`}
          scopes={[{ caption: "Headline figures", totals: view.periods.account }]}
          order={(keys) => keys}
        />
      </section>
      <section aria-labelledby="calendar-h">
        <h2 id="calendar-h">Active days</h2>
        <Calendar today={view.range.to} days={view.calendar} />
        {/* Below the period, not above it: the headline and the period's figures reach a phone's first screen. */}
        <p class="muted">
          Only what this player chose to record with the mod. Days are calendar days in the player's time zone (
          {esc(view.zone)}).
        </p>
      </section>
      <section aria-labelledby="find-h">
        <h2 id="find-h">Find a figure</h2>
        <FindForm view={view} scope="p" />
      </section>
      <section aria-labelledby="profile-h">
        <h2 id="profile-h">{view.selected ? `Profile ${esc(view.selected.cuteName)}` : "Profile"}</h2>
        {view.selected ? (
          <Groups view={view} scope="p" groups={view.groups.p} />
        ) : (
          <p class="muted">No profile recorded yet.</p>
        )}
      </section>
      <section aria-labelledby="account-h">
        <h2 id="account-h">Whole account</h2>
        <Groups view={view} scope="a" groups={view.groups.a} />
      </section>
      {(view.badges ?? "") as "safe"}
      {(view.tokens ?? "") as "safe"}
      {view.selected ? (
        <>
          <section aria-labelledby="sessions-h">
            <h2 id="sessions-h">Sessions</h2>
            <Sessions catalogue={view.catalogue} items={view.items} zone={view.zone} sessions={view.sessions} />
          </section>
          <section aria-labelledby="rates-h">
            <h2 id="rates-h">Rates per hour</h2>
            <RangeTabs label="Range" range={view.range} href={(days) => `${query(view, { range: days })}#rates-h`} />
            <ActivityRates
              catalogue={view.catalogue}
              items={view.items}
              days={view.range.days}
              from={view.range.from}
              rates={view.rates}
            />
          </section>
          <section aria-labelledby="timeline-h">
            <h2 id="timeline-h">Timeline</h2>
            <Timeline catalogue={view.catalogue} items={view.items} zone={view.zone} events={view.events} />
          </section>
        </>
      ) : (
        ""
      )}
    </Layout>
  );
}
