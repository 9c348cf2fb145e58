// What a statistics page reads (issue 40: a page costs what it shows, not what the account holds).
// Both pages start from every key's lifetime figure, kept per account state (lifetime-memo.ts: one
// read per upload). Then the statistics page reads its first screen (the headline's candidates over
// the sparkline's 30 days, the headline figures' period, the calendar) and its short lists (sessions,
// events, rates); a list page (a group's, or a search's: issue 34) reads the period of its one page of
// figures. No page reads a chart of every figure it could list.
import { readsOf, type Db } from "../db/database.ts";
import type { Account } from "../accounts/accounts.ts";
import { chartSeries, listProfiles } from "../stats/fold.ts";
import { lifetimeState } from "../stats/lifetime-memo.ts";
import { recentEvents, recentSessions } from "../stats/activity.ts";
import { periodTotals, type PeriodKey, type PeriodTotals } from "../stats/periods.ts";
import { activityRates } from "../stats/rates.ts";
import { calendarStart } from "./calendar-view.tsx";
import { ACCOUNT_PROFILE } from "../wire/envelope.ts";
import { addDays, dayIn } from "../wire/day.ts";
import { SPARK_DAYS } from "../cards/headline.ts";
import { pageHeadline } from "../cards/preview.tsx";
import type { StatsView } from "./stats-view.tsx";
import type { KeyFigure } from "./key-figure.ts";
import type { ChartPoint } from "./chart.tsx";
import { findFigures, groupsOf, leadingFigures } from "./key-list.ts";
import { RANGE_OPTIONS, type PageParams } from "./page-params.ts";
import type { KeyListView } from "./key-list-view.tsx";
import { shownProfile, type HandleOf, type Profiles, type StatsPageDeps } from "./stats-page.ts";

/** Sessions and timeline events shown, newest first. */
const RECENT_SESSIONS = 20;
const RECENT_EVENTS = 30;

type Deps = Omit<StatsPageDeps, "pages">;
export type PageFrame = Pick<
  StatsView,
  "title" | "heading" | "path" | "noindex" | "notice" | "ownerCsv" | "ownerRecaps"
>;
type All = { p: readonly KeyFigure[]; a: readonly KeyFigure[] };

/** What every page of an account starts from: its profiles, the one shown, every key's lifetime figure. */
async function basis(deps: Deps, account: Account, params: PageParams, handleOf: HandleOf, held?: Profiles) {
  const profiles = held ?? (await listProfiles(deps.db, account.uuid));
  const selected = shownProfile(profiles, params.profile, handleOf);
  const today = dayIn(account.zone, deps.clock.now());
  const items = await deps.items?.current();
  /** How each read folds: through the handle readsOf gives it (on Postgres, under the page's statement timeout). */
  const fold = (db: Db) => ({ db, catalogue: deps.catalogue, items });
  const state = lifetimeState(account, profiles);
  const [p, a] = await readsOf(
    deps.db,
    deps.config.pageStatementTimeoutMs,
    async (db) => (selected ? deps.lifetimes.figures(fold(db), account.uuid, selected.id, state) : []),
    (db) => deps.lifetimes.figures(fold(db), account.uuid, ACCOUNT_PROFILE, state),
  );
  const days = params.range;
  return {
    profiles,
    selected,
    state,
    today,
    items,
    fold,
    all: { p, a } as All,
    range: { days, from: addDays(today, -(days - 1)), to: today, options: RANGE_OPTIONS },
    frame: {
      catalogue: deps.catalogue,
      items,
      itemImages: deps.config.itemImagesUrl !== "",
      zone: account.zone,
      // The page names its profiles by handle only: `id` below is the handle, the link's ?profile=.
      profiles: profiles.map((x) => ({ id: handleOf(x.id), cuteName: x.cuteName })),
      selected: selected ? { id: handleOf(selected.id), cuteName: selected.cuteName } : null,
      period: params.period,
    },
  };
}

/** What a page's reader is asked: the account, the page's parameters and frame, its profiles' handles, and its profiles when already read. */
type PageRead = [
  deps: Deps,
  account: Account,
  params: PageParams,
  page: PageFrame,
  handleOf: HandleOf,
  held?: Profiles,
];

