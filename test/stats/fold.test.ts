// Fold rules (contract 2.3, 2.6): by kind across installs and across days; gaps stay gaps;
// baselines merge (installs by maximum, seal and backfill add) and every lifetime figure says its
// baseline's date.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, INSTALL_A, INSTALL_B, PROFILE, ACCOUNT, type Uploader } from "../support/uploads.ts";
import { counterSeals } from "../../src/stats/counters.table.ts";
import type { CounterBlock } from "../../src/wire/envelope.ts";
import { chartSeries } from "../../src/stats/fold.ts";

let t: TestApp;
beforeAll(async () => (t = await testApp({ settings: { devSignin: true }, now: "2026-06-10T12:00:00Z" })));
afterAll(() => t.close());

type Lifetime = {
  value: number;
  baseline: null | { day: string; value: number; backfill: unknown; seal: unknown };
  days: null | { first: string; last: string };
};
type KeyTotal = { key: string; label: string; group: string; kind: string; lifetime: Lifetime };
const block = (day: string, rows: CounterBlock["rows"], extra: Partial<CounterBlock> = {}): CounterBlock => ({
  profileId: PROFILE,
  scope: "day",
  day,
  rows,
  ...extra,
});
let sent = 0;
async function send(u: Uploader, install: string, blocks: CounterBlock[]) {
  const res = await u.send(envelope(t, { install, sentAt: t.clock.now() + ++sent, counters: blocks }));
  expect(res.status).toBe(200);
}
async function totalsOf(u: Uploader): Promise<{ profile: { keys: KeyTotal[] }; account: { keys: KeyTotal[] } }> {
  const res = await t.request(`/v1/stats/totals?profile=${PROFILE}`, { headers: u.auth });
  expect(res.status).toBe(200);
  return res.json() as never;
}
const lifetimeOf = async (u: Uploader, key: string) =>
  (await totalsOf(u)).profile.keys.find((k) => k.key === key)!.lifetime;
const seriesOf = async (u: Uploader, key: string, range = "&from=2026-06-01&to=2026-06-10") =>
  (
    (await (await t.request(`/v1/stats/series?profile=${PROFILE}&key=${key}${range}`, { headers: u.auth })).json()) as {
      days: { day: string; value: number; low?: number; high?: number }[];
    }
  ).days;

/** What the statistics page's chart of a key draws (the page reads every chart at once). */
const chartOf = async (u: Uploader, key: string, from = "2026-06-01", to = "2026-06-10") =>
  (await chartSeries({ db: t.db, catalogue: t.catalogue }, u.uuid, [PROFILE, ACCOUNT], from, to))
    .get(PROFILE)!
    .get(key) ?? [];

