// A page's figures bounded in keys (issue 22: keys such as loot.item.<ITEM_ID> are open-ended, and
// a page of 10 000 charts took 21 s and 8 MB): each group shows its leading figures with charts, and
// the rest is one request away as a paged list without charts (?group=<slug>&page=N).
import type { KeyFigure } from "./key-figure.ts";

/** Figures of a group shown with their charts; the group's other figures are in its list. */
export const LEADING_PER_GROUP = 12;
/** Rows of one page of a group's list. */
export const LIST_PAGE_SIZE = 200;

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

/** One page of a group's figures, by label then key; null when no group has this slug. */
export function groupPage(figures: readonly KeyFigure[], slug: string, page: number) {
  const list = figures.filter((f) => groupSlug(f.group) === slug);
  if (list.length === 0) return null;
  list.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : a.key < b.key ? -1 : 1));
  const pages = Math.ceil(list.length / LIST_PAGE_SIZE);
  const at = Math.min(Math.max(1, page), pages);
  return {
    group: list[0]!.group,
    page: at,
    pages,
    total: list.length,
    figures: list.slice((at - 1) * LIST_PAGE_SIZE, at * LIST_PAGE_SIZE),
  };
}
