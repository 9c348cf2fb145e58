// A findable page's figures as JSON (GET /v1/pages/<name>, issue 37): what the page shows a stranger
// of its headline, its profiles and its period table, read the way the page reads them and no more.
// The lifetime figures come from the memo the page and the card share (one read per upload); the
// days read are the last 30 of the figures the page charts plus the chosen ones (the headline's
// rule), and the period table of the figures the page charts. No sessions, events, calendar or
// rates: the answer does not hold them, so it does not read them.
import type { Static } from "@sinclair/typebox";
import type { Account } from "../accounts/accounts.ts";
import { readsOf, type Db } from "../db/database.ts";
import { chartSeries } from "../stats/fold.ts";
import { lifetimeState } from "../stats/lifetime-memo.ts";
import { periodTotals, type PeriodKey, type PeriodTotals } from "../stats/periods.ts";
import { ACCOUNT_PROFILE } from "../wire/envelope.ts";
import { addDays, dayIn } from "../wire/day.ts";
import { candidatesOf, headline, SPARK_DAYS } from "../cards/headline.ts";
import { leadingFigures } from "./key-list.ts";
import type { PageParams } from "./page-params.ts";
import type { PublicPage } from "./public-page.schema.ts";
import { answerLabels } from "../stats/answer-labels.ts";
import { shownProfile, type HandleOf, type Profiles, type StatsPageDeps } from "./stats-page.ts";

export type PublicPageDeps = Pick<StatsPageDeps, "db" | "lifetimes" | "clock" | "catalogue" | "items"> & {
  config: Pick<StatsPageDeps["config"], "baseUrl" | "pageStatementTimeoutMs">;
};

const periodFigure = (k: PeriodKey) => ({
  key: k.key,
  label: k.label,
  group: k.group,
  kind: k.kind,
  unit: k.unit,
  value: k.value,
  previousSameStretch: k.previousSameStretch,
  changeSameStretch: k.changeSameStretch,
});

/** The figures of `account`'s page as `params` (its profile and period) ask for them. */
export async function publicPage(
  deps: PublicPageDeps,
  account: Account,
  params: Pick<PageParams, "profile" | "period">,
  handleOf: HandleOf,
  profiles: Profiles,
): Promise<Static<typeof PublicPage>> {
  const selected = shownProfile(profiles, params.profile, handleOf);
  const today = dayIn(account.zone, deps.clock.now());
  const items = await deps.items?.current();
  const fold = (db: Db) => ({ db, catalogue: deps.catalogue, items });
  const timeout = deps.config.pageStatementTimeoutMs;
  const scopes = selected ? [selected.id, ACCOUNT_PROFILE] : [ACCOUNT_PROFILE];
  const state = lifetimeState(account, profiles);
  const all = await readsOf(
    deps.db,
    timeout,
    ...scopes.map((scope) => (db: Db) => deps.lifetimes.figures(fold(db), account.uuid, scope, state)),
  );
  const shown = all.map((figures) => leadingFigures(figures).shown);
  const charted = [...new Set(shown.flat().map((f) => f.key))];
  const chosen = account.headlineKeys;
  const [charts, ...periods] = await readsOf(
    deps.db,
    timeout,
    (db) =>
      chartSeries(fold(db), account.uuid, scopes, addDays(today, -(SPARK_DAYS - 1)), today, [
        ...new Set([...charted, ...chosen]),
      ]),
    ...scopes.map((scope) => (db: Db) => periodTotals(fold(db), account.uuid, scope, today, [params.period], charted)),
  );
  const h = headline(
    deps.catalogue,
    scopes.flatMap((scope, i) => candidatesOf(shown[i]!, all[i]!, chosen, (key) => charts.get(scope)?.get(key))),
    today,
    chosen,
  );
  const accountPeriod = (periods.at(-1) as PeriodTotals[])[0]!;
  const profilePeriod = selected ? (periods[0] as PeriodTotals[])[0]! : null;
  const profile = (p: { id: string; cuteName: string }) => ({ handle: handleOf(p.id), cuteName: p.cuteName });
  // A key reads the same in the headline and both period tables, and two keys never read the same.
  const label = answerLabels(deps.catalogue, items, [
    ...h.picked.map((c) => c.key),
    ...(profilePeriod?.keys ?? []).map((k) => k.key),
    ...accountPeriod.keys.map((k) => k.key),
  ]);
  return {
    name: account.name,
    page: `${deps.config.baseUrl}/u/${encodeURIComponent(account.name)}`,
    zone: account.zone,
    today,
    headline: label(h.picked).map((c, i) => ({
      key: c.key,
      label: c.label,
      kind: c.kind as Static<typeof PublicPage>["headline"][number]["kind"],
      unit: c.unit,
      value: c.lifetime.value,
      ...(c.lifetime.clamped ? { clamped: true as const } : {}),
      text: h.figures[i]!.value,
    })),
    profiles: profiles.map(profile),
    profile: selected ? profile(selected) : null,
    period: {
      period: accountPeriod.period,
      from: accountPeriod.from,
      to: accountPeriod.to,
      previousSameStretch: accountPeriod.previousSameStretch,
      profile: profilePeriod ? label(profilePeriod.keys).map(periodFigure) : null,
      account: label(accountPeriod.keys).map(periodFigure),
    },
  };
}