describe("two installs on one day, and across days, by kind", () => {
  test.each([
    ["count", "sum", [10 + 5, 7], 22],
    ["max", "maximum", [10, 7], 10],
    ["min", "minimum", [5, 7], 5],
  ] as const)("%s folds by %s", async (kind, _how, perDay, lifetime) => {
    const u = await uploader(t);
    const k = `mining.fold.${kind}`;
    await send(u, INSTALL_A, [
      block("2026-06-01", [{ k, v: 10, m: kind }]),
      block("2026-06-02", [{ k, v: 7, m: kind }]),
    ]);
    await send(u, INSTALL_B, [block("2026-06-01", [{ k, v: 5, m: kind }])]);
    expect((await seriesOf(u, k)).map((d) => d.value)).toEqual([...perDay]);
    expect((await chartOf(u, k)).map((d) => d.value)).toEqual([...perDay]);
    expect((await lifetimeOf(u, k)).value).toBe(lifetime);
  });

  test("a gauge takes the reading sent last, keeps the day's low and high, and its lifetime is the last day's", async () => {
    const u = await uploader(t);
    const k = "farming.fold.purse";
    await send(u, INSTALL_B, [block("2026-06-01", [{ k, v: 300, m: "gauge" }])]);
    await send(u, INSTALL_A, [block("2026-06-01", [{ k, v: 100, m: "gauge" }])]);
    await send(u, INSTALL_A, [block("2026-06-03", [{ k, v: 250, m: "gauge" }])]);
    expect(await seriesOf(u, k)).toEqual([
      { day: "2026-06-01", value: 100, low: 100, high: 300 },
      { day: "2026-06-03", value: 250, low: 250, high: 250 },
    ]);
    // The chart draws the same days, each with its low-high band.
    expect(await chartOf(u, k)).toEqual([
      { day: "2026-06-01", value: 100, low: 100, high: 300 },
      { day: "2026-06-03", value: 250, low: 250, high: 250 },
    ]);
    expect((await lifetimeOf(u, k)).value).toBe(250);
  });

  test("gauge readings sent at the same moment are broken by installId, the same way every time", async () => {
    const u = await uploader(t);
    const k = "farming.fold.tie";
    const at = t.clock.now() + 10_000_000;
    for (const [install, v] of [
      [INSTALL_B, 2],
      [INSTALL_A, 1],
    ] as const) {
      const res = await u.send(
        envelope(t, { install, sentAt: at, counters: [block("2026-06-01", [{ k, v, m: "gauge" }])] }),
      );
      expect(res.status).toBe(200);
    }
    expect((await seriesOf(u, k))[0]!.value).toBe(2); // INSTALL_B's id sorts after INSTALL_A's
    expect(await chartOf(u, k)).toEqual([{ day: "2026-06-01", value: 2, low: 1, high: 2 }]);
  });

  test("a day without observation is a gap, not a zero", async () => {
    const u = await uploader(t);
    await send(u, INSTALL_A, [
      block("2026-06-01", [{ k: "mining.gap.x", v: 1 }]),
      block("2026-06-05", [{ k: "mining.gap.x", v: 0 }]),
    ]);
    expect((await seriesOf(u, "mining.gap.x")).map((d) => d.day)).toEqual(["2026-06-01", "2026-06-05"]);
    expect(await chartOf(u, "mining.gap.x")).toEqual([
      { day: "2026-06-01", value: 1 },
      { day: "2026-06-05", value: 0 },
    ]);
    // A range without any of its days draws nothing.
    expect(await chartOf(u, "mining.gap.x", "2026-06-02", "2026-06-04")).toEqual([]);
  });
});

describe("baselines", () => {
  test("two installs' backfills merge by maximum; days after the baseline add; the baseline's date is given", async () => {
    const u = await uploader(t);
    const k = "mining.base.count";
    await send(u, INSTALL_A, [block("2026-05-28", [{ k, v: 1000 }], { scope: "backfill" })]);
    await send(u, INSTALL_B, [block("2026-05-20", [{ k, v: 800 }], { scope: "backfill" })]);
    await send(u, INSTALL_A, [
      block("2026-05-27", [{ k, v: 50 }]),
      block("2026-06-01", [{ k, v: 7 }]),
      block("2026-06-02", [{ k, v: 3 }]),
    ]);
    const life = await lifetimeOf(u, k);
    // The day row of 05-27 is inside the baseline (up to and including 05-28), so it is not added.
    expect(life).toEqual({
      value: 1010,
      baseline: { day: "2026-05-28", value: 1000, backfill: { day: "2026-05-28", value: 1000 }, seal: null },
      days: { first: "2026-06-01", last: "2026-06-02" },
    });
  });

  test("for a min key the installs' smallest backfill wins; for a gauge the latest", async () => {
    const u = await uploader(t);
    await send(u, INSTALL_A, [
      block(
        "2026-05-28",
        [
          { k: "dungeon.best_split.F1.finish", v: 90_000 },
          { k: "farming.base.gauge", v: 5, m: "gauge" },
        ],
        { scope: "backfill" },
      ),
    ]);
    await send(u, INSTALL_B, [
      block(
        "2026-05-30",
        [
          { k: "dungeon.best_split.F1.finish", v: 95_000 },
          { k: "farming.base.gauge", v: 9, m: "gauge" },
        ],
        { scope: "backfill" },
      ),
    ]);
    expect((await lifetimeOf(u, "dungeon.best_split.F1.finish")).value).toBe(90_000);
    expect(await lifetimeOf(u, "farming.base.gauge")).toMatchObject({ value: 9, baseline: { day: "2026-05-30" } });
  });

  test("a seal and a backfill add; the baseline's date is the later of the two", async () => {
    const u = await uploader(t);
    const k = "mining.base.sealed";
    await send(u, INSTALL_A, [
      block("2026-05-20", [{ k, v: 1000 }], { scope: "backfill" }),
      block("2026-06-01", [{ k, v: 4 }]),
    ]);
    await t.db.insert(counterSeals).values({ uuid: u.uuid, profileId: PROFILE, key: k, day: "2026-05-25", value: 300 });
    expect(await lifetimeOf(u, k)).toEqual({
      value: 1304,
      baseline: {
        day: "2026-05-25",
        value: 1300,
        backfill: { day: "2026-05-20", value: 1000 },
        seal: { day: "2026-05-25", value: 300 },
      },
      days: { first: "2026-06-01", last: "2026-06-01" },
    });
  });

  test("a key without any baseline says so: its lifetime is its days only", async () => {
    const u = await uploader(t);
    await send(u, INSTALL_A, [block("2026-06-01", [{ k: "mining.nobase.x", v: 4 }])]);
    expect(await lifetimeOf(u, "mining.nobase.x")).toEqual({
      value: 4,
      baseline: null,
      days: { first: "2026-06-01", last: "2026-06-01" },
    });
  });
});

