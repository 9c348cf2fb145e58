// Which figures a preview shows: first the ones the player chose (settings' headlineKeys, in their
// order, each that has a figure), then the lifetime figures recorded on the most days of the last 30
// (the page's default profile and the whole account together), ties to counts (what a player
// gathers), then to the one recorded most recently, then to the largest (a best time: the lowest),
// and only then by label; the first of them also draws the sparkline. The page's headline, its
// description, its card, its badges and its public figures pick with this one rule.
import type { Catalogue } from "../catalogue/catalogue.ts";
import { HEADLINE_KEYS } from "../accounts/settings.schema.ts";
import { addDays } from "../wire/day.ts";
import { formatValue } from "../web/format.ts";
import type { CardFigure, Sparkline } from "./card-svg.ts";

export const HEADLINE_FIGURES = HEADLINE_KEYS;
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

export type Headline = {
  figures: CardFigure[];
  spark: Sparkline | null;
  keys: string[];
  /** The figures picked, in order (the public figures answer them). */
  picked: Candidate[];
};

/**
 * The candidates of one scope: the figures it shows, and those of its other figures the player
 * chose (a chosen key can be outside a group's leading figures). `points`: the scope's observed days.
 */
export function candidatesOf<F extends Omit<Candidate, "points">>(
  shown: readonly F[],
  all: readonly F[],
  chosen: readonly string[],
  points: (key: string) => Candidate["points"] | undefined,
): Candidate[] {
  const listed = new Set(shown.map((f) => f.key));
  const extra = chosen.length > 0 ? all.filter((f) => chosen.includes(f.key) && !listed.has(f.key)) : [];
  return [...shown, ...extra].map((f) => ({ ...f, points: points(f.key) ?? [] }));
}

/** The last day of `points` ("" when none): a tie goes to the figure recorded most recently. */
const lastDay = (points: Candidate["points"]) => points.reduce((d, p) => (p.day > d ? p.day : d), "");

/** A tie left goes to the larger figure (of two best times, the lower): the player's largest, not the alphabet's first. */
const larger = (a: Candidate, b: Candidate) =>
  a.kind === "min" && b.kind === "min" ? a.lifetime.value - b.lifetime.value : b.lifetime.value - a.lifetime.value;

/**
 * The headline of `candidates` (the first of a key wins: the profile's before the account's).
 * `chosen`: the player's keys, leading in their order; one without a figure is skipped.
 */
export function headline(
  catalogue: Catalogue,
  candidates: Candidate[],
  today: string,
  chosen: readonly string[] = [],
): Headline {
  const from = addDays(today, -(SPARK_DAYS - 1));
  const recent = (c: Candidate) => c.points.filter((p) => p.day >= from && p.day <= today);
  const first = new Map<string, Candidate>();
  for (const c of candidates) if (!first.has(c.key)) first.set(c.key, c);
  const lead = chosen.flatMap((key) => {
    const c = first.get(key);
    return c ? [{ c, recent: recent(c) }] : [];
  });
  const taken = new Set(lead.map(({ c }) => c.key));
  const rest = candidates
    .filter((c) => !taken.has(c.key))
    .map((c) => ({ c, recent: recent(c) }))
    .sort(
      (a, b) =>
        b.recent.length - a.recent.length ||
        Number(b.c.kind === "count") - Number(a.c.kind === "count") ||
        lastDay(b.recent).localeCompare(lastDay(a.recent)) ||
        larger(a.c, b.c) ||
        a.c.label.localeCompare(b.c.label) ||
        a.c.key.localeCompare(b.c.key),
    );
  const ranked = [...lead, ...rest].slice(0, HEADLINE_FIGURES);
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
    picked: ranked.map(({ c }) => c),
  };
}

/** The figures as one line of text (a page's description). */
export const headlineText = (h: Headline) => h.figures.map((f) => `${f.label}: ${f.value}`).join(" · ");
