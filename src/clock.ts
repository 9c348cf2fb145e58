// The one place that reads the wall clock. Everything else takes a Clock, so tests move time.
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to (tests). */
export function fakeClock(start: number | string = "2026-06-01T12:00:00Z") {
  let t = typeof start === "number" ? start : Date.parse(start);
  return {
    now: () => t,
    set(to: number | string) {
      t = typeof to === "number" ? to : Date.parse(to);
    },
    advance(ms: number) {
      t += ms;
    },
  };
}
