// GET /v1/stats/periods: a profile's day, week, month and year totals with the previous period's
// (signed in; the statistics pages call the same function for /u/ and /s/).
import { Elysia } from "elysia";
import type { Clock } from "../clock.ts";
import { readGuard, type ReadGuardDeps } from "../tokens/read-guard.ts";
import { requireAccount } from "../accounts/accounts.ts";
import { examples } from "../http/route-detail.ts";
import { dayIn } from "../wire/day.ts";
import { queryDay } from "./query-days.ts";
import type { FoldDeps } from "./fold.ts";
import { periodTotalsPage } from "./periods.ts";
import { answerLabels } from "./answer-labels.ts";
import type { ItemNames } from "../items/item-names.ts";
import { PeriodsAnswer, PeriodsQuery } from "./periods.schema.ts";
import periodsExample from "../../fixtures/totals/periods.json";

/** `items`: this instance's copy of the game's item names (labels of item keys, as the pages write them). */
export function periodRoutes(deps: FoldDeps & ReadGuardDeps & { clock: Clock; items?: ItemNames }) {
  const tokens = { "GET /v1/stats/periods": ["stats:read", "page:read"] } as const;
  return new Elysia({ name: "tally.periods" }).use(readGuard(deps, tokens)).get(
    "/v1/stats/periods",
    async ({ signedIn, query }) => {
      const { zone } = await requireAccount(deps.db, signedIn.uuid);
      const now = deps.clock.now();
      const day = query.day === undefined ? dayIn(zone, now) : queryDay("day", query.day, now);
      const items = await deps.items?.current();
      const page = await periodTotalsPage({ ...deps, items }, signedIn.uuid, query.profile, day, query.after ?? null);
      // A key reads the same in all four periods, and two keys never read the same in the answer.
      const label = answerLabels(
        deps.catalogue,
        items,
        page.periods.flatMap((p) => p.keys.map((k) => k.key)),
      );
      return {
        profileId: query.profile,
        day,
        zone,
        periods: page.periods.map((p) => ({ ...p, keys: label(p.keys) })),
        next: page.next,
      };
    },
    {
      query: PeriodsQuery,
      response: PeriodsAnswer,
      detail: {
        tags: ["stats"],
        summary:
          "Day, week (Monday start), month and year totals of a profile so far, in the account's zone, with the whole previous period's and the change, folded by kind; a page of keys at a time",
        ...examples({ answers: { 200: periodsExample } }),
      },
    },
  );
}
