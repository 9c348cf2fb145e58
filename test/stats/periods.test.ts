// Period totals (issue 16): the fixture uploads' periods equal the fold, by kind, of the expected
// per-day values in fixtures/totals (computed here on their own, not by the service's code), and
// the calendar windows start weeks on Monday and roll over months and years.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
// A fresh database and its uploads take seconds on a busy machine.
setDefaultTimeout(30_000);
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { testApp, type TestApp } from "../support/app.ts";
import { FIXTURE_PROFILE, fixtureAccount, fixtureCatalogue, fixturesDir, sendFixtures } from "../support/fixtures.ts";
import type { Uploader } from "../support/uploads.ts";
import { periodWindows } from "../../src/stats/periods.ts";
import { daysBetween } from "../../src/wire/day.ts";

let t: TestApp;
let u: Uploader;
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, catalogueFile: fixtureCatalogue }, now: fixtureAccount.signedInAt });
  u = (await sendFixtures(t)).uploader;
});
afterAll(() => t.close());

const expected = (file: string) => JSON.parse(readFileSync(join(fixturesDir, "totals", file), "utf8"));

type Answer = {
  day: string;
  zone: string;
  periods: {
    period: string;
    from: string;
    to: string;
    previous: { from: string; to: string };
    previousSameStretch: { from: string; to: string };
    keys: {
      key: string;
      kind: string;
      value: number | null;
      previous: number | null;
      change: number | null;
      previousSameStretch: number | null;
      changeSameStretch: number | null;
    }[];
  }[];
};

const periods = async (query: string) => {
  const res = await t.request(`/v1/stats/periods?profile=${FIXTURE_PROFILE}${query}`, { headers: u.auth });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
};

test("each period of the fixtures is the fold by kind of the expected days inside it", async () => {
  const kinds = new Map<string, string>(
    expected("totals.json").profile.keys.map((k: { key: string; kind: string }) => [k.key, k.kind]),
  );
  const days = expected("days.json").days as { day: string; values: { key: string; value: number }[] }[];
  // The fold of contract 2.3 across days, written out: count sums, max and min the extreme, gauge the last day's.
  const fold = (key: string, from: string, to: string): number | null => {
    const values = days
      .filter((d) => d.day >= from && d.day <= to)
      .flatMap((d) => d.values.filter((v) => v.key === key).map((v) => v.value));
    if (values.length === 0) return null;
    const kind = kinds.get(key);
    if (kind === "count") return values.reduce((a, b) => a + b, 0);
    if (kind === "max") return Math.max(...values);
    if (kind === "min") return Math.min(...values);
    return values.at(-1)!;
  };
  // 2026-06-01 is a Monday: its week is one day so far, the week before is 25 to 31 May.
  const windows: Record<string, [string, string, string, string]> = {
    day: ["2026-06-01", "2026-06-01", "2026-05-31", "2026-05-31"],
    week: ["2026-06-01", "2026-06-01", "2026-05-25", "2026-05-31"],
    month: ["2026-06-01", "2026-06-01", "2026-05-01", "2026-05-31"],
    year: ["2026-01-01", "2026-06-01", "2025-01-01", "2025-12-31"],
  };
  const answer = await periods("&day=2026-06-01");
  expect(answer.zone).toBe(fixtureAccount.zone);
  expect(answer.periods.map((p) => p.period)).toEqual(["day", "week", "month", "year"]);
  let compared = 0;
  for (const p of answer.periods) {
    const [from, to, pFrom, pTo] = windows[p.period]!;
    expect([p.from, p.to, p.previous.from, p.previous.to]).toEqual([from, to, pFrom, pTo]);
    const want = [...kinds.keys()]
      .map((key) => ({ key, value: fold(key, from, to), previous: fold(key, pFrom, pTo) }))
      .filter((k) => k.value !== null || k.previous !== null);
    expect(p.keys.map(({ key, value, previous }) => ({ key, value, previous }))).toEqual(want);
    for (const k of p.keys) {
      expect(k.kind).toBe(kinds.get(k.key)!);
      expect(k.change).toBe(k.value !== null && k.previous !== null ? k.value - k.previous : null);
      // Like with like: the previous period's same stretch (a Monday's: the Monday before, ...).
      expect(k.previousSameStretch).toBe(fold(k.key, p.previousSameStretch.from, p.previousSameStretch.to));
      expect(k.changeSameStretch).toBe(
        k.value !== null && k.previousSameStretch !== null ? k.value - k.previousSameStretch : null,
      );
      compared++;
    }
  }
  expect(answer.periods.map((p) => [p.period, p.previousSameStretch.from, p.previousSameStretch.to])).toEqual([
    ["day", "2026-05-31", "2026-05-31"],
    ["week", "2026-05-25", "2026-05-25"],
    ["month", "2026-05-01", "2026-05-01"],
    ["year", "2025-01-01", "2025-06-01"],
  ]);
  // A Wednesday's week against last week's Monday to Wednesday, each folded by kind.
  const wednesday = (await periods("&day=2026-05-27")).periods.find((p) => p.period === "week")!;
  expect([wednesday.from, wednesday.previousSameStretch.from, wednesday.previousSameStretch.to]).toEqual([
    "2026-05-25",
    "2026-05-18",
    "2026-05-20",
  ]);
  for (const k of wednesday.keys) {
    expect(k.value).toBe(fold(k.key, "2026-05-25", "2026-05-27"));
    expect(k.previousSameStretch).toBe(fold(k.key, "2026-05-18", "2026-05-20"));
  }
  expect(compared).toBeGreaterThan(15);
  // Mined blocks: 150 so far this week against 2150 + 410 last week; the purse's last reading was 900 000 on 31 May.
  const week = answer.periods.find((p) => p.period === "week")!;
  expect(week.keys.find((k) => k.key === "mining.blocks.total")).toMatchObject({
    value: 150,
    previous: 2560,
    change: -2410,
  });
  expect(week.keys.find((k) => k.key === "farming.purse.coins")).toMatchObject({ value: null, previous: 900_000 });
});

