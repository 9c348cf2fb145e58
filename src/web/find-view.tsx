// A statistics page's own addresses (its profile, range, period and list switches) and its GET
// search form (issue 34), shared by the page, a group's list and the figure charts.
import type { Period } from "../stats/periods.ts";

/** Where a page stands: what its links keep unless they change it. */
export type PageAt = {
  /** the page's own path, without query */
  path: string;
  profiles: { id: string }[];
  selected: { id: string } | null;
  range: { days: number; options: readonly number[] };
  period: Period;
};

export function query(
  view: PageAt,
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

/**
 * The search and order of a list, as a GET form: works without script, and its answer is an
 * address a reader can keep (issue 34). `ask`: the list shown (its words and choices kept).
 */
export function FindForm(props: {
  view: PageAt;
  scope: "p" | "a";
  ask?: { q: string; sort: string; group: string | null };
  groups?: string[];
}): JSX.Element {
  const { view, ask } = props;
  const sorts = [
    ["name", "Name"],
    ["value", "Largest"],
    ["change", "Change this period"],
  ] as const;
  return (
    <form method="get" action={`${view.path}#list`} class="find">
      {view.selected && view.profiles.length > 1 ? <input type="hidden" name="profile" value={view.selected.id} /> : ""}
      {view.period !== "week" ? <input type="hidden" name="period" value={view.period} /> : ""}
      {ask?.group ? <input type="hidden" name="group" value={ask.group} /> : ""}
      <label>
        <span>Name contains</span>
        <input type="search" name="q" value={ask?.q ?? ""} maxlength="64" autocomplete="off" />
      </label>
      <label>
        <span>Of</span>
        <select name="scope">
          <option value="p" selected={props.scope === "p"}>
            This profile
          </option>
          <option value="a" selected={props.scope === "a"}>
            Whole account
          </option>
        </select>
      </label>
      <label>
        <span>Sort by</span>
        <select name="sort">
          {sorts.map(([value, words]) => (
            <option value={value} selected={(ask?.sort ?? "name") === value}>
              {words}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Find</button>
    </form>
  );
}
