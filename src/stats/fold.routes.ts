// Read routes of the folded statistics, for the mod and the pages (signed in; the pages call the
// same functions for /u/ and /s/).
import { Elysia } from "elysia";
import type { Clock } from "../clock.ts";
import { readGuard, type ReadGuardDeps } from "../tokens/read-guard.ts";
import { requireAccount } from "../accounts/accounts.ts";
import { dayIn } from "../wire/day.ts";
import { queryRange } from "./query-days.ts";
import { listProfiles, perDay, series, totals, type FoldDeps } from "./fold.ts";
import { answerLabels } from "./answer-labels.ts";
import type { ItemNames } from "../items/item-names.ts";
import {
  DaysAnswer,
  ProfileQuery,
  ProfilesAnswer,
  RangeQuery,
  SeriesAnswer,
  SeriesQuery,
  TotalsAnswer,
} from "./fold.schema.ts";
import { examples } from "../http/route-detail.ts";
import totalsExample from "../../fixtures/totals/totals.json";
import seriesExample from "../../fixtures/totals/series-mining.json";
import daysExample from "../../fixtures/totals/days.json";

/** A range is at most ten years; by default the last 365 days in the account's zone. */
const MAX_RANGE_DAYS = 3660;
const DEFAULT_RANGE_DAYS = 365;

/** Which personal access tokens each route takes (tokens/scopes.ts); every route takes a device session. */
const TOKEN_SCOPES = {
  "GET /v1/stats/profiles": ["stats:read", "page:read"],
  "GET /v1/stats/totals": ["stats:read", "page:read"],
  "GET /v1/stats/series": ["stats:read", "page:read"],
  "GET /v1/stats/days": ["stats:read"],
} as const;

/** `items`: this instance's copy of the game's item names (labels of item keys, as the pages write them). */
export function foldRoutes(deps: FoldDeps & ReadGuardDeps & { clock: Clock; items?: ItemNames }) {
  const tags = ["stats"];
  // One copy of the item list per answer, as it stands when the request starts.
  const folding = async () => ({ ...deps, items: await deps.items?.current() });
  const range = async (uuid: string, q: { from?: string; to?: string }) => {
    const now = deps.clock.now();
    const today = q.to ?? dayIn((await requireAccount(deps.db, uuid)).zone, now);
    return queryRange(q, today, now, { maxDays: MAX_RANGE_DAYS, defaultDays: DEFAULT_RANGE_DAYS });
  };
  return new Elysia({ name: "tally.fold" })
    .use(readGuard(deps, TOKEN_SCOPES))
    .get("/v1/stats/profiles", async ({ signedIn }) => ({ profiles: await listProfiles(deps.db, signedIn.uuid) }), {
      response: ProfilesAnswer,
      detail: { tags, summary: "The game-mode profiles this account has uploaded for" },
    })
    .get(
      "/v1/stats/totals",
      async ({ signedIn, query }) => {
        const fold = await folding();
        const answer = await totals(fold, signedIn.uuid, query.profile);
        // A key of the profile and one of the account never read the same in one answer.
        const label = answerLabels(
          deps.catalogue,
          fold.items,
          [...answer.profile.keys, ...answer.account.keys].map((k) => k.key),
        );
        return {
          ...answer,
          profile: { ...answer.profile, keys: label(answer.profile.keys) },
          account: { ...answer.account, keys: label(answer.account.keys) },
        };
      },
      {
        query: ProfileQuery,
        response: TotalsAnswer,
        detail: {
          tags,
          summary:
            "Lifetime totals of every key of a profile, each with its baseline's date; the account scope alongside",
          ...examples({ answers: { 200: totalsExample } }),
        },
      },
    )
    .get(
      "/v1/stats/series",
      async ({ signedIn, query }) => {
        const { from, to } = await range(signedIn.uuid, query);
        return series(await folding(), signedIn.uuid, query.profile, query.key, from, to);
      },
      {
        query: SeriesQuery,
        response: SeriesAnswer,
        detail: {
          tags,
          summary: "One key's value per observed day (a day without observation is absent)",
          ...examples({ answers: { 200: seriesExample } }),
        },
      },
    )
    .get(
      "/v1/stats/days",
      async ({ signedIn, query }) => {
        const { from, to } = await range(signedIn.uuid, query);
        return perDay(deps, signedIn.uuid, query.profile, from, to);
      },
      {
        query: RangeQuery,
        response: DaysAnswer,
        detail: {
          tags,
          summary:
            "Every key's value per observed day of a range, a window of whole days at a time (about 50 000 values at most): `to` is the window's last day, `next` where the next starts",
          ...examples({ answers: { 200: daysExample } }),
        },
      },
    );
}
