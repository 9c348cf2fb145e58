// Which figures a preview shows: the lifetime figures recorded on the most days of the last 30
// (the page's default profile and the whole account together), ties to counts (what a player
// gathers), then by label; the first of them also draws the sparkline. The page's description and its card pick with this one rule.
import type { Catalogue } from "../catalogue/catalogue.ts";
import { addDays } from "../wire/day.ts";
import { formatValue } from "../web/format.ts";
import type { CardFigure, Sparkline } from "./card-svg.ts";

export const HEADLINE_FIGURES = 4;
export const SPARK_DAYS = 30;

type Lifetime = { value: number; clamped?: true };
export type Candidate = {
  key: string;
  label: string;
  kind: string;
  unit: string;
  lifetime: Lifetime;
  /** observed days (any range that covers the last SPARK_DAYS) */
  points: { day: string; value: number }[];
};

/** A lifetime figure's words, as the page writes them. */
export const lifetimeWords = (catalogue: Catalogue, unit: string, lifetime: Lifetime) =>
  (lifetime.clamped ? (lifetime.value > 0 ? "more than " : "less than ") : "") +
  formatValue(catalogue, unit, lifetime.value);

export type Headline = { figures: CardFigure[]; spark: Sparkline | null; keys: string[] };

export function headline(catalogue: Catalogue, candidates: Candidate[], today: string): Headline {
  const from = addDays(today, -(SPARK_DAYS - 1));
  const recent = (c: Candidate) => c.points.filter((p) => p.day >= from && p.day <= today);
  const ranked = candidates
    .map((c) => ({ c, recent: recent(c) }))
    .sort(
      (a, b) =>
        b.recent.length - a.recent.length ||
        Number(b.c.kind === "count") - Number(a.c.kind === "count") ||
        a.c.label.localeCompare(b.c.label) ||
        a.c.key.localeCompare(b.c.key),
    )
    .slice(0, HEADLINE_FIGURES);
  const top = ranked[0];
  let spark: Sparkline | null = null;
  if (top && top.recent.length > 0) {
    const byDay = new Map(top.recent.map((p) => [p.day, p.value]));
    const values = Array.from({ length: SPARK_DAYS }, (_, i) => byDay.get(addDays(from, i)) ?? null);
    spark = { caption: `${top.c.label}, last ${SPARK_DAYS} days`, values, bars: top.c.kind === "count" };
  }
  return {
    figures: ranked.map(({ c }) => ({ label: c.label, value: lifetimeWords(catalogue, c.unit, c.lifetime) })),
    spark,
    keys: ranked.map(({ c }) => c.key),
  };
}

/** The figures as one line of text (a page's description). */
export const headlineText = (h: Headline) => h.figures.map((f) => `${f.label}: ${f.value}`).join(" · ");
