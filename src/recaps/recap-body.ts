// What a stored recap holds (recaps.body): keys and numbers, never words or ids a page would show
// as they are. The page and the card put labels on keys (stats/labels.ts through describeKey) and
// format numbers (web/format.ts) when they draw it, so a better label reaches old recaps too.

/** A streak of consecutive active days within the period. */
export type Streak = { days: number; from: string; to: string };

/** One count key's gain within the period, beside its gain over the whole previous period. */
export type Gain = { key: string; unit: string; value: number; previous: number | null };

export type ScopeRecap = {
  /** Days of the period with any recorded figure. */
  activeDays: number;
  /** The same over the whole previous period (like with like: a whole month or year). */
  previousActiveDays: number;
  longestStreak: Streak | null;
  /** The day with the most different figures recorded (ties: the earliest). */
  busiestDay: { day: string; figures: number } | null;
  /** The longest session that began in the period (ties: the earliest). */
  longestSession: { activity: string; day: string; ms: number } | null;
  /** The catalogue's groups, each with its largest count gains (groups by their largest gain). */
  topGains: { group: string; gains: Gain[] }[];
  /** Timeline events of the personal-best kind in the period: how many, and the latest few. */
  personalBests: { count: number; latest: { key: string | null; unit: string; value: number | null; day: string }[] };
  /** Figures recorded per day (a month: each day; a year: active days per month), for the chart. */
  perStep: number[];
};

export type RecapBody = {
  /** "2026-10" or "2026". */
  period: string;
  from: string;
  to: string;
  /** The whole account: every profile and the account scope together. */
  account: ScopeRecap;
  /** Each profile active in the period, by its display name (the game's; never its id). */
  profiles: { cuteName: string; recap: ScopeRecap }[];
  /**
   * Board placements (src/boards/placements.ts): the rank on each board in the month (a year: the
   * best month, `at`), of how many ranked; absent when none.
   */
  boards?: { board: string; rank: number; of: number; at?: string }[];
};
