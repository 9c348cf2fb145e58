// Board windows: ISO weeks at the year's edges (the week-1 bug EliteFarmers had), months, stepping,
// buckets' order.
import { describe, expect, test } from "bun:test";
import { isoWeek, isOpen, parseWindow, stepWindow, windowOf } from "../../src/boards/windows.ts";
import { bucketOf } from "../../src/boards/buckets.ts";

describe("ISO weeks", () => {
  test("2026-12-31 and 2027-01-01 are in 2026-W53; 2027-01-04 starts 2027-W01", () => {
    expect(windowOf("week", "2026-12-31").id).toBe("week:2026-W53");
    expect(windowOf("week", "2027-01-01").id).toBe("week:2026-W53");
    expect(windowOf("week", "2027-01-03").id).toBe("week:2026-W53");
    expect(windowOf("week", "2027-01-04")).toMatchObject({ id: "week:2027-W01", from: "2027-01-04", to: "2027-01-10" });
  });
  test("week 1 can start in December: 2024-12-30 is 2025-W01", () => {
    expect(windowOf("week", "2024-12-30")).toMatchObject({ id: "week:2025-W01", from: "2024-12-30", to: "2025-01-05" });
    expect(windowOf("week", "2025-01-01").id).toBe("week:2025-W01");
    expect(windowOf("week", "2024-12-29").id).toBe("week:2024-W52");
  });
  test("a week runs Monday to Sunday", () => {
    expect(windowOf("week", "2026-11-22")).toMatchObject({ from: "2026-11-16", to: "2026-11-22", at: "2026-W47" });
    expect(windowOf("week", "2026-11-23").at).toBe("2026-W48");
  });
  test("parsing a week gives the same window back; week 53 only in long years", () => {
    for (const day of ["2026-12-31", "2027-01-04", "2024-12-30", "2026-06-15"]) {
      const w = windowOf("week", day);
      expect(parseWindow("week", w.at)).toEqual(w);
    }
    expect(parseWindow("week", "2026-W53")).not.toBeNull();
    expect(parseWindow("week", "2027-W53")).toBeNull();
    expect(parseWindow("week", "2026-W00")).toBeNull();
    expect(parseWindow("week", "nonsense")).toBeNull();
  });
  test("every day of 2020 to 2030 lies in its week, and weeks follow each other", () => {
    let day = "2020-01-01";
    let prev = windowOf("week", day);
    while (day < "2031-01-01") {
      const w = windowOf("week", day);
      expect(day >= w.from! && day <= w.to!).toBe(true);
      if (w.id !== prev.id) expect(stepWindow(prev, 1)).toEqual(w);
      prev = w;
      day = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    }
    expect(isoWeek("2020-12-31")).toEqual({ year: 2020, week: 53 });
  });
});

describe("months and openness", () => {
  test("a month is its calendar days; February of a leap year has 29", () => {
    expect(windowOf("month", "2028-02-10")).toMatchObject({
      id: "month:2028-02",
      from: "2028-02-01",
      to: "2028-02-29",
    });
    expect(stepWindow(windowOf("month", "2026-12-05"), 1)!.id).toBe("month:2027-01");
    expect(parseWindow("month", "2026-13")).toBeNull();
  });
  test("a window is open until a day past its end", () => {
    const w = windowOf("week", "2026-11-18");
    expect(isOpen(w, "2026-11-22")).toBe(true);
    expect(isOpen(w, "2026-11-23")).toBe(true);
    expect(isOpen(w, "2026-11-24")).toBe(false);
  });
});

test("buckets never decrease as the sort value grows", () => {
  const values = [-(10n ** 15n), -123456n, -1000n, -999n, -1n, 0n, 1n, 999n, 1000n, 1001n, 99999n, 100000n, 10n ** 15n];
  for (let i = 1; i < values.length; i++) expect(bucketOf(values[i]!)).toBeGreaterThanOrEqual(bucketOf(values[i - 1]!));
  let last = bucketOf(-(10n ** 12n));
  for (let v = -(10n ** 12n); v < 10n ** 12n; v += 7_777_777n + (v < 0n ? -v / 3n : v / 3n)) {
    expect(bucketOf(v)).toBeGreaterThanOrEqual(last);
    last = bucketOf(v);
  }
});

test("figures of a board's keys: counts and gauges add up, a max keeps the best, a min the least", async () => {
  const { combineFigures, ranked } = await import("../../src/boards/scores.ts");
  const { implausible } = await import("../../src/boards/plausibility.ts");
  expect(combineFigures("count", [3n, 4n])).toBe(7n);
  expect(combineFigures("gauge", [3n, 4n])).toBe(7n);
  expect(combineFigures("max", [3n, 9n, 4n])).toBe(9n);
  expect(combineFigures("min", [3n, 9n, 1n])).toBe(1n);
  expect(combineFigures("max", [])).toBeNull();
  // A count ranks only above zero; a best ranks whatever it is.
  expect(ranked("count", 0n)).toBe(false);
  expect(ranked("max", 0n)).toBe(true);
  const board = (kind: "count" | "max" | "min", bound: number) =>
    ({ kind, bound }) as Parameters<typeof implausible>[0];
  const week = windowOf("week", "2026-11-18");
  expect(implausible(board("count", 100), week, 700n)).toBe(false);
  expect(implausible(board("count", 100), week, 701n)).toBe(true);
  expect(implausible(board("count", 100), windowOf("all", ""), 10n ** 12n)).toBe(false);
  expect(implausible(board("max", 100), week, 101n)).toBe(true);
  expect(implausible(board("min", 100), week, 99n)).toBe(true);
  expect(implausible(board("min", 100), week, 100n)).toBe(false);
});
