// The recap close job's candidates (issue 35): the accounts with days since a period began, read a
// page at a time by (last day, uuid), so each page costs what it shows. Every active account comes
// once, whatever the page size; an account whose days all lie before the period never does.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, PROFILE, uploader } from "../support/uploads.ts";
import { accountsWithDaysSince, type DaysSinceCursor } from "../../src/stats/rollups.ts";

let t: TestApp;
const active: string[] = [];
const idle: string[] = [];

beforeAll(async () => {
  t = await testApp({ settings: { devSignin: true }, now: "2026-11-03T12:00:00Z" });
  const days = ["2026-11-01", "2026-11-02", "2026-11-02", "2026-11-03", "2026-11-01", "2026-11-03", "2026-11-02"];
  for (const [i, day] of [...days, "2026-10-20", "2026-10-31"].entries()) {
    const p = await uploader(t, { name: `Closer_${i}` });
    const env = envelope(t, {
      counters: [{ profileId: PROFILE, scope: "day", day, rows: [{ k: "kills.island.hub", v: 1 + i }] }],
    });
    expect((await p.send(env)).status).toBe(200);
    (day >= "2026-11-01" ? active : idle).push(p.uuid);
  }
});
afterAll(() => t?.close());

test.each([1, 2, 3, 500])(
  "pages of %i hold each account active since 1 November once, and no idle one",
  async (size) => {
    const seen: string[] = [];
    let after: DaysSinceCursor | null = null;
    for (;;) {
      const page = await accountsWithDaysSince(t.db, "2026-11-01", after, size);
      expect(page.length).toBeLessThanOrEqual(size);
      if (page.length === 0) break;
      seen.push(...page.map((a) => a.uuid));
      after = page.at(-1)!;
    }
    expect(seen.toSorted()).toEqual(active.toSorted());
    expect(seen.some((u) => idle.includes(u))).toBe(false);
  },
);
