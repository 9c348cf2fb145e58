// What a statistics page is asked for, read once from its query string (issue 40): the profile, the
// chart range, the period and, for a list (a group's, or a search's: issue 34), the group, the
// search words, the order, the scope and the page. Everything else in
// the query string is ignored, so the page, its kept copy's key and the reads it costs depend on
// these parameters only: `?a=1` is the same page as no query string, and a profile the account does
// not hold is the page's default profile (the key names the profile shown, not the one asked for).
import { PERIODS, type Period } from "../stats/periods.ts";

/** Chart ranges offered, in days; the middle one is the default. */
export const RANGE_OPTIONS = [30, 90, 365] as const;

export type PageParams = {
  /**
   * The profile asked for by its handle (profileHandle in stats.routes.tsx: never its id, issue 34),
   * else null: the page picks its default.
   */
  profile: string | null;
  range: number;
  period: Period;
  /**
   * A list of figures (?group=&q=&sort=&scope=&page=): one group's (`group`, else every group's),
   * those whose name or key holds `q` (lower case; empty: all), in `sort` order; else null: the
   * statistics page itself.
   */
  list: { group: string | null; q: string; sort: ListSort; scope: "p" | "a"; page: number } | null;
};

/** A list's orders: by name, by lifetime value (largest first), by the period's change (largest first). */
export const LIST_SORTS = ["name", "value", "change"] as const;
export type ListSort = (typeof LIST_SORTS)[number];
/** Search words kept (longer ones are cut): a figure's label or key is shorter. */
export const MAX_SEARCH = 64;

/** A profile's handle on a page: 12 base64url characters (a raw profile id is not one). */
const PROFILE_HANDLE = /^[A-Za-z0-9_-]{12}$/;
/** A group's slug (key-list.ts groupSlug makes them): lower-case words joined by hyphens. */
const GROUP_SLUG = /^[a-z0-9-]{1,64}$/;
/** A list page past this is the list's last page anyway (a profile's keys are capped). */
const MAX_LIST_PAGE = 10_000;

export function pageParams(url: URL): PageParams {
  const q = url.searchParams;
  const profile = q.get("profile");
  const range = Number(q.get("range"));
  const period = q.get("period") ?? "";
  const group = q.get("group") || null;
  const search = (q.get("q") ?? "").trim().replace(/\s+/g, " ").toLowerCase().slice(0, MAX_SEARCH);
  const sort = q.get("sort") ?? "";
  const page = Number.parseInt(q.get("page") ?? "1", 10);
  return {
    profile: profile !== null && PROFILE_HANDLE.test(profile) ? profile : null,
    range: (RANGE_OPTIONS as readonly number[]).includes(range) ? range : RANGE_OPTIONS[1],
    period: (PERIODS as readonly string[]).includes(period) ? (period as Period) : "week",
    list:
      group === null && search === "" && !q.has("sort")
        ? null
        : {
            // An impossible slug is kept as one that matches no group: the page answers 404.
            group: group === null ? null : GROUP_SLUG.test(group) ? group : "-",
            q: search,
            sort: (LIST_SORTS as readonly string[]).includes(sort) ? (sort as ListSort) : "name",
            scope: q.get("scope") === "a" ? "a" : "p",
            page: Number.isSafeInteger(page) ? Math.min(Math.max(1, page), MAX_LIST_PAGE) : 1,
          },
  };
}

/** The parameters as one canonical string, with the profile the page shows (null: none held). */
export function pageParamsKey(p: PageParams, shownProfile: string | null): string {
  // The search words last: they are the only free text (a "|" in them cannot stand for another field).
  const list = p.list
    ? `|${p.list.scope}:${p.list.group ?? "*"}:${p.list.sort}:${p.list.page}:${JSON.stringify(p.list.q)}`
    : "";
  return `${shownProfile ?? "-"}|${p.range}|${p.period}${list}`;
}
