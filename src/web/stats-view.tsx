import type { Catalogue } from "../catalogue/catalogue.ts";
import type { RecentEvent, RecentSession } from "../stats/activity.ts";
import { Chart, type ChartPoint } from "./chart.tsx";
import { esc, Layout } from "./layout.tsx";
import { formatDay, formatValue } from "./format.ts";
import { Sessions, Timeline } from "./activity-view.tsx";
import type { Preview } from "./layout.tsx";
import type { Period, PeriodKey, PeriodTotals } from "../stats/periods.ts";
import type { RangeRates } from "../stats/rates.ts";
import { Periods } from "./period-view.tsx";
import { Calendar } from "./calendar-view.tsx";
import { ActivityRates } from "./rates-view.tsx";
import { groupSlug } from "./key-list.ts";
import type { KeyFigure } from "./key-figure.ts";
import type { ItemNamer } from "../items/item-names.ts";
import { itemOfKey } from "../stats/fold.ts";
import type { Headline } from "../cards/headline.ts";
import { HeadlineFigures } from "./headline-view.tsx";

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
  /** Groups holding more figures than the page charts, with their count: each links to its list. */
  more?: { p: Map<string, number>; a: Map<string, number> };
};

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

/** Keys in the order of the page's figures: by group, then by label. */
function orderKeys(catalogue: Catalogue, keys: PeriodKey[]): PeriodKey[] {
  const groups = groupOrder(catalogue, keys);
  const rank = (k: PeriodKey) => groups.indexOf(k.group);
  return [...keys].sort((a, b) => rank(a) - rank(b) || a.label.localeCompare(b.label) || a.key.localeCompare(b.key));
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

/** One key's card: its lifetime figure, where that starts, and its chart of the range. */
function Figure(props: {
  view: StatsView;
  f: KeyFigure;
  id: string;
  points: ChartPoint[] | undefined;
  dayText: (day: string) => string;
  group?: JSX.Element;
}): JSX.Element {
  const { view, f, points } = props;
  return (
    <li data-key={f.key}>
      {props.group ?? ""}
      <ItemLabel view={view} f={f} />
      <span class="value">{esc(lifetimeText(view.catalogue, f))}</span>
      <span class="since">{esc(sinceText(f.kind, f.lifetime))}</span>
      {points?.length ? (
        <Chart
          id={props.id}
          label={f.label}
          from={view.range.from}
          to={view.range.to}
          points={points}
          kind={f.kind as "count" | "max" | "min" | "gauge"}
          fromZero={f.kind === "count"}
          format={(v) => formatValue(view.catalogue, f.unit, v)}
          dayText={props.dayText}
        />
      ) : (
        <p class="since">Nothing recorded in these {String(view.range.days)} days.</p>
      )}
    </li>
  );
}

/**
 * The figures of one scope, group by group. A group of several keys is a section with its heading
 * over a grid of its cards. Groups of one key in a row share one grid, each card headed by its
 * group's name, so a page of many small groups is not a column of lone cards.
 */
function Figures(props: {
  view: StatsView;
  scope: string;
  figures: KeyFigure[];
  days: Map<string, ChartPoint[]>;
  dayText: (day: string) => string;
}): JSX.Element {
  const { view } = props;
  if (props.figures.length === 0) return <p class="muted">Nothing recorded here yet.</p>;
  const groups = groupOrder(view.catalogue, props.figures).map((group) => ({
    group,
    id: `${props.scope}-${slug(group)}`,
    figures: props.figures
      .filter((f) => f.group === group)
      .sort((a, b) => a.label.localeCompare(b.label) || a.key.localeCompare(b.key)),
  }));
  const out: JSX.Element[] = [];
  for (let i = 0; i < groups.length; ) {
    if (groups[i]!.figures.length > 1) {
      const { group, id, figures } = groups[i++]!;
      out.push(
        <section aria-labelledby={id}>
          <h3 id={id}>{esc(group)}</h3>
          <ul class="figures">
            {figures.map((f, k) => (
              <Figure view={view} f={f} id={`${id}-c${k}`} points={props.days.get(f.key)} dayText={props.dayText} />
            ))}
          </ul>
        </section>,
      );
      continue;
    }
    const alone: typeof groups = [];
    while (i < groups.length && groups[i]!.figures.length === 1) alone.push(groups[i++]!);
    out.push(
      <ul class="figures alone">
        {alone.map(({ group, id, figures: [f] }) => (
          <Figure
            view={view}
            f={f!}
            id={`${id}-c0`}
            points={props.days.get(f!.key)}
            dayText={props.dayText}
            group={
              <h3 id={id} class="group">
                {esc(group)}
              </h3>
            }
          />
        ))}
      </ul>,
    );
  }
  const more = view.more?.[props.scope as "p" | "a"];
  if (more?.size)
    out.push(
      <ul class="more">
        {[...more].map(([group, total]) => (
          <li>
            <a href={query(view, { group: { scope: props.scope, slug: slug(group) } })}>
              All {String(total)} figures of {esc(group)}
            </a>{" "}
            (the {String(props.figures.filter((f) => f.group === group).length)} largest are shown here)
          </li>
        ))}
      </ul>,
    );
  return <>{out}</>;
}

export function query(
  view: Pick<StatsView, "path" | "selected" | "profiles" | "range" | "period">,
  change: {
    profile?: string;
    range?: number;
    period?: Period;
    group?: { scope: string; slug: string; page?: number };
  },
) {
  const params = new URLSearchParams();
  const profile = change.profile ?? view.selected?.id;
  if (profile && view.profiles.length > 1) params.set("profile", profile);
  const range = change.range ?? view.range.days;
  if (range !== view.range.options[1]) params.set("range", String(range));
  const period = change.period ?? view.period;
  if (period !== "week") params.set("period", period);
  if (change.group) {
    params.set("scope", change.group.scope);
    params.set("group", change.group.slug);
    if (change.group.page && change.group.page > 1) params.set("page", String(change.group.page));
  }
  // Attribute values are only quote-escaped by the JSX runtime: the ampersand is ours to escape.
  const q = params.toString().replaceAll("&", "&amp;");
  return q ? `${view.path}?${q}` : view.path;
}

export function StatsPage(view: StatsView): JSX.Element {
  // Every chart of the page names the same days in its tooltips: each day's words are made once.
  const words = new Map<string, string>();
  const dayText = (day: string) => words.get(day) ?? (words.set(day, formatDay(day)), words.get(day)!);
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
      <p class="muted">
        Only what this player chose to record with the mod. Days are calendar days in the player's time zone (
        {esc(view.zone)}).
      </p>
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
        <h2 id="periods-h">Periods</h2>
        <Periods
          catalogue={view.catalogue}
          period={view.period}
          link={(period) => query(view, { period })}
          scopes={[
            ...(view.selected && view.periods.profile
              ? [{ caption: `Profile ${view.selected.cuteName}`, totals: view.periods.profile }]
              : []),
            { caption: "Whole account", totals: view.periods.account },
          ]}
          order={(keys) => orderKeys(view.catalogue, keys)}
        />
      </section>
      <section aria-labelledby="calendar-h">
        <h2 id="calendar-h">Active days</h2>
        <Calendar today={view.range.to} days={view.calendar} />
      </section>
      <nav aria-label="Chart range">
        <ul class="tabs">
          {view.range.options.map((days) => (
            <li>
              <a href={query(view, { range: days })} aria-current={days === view.range.days ? "page" : undefined}>
                Last {String(days)} days
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="profile-h">
        <h2 id="profile-h">{view.selected ? `Profile ${esc(view.selected.cuteName)}` : "Profile"}</h2>
        {view.selected ? (
          <Figures view={view} scope="p" figures={view.profileKeys} days={view.profileDays} dayText={dayText} />
        ) : (
          <p class="muted">No profile recorded yet.</p>
        )}
      </section>
      <section aria-labelledby="account-h">
        <h2 id="account-h">Whole account</h2>
        <Figures view={view} scope="a" figures={view.accountKeys} days={view.accountDays} dayText={dayText} />
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
