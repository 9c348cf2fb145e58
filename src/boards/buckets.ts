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
