// The range of every figure on the wire: a JSON number carries an integer exactly only up to 2^53 - 1.

/** Number.MAX_SAFE_INTEGER: the largest figure a JSON answer can carry exactly (design.md 3). */
export const SAFE_LIMIT = 9_007_199_254_740_991;
