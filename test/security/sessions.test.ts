// Boundary: one account's sessions (issue 22, found by the hour soak). An upload may carry 1 000
// sessions of 200 gains and 200 costs each, as often as it likes: the statistics page must not
// read them all on each render. Its "Rates per hour" reads at most RATE_LINES_MAX per-day lines,
// the newest days whole, and its caption says from which day it counts.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE, type Uploader } from "../support/uploads.ts";
import { activityRates, RATE_LINES_MAX } from "../../src/stats/rates.ts";
import { LEADING_PER_GROUP } from "../../src/web/key-list.ts";

setDefaultTimeout(120_000);

let t: TestApp;
let p: Uploader;
const DAYS = ["2026-05-30", "2026-05-31"];
// Per day: 1 000 sessions of one activity with GAINS gains each: an activity line and GAINS gain
// lines per day, so each day alone fits the lines a page reads and the two together do not.
const SESSIONS = 1_000;
const GAINS = Math.ceil(RATE_LINES_MAX / 2);

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-06-01T12:00:00Z" });
  p = await uploader(t, { name: "Busy", zone: "UTC" });
  for (const day of DAYS) {
    const start = Date.parse(`${day}T08:00:00Z`);
    const sessions = Array.from({ length: SESSIONS }, (_, i) => ({
      id: `${day}-${i}`,
      activity: "mining",
      day,
      startedAt: start + i * 1000,
      endedAt: start + i * 1000 + 60_000,
      // Each session lists 10 of the day's gain keys, so together they name GAINS of them.
      gains: Array.from({ length: 10 }, (_, j) => ({ k: `mining.blocks.b${(i * 10 + j) % GAINS}`, v: 1 })),
      costs: [],
    }));
    const res = await p.send(envelope(t, { zone: { id: "UTC" }, sessions }));
    expect(res.status).toBe(200);
  }
});
afterAll(() => t.close());

test("the rates of a range holding more lines than a page reads count its newest days whole", async () => {
  const rates = await activityRates(t.db, p.uuid, PROFILE, "2026-05-03", "2026-06-01");
  expect(rates.since).toBe("2026-05-31");
  expect(rates.activities).toHaveLength(1);
  expect(rates.activities[0]).toMatchObject({ activity: "mining", sessions: SESSIONS, ms: SESSIONS * 60_000 });
  expect(rates.activities[0]!.gains).toHaveLength(GAINS);
  // Each gain key was listed SESSIONS * 10 / GAINS times on the day counted.
  expect(rates.activities[0]!.gains.reduce((sum, g) => sum + g.v, 0)).toBe(SESSIONS * 10);
});

test("the owner's page says from which day its rates count, and lists each activity's leading gains only", async () => {
  const token = (await (await t.request("/v1/stats/me/page-token", { method: "POST", headers: p.auth })).json()) as {
    url: string;
  };
  const link = await t.request(new URL(token.url).pathname + new URL(token.url).search);
  expect(link.status).toBe(303);
  const cookie = link.headers.get("set-cookie")!.split(";")[0]!;
  const res = await t.request("/u/Busy", { headers: { cookie } });
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).toContain("Per hour of the sessions begun since 31 May 2026, by activity");
  expect(html).toContain(`${SESSIONS} sessions`);
  // Found by looking at it: every one of the 10 000 gains was listed, a page of megabytes.
  expect(html).toContain(`and ${(GAINS - LEADING_PER_GROUP).toLocaleString("en-GB")} more`);
  expect(html.length).toBeLessThan(150_000);
});
