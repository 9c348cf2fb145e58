// Rates per hour (issue 16): each activity's gains and costs over the summed length of its
// sessions begun in a range of days; a session of no length gives no rate; the words of a rate.
// They are read from lines each session write keeps (issue 22): a replaced session moves them by
// the difference, and a range holding more lines than a page reads counts its newest days whole.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
// A fresh database and its uploads take seconds on a busy machine.
setDefaultTimeout(30_000);
import { testApp, type TestApp } from "../support/app.ts";
import { fixtureCatalogue } from "../support/fixtures.ts";
import { envelope, uploader, PROFILE, type Uploader } from "../support/uploads.ts";
import { activityRates, type ActivityRate } from "../../src/stats/rates.ts";
import { rng } from "../support/random.ts";
import { rateText } from "../../src/web/rates-view.tsx";

let t: TestApp;
let u: Uploader;
const at = (day: string, hour: number) => Date.parse(`${day}T${String(hour).padStart(2, "0")}:00:00Z`);
const session = (id: string, activity: string, day: string, minutes: number, gains: number, costs: number) => ({
  id,
  activity,
  day,
  startedAt: at(day, 10),
  endedAt: at(day, 10) + minutes * 60_000,
  gains: [{ k: "mining.blocks.total", v: gains }],
  costs: costs ? [{ k: "farming.purse.coins", v: costs }] : [],
});

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, catalogueFile: fixtureCatalogue }, now: "2026-06-01T12:00:00Z" });
  u = await uploader(t);
  const res = await u.send(
    envelope(t, {
      sessions: [
        session("a", "mining", "2026-05-30", 90, 3000, 0),
        session("b", "mining", "2026-05-31", 30, 1000, 20_000),
        session("c", "mining", "2026-05-01", 60, 99_999, 0), // before the range
        session("d", "fishing", "2026-05-31", 0, 5, 0), // no length
      ],
    }),
  );
  expect(res.status).toBe(200);
});
afterAll(() => t.close());

test("per activity: sums over the sessions begun in the range, per hour of their summed length", async () => {
  const rates = await activityRates(t.db, u.uuid, PROFILE, "2026-05-25", "2026-06-01");
  expect(rates.since).toBe("2026-05-25");
  expect(rates.activities).toEqual([
    { activity: "fishing", sessions: 1, ms: 0, gains: [{ k: "mining.blocks.total", v: 5, perHour: null }], costs: [] },
    {
      activity: "mining",
      sessions: 2,
      ms: 2 * 3_600_000,
      gains: [{ k: "mining.blocks.total", v: 4000, perHour: 2000 }],
      costs: [{ k: "farming.purse.coins", v: 20_000, perHour: 10_000 }],
    },
  ]);
  expect(await activityRates(t.db, u.uuid, PROFILE, "2026-06-01", "2026-06-01")).toEqual({
    since: "2026-06-01",
    activities: [],
  });
});

type Sent = ReturnType<typeof session>;
/** What the rates must be: each id's stored copy (the one that ended latest wins), summed in JS. */
function expected(stored: Map<string, Sent>, from: string, to: string): ActivityRate[] {
  const by = new Map<
    string,
    { sessions: number; ms: number; gains: Map<string, number>; costs: Map<string, number> }
  >();
  for (const s of stored.values()) {
    if (s.day < from || s.day > to) continue;
    const a = by.get(s.activity) ?? { sessions: 0, ms: 0, gains: new Map(), costs: new Map() };
    by.set(s.activity, a);
    a.sessions++;
    a.ms += s.endedAt - s.startedAt;
    for (const g of s.gains) a.gains.set(g.k, (a.gains.get(g.k) ?? 0) + g.v);
    for (const c of s.costs) a.costs.set(c.k, (a.costs.get(c.k) ?? 0) + c.v);
  }
  const list = (m: Map<string, number>, ms: number) =>
    [...m]
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([k, v]) => ({ k, v, perHour: ms > 0 ? (v * 3_600_000) / ms : null }));
  return [...by]
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([activity, a]) => ({
      activity,
      sessions: a.sessions,
      ms: a.ms,
      gains: list(a.gains, a.ms),
      costs: list(a.costs, a.ms),
    }));
}

test("replaced sessions move the rates by the difference: later copies win, earlier ones change nothing", async () => {
  const p = await uploader(t);
  const r = rng(22);
  const stored = new Map<string, Sent>();
  const days = ["2026-05-27", "2026-05-28", "2026-05-29", "2026-05-30", "2026-05-31"];
  for (let upload = 0; upload < 4; upload++) {
    const list: Sent[] = [];
    for (let i = 0; i < 25; i++) {
      // Ids repeat across uploads: a copy that ended later (another activity, day or amounts) or earlier.
      const id = `s${r.int(40)}`;
      if (list.some((s) => s.id === id)) continue;
      const before = stored.get(id);
      const minutes = before ? (before.endedAt - before.startedAt) / 60_000 + (r.chance(0.7) ? 10 : -5) : 5 + r.int(90);
      const s = session(
        id,
        r.pick(["mining", "fishing", "combat"]),
        before?.day ?? r.pick(days),
        minutes,
        r.int(500),
        r.int(3) * 100,
      );
      if (r.chance(0.3)) s.day = r.pick(days);
      s.startedAt = at(s.day, 10);
      s.endedAt = s.startedAt + minutes * 60_000;
      list.push(s);
      if (!before || s.endedAt >= before.endedAt) stored.set(id, s);
    }
    expect((await p.send(envelope(t, { sessions: list }))).status).toBe(200);
  }
  for (const [from, to] of [
    ["2026-05-27", "2026-05-31"],
    ["2026-05-29", "2026-05-30"],
  ] as const) {
    const rates = await activityRates(t.db, p.uuid, PROFILE, from, to);
    expect(rates).toEqual({ since: from, activities: expected(stored, from, to) });
  }
});

test("a range holding more lines than a page reads counts its newest days whole, and says from which day", async () => {
  const p = await uploader(t);
  const stored = new Map<string, Sent>();
  // Three days, each of two lines (the activity and its gain).
  for (const day of ["2026-05-29", "2026-05-30", "2026-05-31"])
    stored.set(day, session(day, "mining", day, 60, 100, 0));
  expect((await p.send(envelope(t, { sessions: [...stored.values()] }))).status).toBe(200);
  const all = await activityRates(t.db, p.uuid, PROFILE, "2026-05-25", "2026-06-01", 6);
  expect(all).toEqual({ since: "2026-05-25", activities: expected(stored, "2026-05-25", "2026-06-01") });
  // Five lines: the newest two days whole, the third (read in part) left out.
  const newest = await activityRates(t.db, p.uuid, PROFILE, "2026-05-25", "2026-06-01", 5);
  expect(newest).toEqual({ since: "2026-05-30", activities: expected(stored, "2026-05-30", "2026-06-01") });
  expect(newest.activities[0]!.sessions).toBe(2);
});

test("a rate's words keep one decimal for small whole numbers", () => {
  expect(rateText(t.catalogue, "mining.blocks.total", 2.4)).toBe("2.4 / h");
  expect(rateText(t.catalogue, "mining.blocks.total", 2)).toBe("2 / h");
  expect(rateText(t.catalogue, "mining.blocks.total", 2345.6)).toBe("2,346 / h");
  expect(rateText(t.catalogue, "farming.purse.coins", 120_000)).toBe("120,000 coins / h");
});