describe("the totals answer", () => {
  test("carries the account scope alongside, labels from the catalogue, and a label made from an unknown key", async () => {
    const u = await uploader(t);
    await send(u, INSTALL_A, [
      block("2026-06-01", [
        { k: "kills.island.crimson_isle", v: 3 },
        { k: "fishing.trophy.GOLDEN_FISH", v: 1 },
      ]),
      block("2026-06-01", [{ k: "tally.playtime.total", v: 60_000 }], { profileId: ACCOUNT }),
    ]);
    const totals = await totalsOf(u);
    expect(totals.profile.keys.map((k) => [k.key, k.label, k.group])).toEqual([
      ["fishing.trophy.GOLDEN_FISH", "Fishing trophy Golden Fish", "Fishing"],
      ["kills.island.crimson_isle", "Kills on Crimson Isle", "Kills"],
    ]);
    expect(totals.account.keys.map((k) => [k.key, k.label, k.lifetime.value])).toEqual([
      ["tally.playtime.total", "Playtime", 60_000],
    ]);
  });

  test("another account's data never shows", async () => {
    const a = await uploader(t);
    const b = await uploader(t);
    await send(a, INSTALL_A, [block("2026-06-01", [{ k: "mining.private.x", v: 1 }])]);
    expect((await totalsOf(b)).profile.keys).toEqual([]);
  });
});

describe("the read routes", () => {
  test("want a token", async () => {
    for (const path of [
      "/v1/stats/profiles",
      `/v1/stats/totals?profile=${PROFILE}`,
      `/v1/stats/days?profile=${PROFILE}`,
    ])
      expect((await t.request(path)).status).toBe(401);
  });

  test("refuse a bad query with invalid_query and its path", async () => {
    const u = await uploader(t);
    const cases: [string, string][] = [
      [`/v1/stats/totals?profile=NOTHEX`, "/profile"],
      [`/v1/stats/series?profile=${PROFILE}&key=Not.A.Key`, "/key"],
      [`/v1/stats/series?profile=${PROFILE}&key=mining.x&from=2026-02-30`, "/from"],
      [`/v1/stats/days?profile=${PROFILE}&from=2026-06-02&to=2026-06-01`, "/from"],
      [`/v1/stats/days?profile=${PROFILE}&from=2010-01-01&to=2026-06-01`, "/to"],
      // Year 0000 is no calendar year (Postgres refuses it): this answered 500 before (issue 9's fuzz).
      [`/v1/stats/days?profile=${PROFILE}&from=0000-01-01&to=0000-12-31`, "/from"],
      [`/v1/stats/days?profile=${PROFILE}&uuid=${u.uuid}`, "/uuid"],
    ];
    for (const [path, at] of cases) {
      const res = await t.request(path, { headers: u.auth });
      expect([path, res.status, ((await res.json()) as { error: { code: string; path: string } }).error]).toEqual([
        path,
        400,
        expect.objectContaining({ code: "invalid_query", path: at }),
      ]);
    }
  });

  test("a range defaults to the last 365 days in the account's zone", async () => {
    const u = await uploader(t, { zone: "Pacific/Kiritimati" });
    const res = (await (
      await t.request(`/v1/stats/series?profile=${PROFILE}&key=mining.x`, { headers: u.auth })
    ).json()) as { from: string; to: string };
    expect(res).toMatchObject({ from: "2025-06-12", to: "2026-06-11" });
  });
});
