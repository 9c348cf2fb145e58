// Boundary: days a client names (issue 40). A day in a query (`day` of /v1/stats/periods, `from`
// and `to` of /series and /days) and every day of an upload is a calendar date from 2000-01-01 on
// (EARLIEST_DAY); a day a read starts at is not after the service's UTC day + 1. Anything else is
// refused 400 with the parameter's path, never a 500: before, `?day=0001-01-01` answered 500 (the
// period before it lies in year 0, which Postgres refuses), and an upload's backfill could be
// dated 0001-01-01.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, PROFILE, uploader, type Uploader } from "../support/uploads.ts";

setDefaultTimeout(30_000);

let t: TestApp;
let u: Uploader;
// The test app's clock: 2026-06-01 12:00 UTC, so the latest day of any zone is 2026-06-02.
beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true, authRateLimit: 0 } });
  u = await uploader(t);
  const block = {
    profileId: PROFILE,
    scope: "day" as const,
    day: "2026-06-01",
    rows: [{ k: "mining.blocks.total", v: 5 }],
  };
  expect((await u.send(envelope(t, { counters: [block] }))).status).toBe(200);
});
afterAll(() => t.close());

const get = async (path: string) => {
  const res = await t.request(path.replace("P", PROFILE), { headers: u.auth });
  const body = (await res.json()) as { error?: { code: string; message: string; path?: string }; from?: string };
  return { status: res.status, error: body.error, body };
};

describe("a day in a query", () => {
  test.each([
    ["/v1/stats/periods?profile=P&day=0001-01-01", "/day", "day: 0001-01-01 is before 2000-01-01"],
    ["/v1/stats/periods?profile=P&day=1999-12-31", "/day", "day: 1999-12-31 is before 2000-01-01"],
    ["/v1/stats/periods?profile=P&day=2026-02-30", "/day", "day: 2026-02-30 is not a calendar date"],
    [
      "/v1/stats/periods?profile=P&day=2026-06-03",
      "/day",
      "day: 2026-06-03 is after 2026-06-02, the latest day of any zone now",
    ],
    [
      "/v1/stats/periods?profile=P&day=9999-12-31",
      "/day",
      "day: 9999-12-31 is after 2026-06-02, the latest day of any zone now",
    ],
    ["/v1/stats/days?profile=P&from=0001-01-01&to=0001-12-31", "/from", "from: 0001-01-01 is before 2000-01-01"],
    ["/v1/stats/days?profile=P&from=2000-01-01&to=1999-12-31", "/to", "to: 1999-12-31 is before 2000-01-01"],
    ["/v1/stats/days?profile=P&to=1999-06-01", "/to", "to: 1999-06-01 is before 2000-01-01"],
    [
      "/v1/stats/days?profile=P&from=2026-06-03&to=2026-06-30",
      "/from",
      "from: 2026-06-03 is after 2026-06-02, the latest day of any zone now",
    ],
    ["/v1/stats/days?profile=P&to=9999-12-31", "/to", "a range is at most 3660 days"],
    [
      "/v1/stats/series?profile=P&key=mining.blocks.total&from=0001-01-01&to=0001-12-31",
      "/from",
      "from: 0001-01-01 is before 2000-01-01",
    ],
    [
      "/v1/stats/series?profile=P&key=mining.blocks.total&from=1970-01-01",
      "/from",
      "from: 1970-01-01 is before 2000-01-01",
    ],
  ])("%s is refused 400 invalid_query at %s", async (path, at, message) => {
    expect(await get(path)).toMatchObject({ status: 400, error: { code: "invalid_query", path: at, message } });
  });

  test("the days inside the bounds still answer, a chart of this month included", async () => {
    for (const path of [
      "/v1/stats/periods?profile=P&day=2000-01-01",
      "/v1/stats/periods?profile=P&day=2026-06-02",
      "/v1/stats/days?profile=P&from=2026-06-01&to=2026-06-30",
      "/v1/stats/series?profile=P&key=mining.blocks.total&from=2000-01-01&to=2009-12-31",
    ])
      expect([path, (await get(path)).status]).toEqual([path, 200]);
    // A range asked by its end alone starts at 2000-01-01 at the earliest.
    expect((await get("/v1/stats/days?profile=P&to=2000-06-01")).body.from).toBe("2000-01-01");
  });

  test("none of it logged an error", () => {
    expect(t.log.lines.filter((l) => l.level === "error")).toEqual([]);
  });
});

describe("a day in an upload", () => {
  test.each(["0001-01-01", "1999-12-31"])("a backfill dated %s is refused whole, nothing stored", async (day) => {
    const block = { profileId: PROFILE, scope: "backfill" as const, day, rows: [{ k: "mining.blocks.total", v: 9 }] };
    const res = await u.send(envelope(t, { counters: [block] }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: unknown }).error).toEqual({
      code: "invalid_body",
      message: `/counters/0/day: ${day} is before 2000-01-01`,
      path: "/counters/0/day",
    });
    const totals = (await get("/v1/stats/totals?profile=P")).body as unknown as {
      profile: { keys: { key: string; lifetime: { value: number } }[] };
    };
    expect(totals.profile.keys.find((k) => k.key === "mining.blocks.total")?.lifetime.value).toBe(5);
  });
});