/** Everything the statistics page shows for one account (its first screen and its short lists). */
export async function statsView(
  ...[deps, account, params, page, handleOf, held]: PageRead
): Promise<StatsView & { all: All }> {
  const b = await basis(deps, account, params, handleOf, held);
  const { selected, today, fold, all, range } = b;
  const timeout = deps.config.pageStatementTimeoutMs;
  const scopes = selected ? [selected.id, ACCOUNT_PROFILE] : [ACCOUNT_PROFILE];
  // The headline's candidates: each group's leading figures (as the card picks them), over the
  // sparkline's days only; and the player's chosen figures.
  const profileKeys = leadingFigures(all.p).shown;
  const accountKeys = leadingFigures(all.a).shown;
  const chosen = account.headlineKeys;
  const candidates = [...new Set([...profileKeys, ...accountKeys].map((f) => f.key).concat(chosen))];
  const sparkFrom = addDays(today, -(SPARK_DAYS - 1));
  const [charts, sessions, events, calendar, rates] = await readsOf(
    deps.db,
    timeout,
    (db) => chartSeries(fold(db), account.uuid, scopes, sparkFrom, today, candidates),
    async (db) => (selected ? recentSessions(db, account.uuid, selected.id, RECENT_SESSIONS) : []),
    async (db) => (selected ? recentEvents(db, account.uuid, selected.id, RECENT_EVENTS) : []),
    (db) => deps.lifetimes.calendar(fold(db), account.uuid, scopes, { from: calendarStart(today), to: today }, b.state),
    async (db) =>
      selected
        ? activityRates(db, account.uuid, selected.id, range.from, today)
        : { since: range.from, activities: [] },
  );
  const profileDays = (selected && charts.get(selected.id)) || new Map();
  const accountDays = charts.get(ACCOUNT_PROFILE)!;
  const headline = pageHeadline(
    deps.catalogue,
    { profileKeys, accountKeys, profileDays, accountDays, range },
    all,
    chosen,
  );
  // The period summary: the headline figures' period, each in the scope the headline took it from.
  const inProfile = new Set(all.p.map((f) => f.key));
  const [profilePeriod, accountPeriod] = await readsOf(
    deps.db,
    timeout,
    async (db) =>
      selected
        ? periodTotals(
            fold(db),
            account.uuid,
            selected.id,
            today,
            [params.period],
            headline.keys.filter((k) => inProfile.has(k)),
          )
        : null,
    (db) =>
      periodTotals(
        fold(db),
        account.uuid,
        ACCOUNT_PROFILE,
        today,
        [params.period],
        headline.keys.filter((k) => !inProfile.has(k)),
      ),
  );
  const summary = summaryOf(headline.keys, accountPeriod[0]!, profilePeriod?.[0]);
  return {
    ...page,
    ...b.frame,
    headline,
    range,
    profileKeys,
    accountKeys,
    profileDays,
    accountDays,
    sessions,
    events,
    periods: { profile: null, account: summary },
    calendar: [...calendar],
    rates,
    groups: { p: groupsOf(all.p), a: groupsOf(all.a) },
    all,
  };
}

/** The headline figures' period rows, in the headline's order, as one table's totals. */
function summaryOf(keys: string[], account: PeriodTotals, profile: PeriodTotals | undefined): PeriodTotals {
  const byKey = new Map<string, PeriodKey>();
  for (const k of [...(profile?.keys ?? []), ...account.keys]) if (!byKey.has(k.key)) byKey.set(k.key, k);
  return { ...account, keys: keys.flatMap((k) => byKey.get(k) ?? []) };
}

/** A list of figures (a group's, or a search's) with the period of its one page; null: no such group. */
export async function listView(
  ...[deps, account, params, page, handleOf, held]: PageRead
): Promise<KeyListView | null> {
  const ask = params.list!;
  const b = await basis(deps, account, params, handleOf, held);
  const figures = ask.scope === "a" ? b.all.a : b.all.p;
  const list = findFigures(figures, ask);
  if (!list) return null;
  const scopeId = ask.scope === "a" ? ACCOUNT_PROFILE : b.selected?.id;
  // A group's first page charts its few largest over the range (a search's list never does).
  const charted =
    ask.group !== null && ask.q === "" && list.page === 1
      ? (groupsOf(figures.filter((f) => f.group === list.group))[0]?.shown ?? [])
      : [];
  const shownKeys = list.figures.map((f) => f.key);
  const [period, charts] = await readsOf(
    deps.db,
    deps.config.pageStatementTimeoutMs,
    async (db) =>
      scopeId ? (await periodTotals(b.fold(db), account.uuid, scopeId, b.today, [params.period], shownKeys))[0]! : null,
    async (db) =>
      scopeId && charted.length > 0
        ? chartSeries(
            b.fold(db),
            account.uuid,
            [scopeId],
            b.range.from,
            b.range.to,
            charted.map((f) => f.key),
          )
        : new Map<string, Map<string, ChartPoint[]>>(),
  );
  const changes = new Map((period?.keys ?? []).map((k) => [k.key, k]));
  if (ask.sort === "change") {
    // Largest rise first; figures without a change (new, or none this period) last.
    const change = (f: KeyFigure) => changes.get(f.key)?.changeSameStretch ?? Number.NEGATIVE_INFINITY;
    list.figures.sort((x, y) => {
      const cx = change(x);
      const cy = change(y);
      return cx !== cy ? (cy > cx ? 1 : -1) : x.label < y.label ? -1 : x.label > y.label ? 1 : 0;
    });
  }
  const days = (scopeId && charts.get(scopeId)) || new Map<string, ChartPoint[]>();
  return { ...page, ...b.frame, range: b.range, scope: ask.scope, ask, list, changes, charted, days };
}
