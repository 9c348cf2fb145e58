// The ranking's quantisation (docs/decisions.md, "Boards: ranking by value buckets"). A score is
// ordered by its sort value, ascending = best first: the value negated where higher is better.
// Its bucket is the sort value cut to 3 significant digits (every value under 1 000 its own
// bucket; 900 buckets a decade above), so a board of any size has at most ~16 000 buckets, and
// `bucket` never decreases as the sort value grows: ordering by (bucket, sort value) is ordering by
// sort value, and the better buckets' counts add up to the rows ahead of a bucket.

/** The sort value of a figure: smaller is better. */
export const sortValueOf = (value: bigint, higherBetter: boolean) => (higherBetter ? -value : value);

/** The bucket of a sort value; monotone non-decreasing. */
export function bucketOf(sortValue: bigint): number {
  const negative = sortValue < 0n;
  const m = negative ? -sortValue : sortValue;
  let q: number;
  if (m < 1000n) q = Number(m);
  else {
    const digits = m.toString();
    const e = digits.length - 1; // >= 3
    const mantissa = Number(digits.slice(0, 3)); // 100..999
    q = 1000 + (e - 3) * 900 + (mantissa - 100);
  }
  return negative ? -q : q;
}

/** Buckets a group (level 1 of board_buckets) holds: group g is buckets [100 g, 100 g + 99]. */
export const GROUP = 100;
export const groupOf = (bucket: number) => Math.floor(bucket / GROUP);

// Level 2 of board_buckets splits an exact-value bucket (|bucket| < 1 000: every score in it has
// the same figure, so the tie rule orders it) by the time reached: slot `s` of bucket `b` is the
// row `b * 2^21 + s`, counting the bucket's scores reached in [s, s + 1) slot lengths (an hour in a
// week, 4 hours in a month, a day all-time). A crowd of equal figures (15 000 players with 1 kill)
// is then a few hundred slot counts and one slot's rows, not a count of the crowd.
/** Slots a bucket may have (level-2 rows of bucket b are b * SLOTS + slot). */
export const SLOTS = 2 ** 21;
export const isExactBucket = (bucket: number) => bucket > -1000 && bucket < 1000;
/** The slot length of a window (its id: `week:…`, `month:…`, `all`). */
export const slotMs = (window: string) =>
  window.startsWith("week:") ? 3_600_000 : window.startsWith("month:") ? 14_400_000 : 86_400_000;
/** The slot a score reached at `reachedAt` lies in (clamped to 2^21 slots). */
export const slotOf = (window: string, reachedAt: number) =>
  Math.min(SLOTS - 1, Math.max(0, Math.floor(reachedAt / slotMs(window))));
/** The level-2 row of a bucket's slot; (bucket, slot) order is this number's order. */
export const slotKey = (bucket: number, slot: number) => bucket * SLOTS + slot;
/** Where slot `slot` begins, in time reached (none for the first: it holds everything before). */
export const slotStart = (window: string, slot: number) => (slot === 0 ? null : slot * slotMs(window));
