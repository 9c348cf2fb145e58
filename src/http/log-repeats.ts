// A log line that a failing dependency repeats for every request (a full disk, a database that
// does not answer): written the first time, then at most once a window while it goes on, each time
// saying how many like it were left out. A full disk refusing hundreds of requests a second writes
// a line a minute, not hundreds (the log may well be on that disk).

/** Once a minute per kind of line (docs/decisions.md, "Repeated database errors in the log"). */
export const REPEAT_WINDOW_MS = 60_000;

export type Repeat = { leftOut: number; sinceMs: number } | Record<string, never>;

/**
 * `admit(kind)`: null when a line of this kind was written less than `windowMs` ago (it is
 * counted); otherwise the fields to add to the line now: how many were left out since the last one.
 */
export function repeatLimiter(now: () => number, windowMs = REPEAT_WINDOW_MS) {
  const last = new Map<string, { at: number; leftOut: number }>();
  return {
    admit(kind: string): Repeat | null {
      const t = now();
      const seen = last.get(kind);
      // A clock stepped back starts a new window rather than silencing the log until it catches up.
      if (seen && t >= seen.at && t - seen.at < windowMs) {
        seen.leftOut++;
        return null;
      }
      last.set(kind, { at: t, leftOut: 0 });
      return seen?.leftOut ? { leftOut: seen.leftOut, sinceMs: t - seen.at } : {};
    },
  };
}
