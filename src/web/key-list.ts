// A page's figures bounded in keys (issue 22: keys such as loot.item.<ITEM_ID> are open-ended, and
// a page of 10 000 charts took 21 s and 8 MB): each group shows its leading figures with charts, and
// the rest is one request away as a paged list without charts (?group=<slug>&page=N).
import type { KeyFigure } from "./key-figure.ts";

/** Figures of a group shown with their charts; the group's other figures are in its list. */
export const LEADING_PER_GROUP = 12;
/** Rows of one page of a group's list. */
export const LIST_PAGE_SIZE = 50;

export const groupSlug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "group";

/** Greatest magnitude first, then by key: what a list "leads" with (figures, rates). */
export const leadingBy =
  <T>(value: (t: T) => number, key: (t: T) => string) =>
  (a: T, b: T) =>
    Math.abs(value(b)) - Math.abs(value(a)) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

const leading = leadingBy<KeyFigure>(
  (f) => f.lifetime.value,
  (f) => f.key,
);

/**
 * Per group, its leading figures (all of a group of at most LEADING_PER_GROUP) and, by group, how
 * many figures it holds in all when that is more.
 */
export function leadingFigures(figures: readonly KeyFigure[]): { shown: KeyFigure[]; totals: Map<string, number> } {
  const byGroup = new Map<string, KeyFigure[]>();
  for (const f of figures) {
    const list = byGroup.get(f.group);
    if (list) list.push(f);
    else byGroup.set(f.group, [f]);
  }
  const shown: KeyFigure[] = [];
  const totals = new Map<string, number>();
  for (const [group, list] of byGroup) {
    if (list.length <= LEADING_PER_GROUP) {
      shown.push(...list);
      continue;
    }
    shown.push(...list.sort(leading).slice(0, LEADING_PER_GROUP));
    totals.set(group, list.length);
  }
  return { shown, totals };
}

/** Figures of each group the statistics page lists under the group's heading (the rest: its list). */
export const SHOWN_PER_GROUP = 5;

/** What a list asks for: one group (slug) or all, search words (lower case), order, page. */
export type ListQuery = { group: string | null; q: string; sort: "name" | "value" | "change"; page: number };

const byName = (a: KeyFigure, b: KeyFigure) =>
  a.label < b.label ? -1 : a.label > b.label ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/**
 * The figures a list shows before its page is cut: one group's (null when no group has that slug)
 * or every group's, those whose label or key holds the search words, in the list's order. "change"
 * orders only the LIST_PAGE_SIZE largest (their change is read for that one page: a page's cost is
 * what it shows, issue 40), so it is one page, ordered by change afterwards (the caller).
 */
export function findFigures(figures: readonly KeyFigure[], ask: ListQuery) {
  let list = ask.group === null ? [...figures] : figures.filter((f) => groupSlug(f.group) === ask.group);
  if (ask.group !== null && list.length === 0) return null;
  const group = ask.group === null ? null : list[0]!.group;
  const words = ask.q.split(" ").filter(Boolean);
  if (words.length > 0)
    list = list.filter((f) => {
      const text = `${f.label}\n${f.key}\n${f.group}`.toLowerCase();
      return words.every((w) => text.includes(w));
    });
  const matched = list.length;
  list.sort(ask.sort === "name" ? byName : leading);
  if (ask.sort === "change") list = list.slice(0, LIST_PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(list.length / LIST_PAGE_SIZE));
  const at = Math.min(Math.max(1, ask.page), pages);
  return {
    group,
    page: at,
    pages,
    /** Figures matching (before a change order keeps the largest page of them). */
    total: matched,
    figures: list.slice((at - 1) * LIST_PAGE_SIZE, at * LIST_PAGE_SIZE),
  };
}

/** Each group's figure count, and its SHOWN_PER_GROUP largest, in the groups' order of first figure. */
export function groupsOf(figures: readonly KeyFigure[]) {
  const byGroup = new Map<string, KeyFigure[]>();
  for (const f of figures) {
    const list = byGroup.get(f.group);
    if (list) list.push(f);
    else byGroup.set(f.group, [f]);
  }
  return [...byGroup].map(([group, list]) => ({
    group,
    total: list.length,
    shown: list.length <= SHOWN_PER_GROUP ? list.sort(byName) : list.sort(leading).slice(0, SHOWN_PER_GROUP),
  }));
}