test("without a day, the periods are of the account's today in its zone", async () => {
  // 22:30 UTC on 31 May is already 1 June in Berlin.
  t.clock.set(Date.parse("2026-05-31T22:30:00Z"));
  expect((await periods("")).day).toBe("2026-06-01");
  t.clock.set(Date.parse("2026-05-31T21:30:00Z"));
  const answer = await periods("");
  expect(answer.day).toBe("2026-05-31");
  // Sunday 31 May closes the week of 25 May, which holds every mined block of May.
  const week = answer.periods.find((p) => p.period === "week")!;
  expect([week.from, week.to]).toEqual(["2026-05-25", "2026-05-31"]);
  expect(week.keys.find((k) => k.key === "mining.blocks.total")?.value).toBe(2560);
});

test("a day that is not in the calendar is refused", async () => {
  const res = await t.request(`/v1/stats/periods?profile=${FIXTURE_PROFILE}&day=2026-02-30`, { headers: u.auth });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_query");
  expect((await t.request(`/v1/stats/periods?profile=${FIXTURE_PROFILE}`)).status).toBe(401);
});

test.each([
  ["week", "2026-05-31", "2026-05-25", "2026-05-18", "2026-05-24"], // a Sunday ends the week begun on Monday
  ["week", "2026-01-01", "2025-12-29", "2025-12-22", "2025-12-28"], // a week across the new year
  ["month", "2026-01-15", "2026-01-01", "2025-12-01", "2025-12-31"],
  ["month", "2024-03-31", "2024-03-01", "2024-02-01", "2024-02-29"], // a leap February
  ["year", "2026-12-31", "2026-01-01", "2025-01-01", "2025-12-31"],
] as const)("the %s of %s starts on %s; the one before runs %s to %s", (period, day, start, pFrom, pTo) => {
  const w = periodWindows(period, day);
  expect([w.current.from, w.current.to, w.previous.from, w.previous.to]).toEqual([start, day, pFrom, pTo]);
});

// Like with like (issue 34): the period so far against as many days from the start of the one before.
test.each([
  ["day", "2026-06-03", "2026-06-02", "2026-06-02"],
  ["week", "2026-05-27", "2026-05-18", "2026-05-20"], // a Wednesday: Monday to Wednesday of last week
  ["week", "2026-05-25", "2026-05-18", "2026-05-18"], // a Monday: last Monday
  ["week", "2026-05-31", "2026-05-18", "2026-05-24"], // a Sunday: the whole of last week
  ["month", "2026-01-15", "2025-12-01", "2025-12-15"],
  ["month", "2026-03-31", "2026-02-01", "2026-02-28"], // clamped to a short month
  ["month", "2024-03-30", "2024-02-01", "2024-02-29"], // a leap February
  ["year", "2026-11-26", "2025-01-01", "2025-11-26"],
  ["year", "2024-02-29", "2023-01-01", "2023-02-28"], // a leap day against the last of February
] as const)("the %s of %s is compared with %s to %s", (period, day, from, to) => {
  const w = periodWindows(period, day);
  expect([w.sameStretch.from, w.sameStretch.to]).toEqual([from, to]);
  expect(daysBetween(w.sameStretch.from, w.sameStretch.to)).toBeLessThanOrEqual(daysBetween(w.current.from, day));
});
