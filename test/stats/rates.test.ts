// Rates per hour (issue 16): each activity's gains and costs over the summed length of its
// sessions begun in a range of days; a session of no length gives no rate; the words of a rate.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
// A fresh database and its uploads take seconds on a busy machine.
setDefaultTimeout(30_000);
import { testApp, type TestApp } from "../support/app.ts";
import { fixtureCatalogue } from "../support/fixtures.ts";
import { envelope, uploader, PROFILE, type Uploader } from "../support/uploads.ts";
import { activityRates } from "../../src/stats/rates.ts";
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
  expect(rates).toEqual([
    { activity: "fishing", sessions: 1, ms: 0, gains: [{ k: "mining.blocks.total", v: 5, perHour: null }], costs: [] },
    {
      activity: "mining",
      sessions: 2,
      ms: 2 * 3_600_000,
      gains: [{ k: "mining.blocks.total", v: 4000, perHour: 2000 }],
      costs: [{ k: "farming.purse.coins", v: 20_000, perHour: 10_000 }],
    },
  ]);
  expect(await activityRates(t.db, u.uuid, PROFILE, "2026-06-01", "2026-06-01")).toEqual([]);
});

test("a rate's words keep one decimal for small whole numbers", () => {
  expect(rateText(t.catalogue, "mining.blocks.total", 2.4)).toBe("2.4 / h");
  expect(rateText(t.catalogue, "mining.blocks.total", 2)).toBe("2 / h");
  expect(rateText(t.catalogue, "mining.blocks.total", 2345.6)).toBe("2,346 / h");
  expect(rateText(t.catalogue, "farming.purse.coins", 120_000)).toBe("120,000 coins / h");
});
