// The open-days write (issue 15): an upload whose rows all lie after the account's mark, and whose
// count keys cannot leave the safe range, is written without folding anything (upsertOpenDays);
// the rest take the general write. Whichever an upload takes, every count key's parts must stay
// within the account's bounds (the safe range's guard reads nothing while they hold) and the
// totals must be what the stored rows fold to.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, PROFILE } from "../support/uploads.ts";
import { rows } from "../../src/db/database.ts";
import { closeDaysPass } from "../../src/stats/rollups.ts";
import { addDays } from "../../src/wire/day.ts";
import type { CounterBlock } from "../../src/wire/envelope.ts";

const TODAY = "2026-06-10";
let t: TestApp;
beforeAll(async () => (t = await testApp({ settings: { devSignin: true }, now: `${TODAY}T12:00:00Z` })));
afterAll(() => t.close());

const install = (i: number) => i.toString(16).padStart(2, "0").repeat(16);

/** Every count key's parts over its rollup and open days, beside the account's bounds. */
async function partsAndBounds(uuid: string) {
  const [row] = await rows<{ pos: string | null; neg: string | null; posBound: string; negBound: string }>(
    t.db,
    sql`with m as (select closed_through, pos_bound, neg_bound from counter_marks where uuid = ${uuid}),
    keys as (
      select profile_id, key from counter_days where uuid = ${uuid}
      union select profile_id, key from counter_rollups where uuid = ${uuid}
    ),
    parts as (
      select
        coalesce((select r.pos from counter_rollups r where r.uuid = ${uuid} and r.profile_id = k.profile_id and r.key = k.key), 0)
          + coalesce((select sum(greatest(d.value, 0)) from counter_days d, m where d.uuid = ${uuid} and d.profile_id = k.profile_id
              and d.key = k.key and d.day > m.closed_through), 0) as pos,
        coalesce((select r.neg from counter_rollups r where r.uuid = ${uuid} and r.profile_id = k.profile_id and r.key = k.key), 0)
          + coalesce((select sum(least(d.value, 0)) from counter_days d, m where d.uuid = ${uuid} and d.profile_id = k.profile_id
              and d.key = k.key and d.day > m.closed_through), 0) as neg
      from keys k join counter_keys c on c.key = k.key
      where c.kind = 'count'
    )
    select max(pos)::text as pos, min(neg)::text as neg, (select pos_bound from m)::text as "posBound", (select neg_bound from m)::text as "negBound"
    from parts`,
  );
  // Exact: bounds may pass 2^53.
  return {
    pos: BigInt(row!.pos ?? 0),
    neg: BigInt(row!.neg ?? 0),
    posBound: BigInt(row!.posBound),
    negBound: BigInt(row!.negBound),
  };
}

describe("uploads on open and closed days from several installs", () => {
  test("keep every count key's parts within the account's bounds, and fold to the rows sent", async () => {
    const u = await uploader(t);
    let seed = 20261124;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const keys = Array.from({ length: 6 }, (_, i) => `mining.blocks.open_${i}`);
    // The latest value sent for each (day, install, key): what the lifetime total folds (counts add).
    const latest = new Map<string, number>();
    let sentAt = t.clock.now();
    let day = TODAY;
    for (let step = 0; step < 60; step++) {
      if (step === 30) {
        // A day later the rollups job closes one more day: later uploads find a moved mark.
        day = addDays(TODAY, 1);
        t.clock.set(`${day}T12:00:00Z`);
        await closeDaysPass({ db: t.db, clock: t.clock });
      }
      // Mostly the live upload (today, sometimes yesterday too); now and then a catch-up reaching
      // closed days. Values go up and down, negative now and then, a few of them large.
      const span = rand() < 0.25 ? 5 : rand() < 0.3 ? 2 : 1;
      const inst = install(1 + Math.floor(rand() * 3));
      const counters: CounterBlock[] = [];
      for (let d = 0; d < span; d++) {
        const blockDay = addDays(day, -d);
        const rowsOfDay = keys
          .filter(() => rand() < 0.7)
          .map((k) => {
            const v = Math.floor(rand() < 0.1 ? -rand() * 1000 : rand() < 0.1 ? rand() * 1e12 : rand() * 1e6);
            return { k, v };
          });
        rowsOfDay.push({ k: "mining.level.open_gauge", v: Math.floor(rand() * 1e13), m: "gauge" } as never);
        counters.push({ profileId: PROFILE, scope: "day", day: blockDay, rows: rowsOfDay });
      }
      sentAt += 1000;
      const res = await u.send(envelope(t, { install: inst, sentAt, counters }));
      expect(res.status).toBe(200);
      for (const b of counters)
        for (const r of b.rows) if (r.k !== "mining.level.open_gauge") latest.set(`${b.day}/${inst}/${r.k}`, r.v);

      const s = await partsAndBounds(u.uuid);
      expect(s.pos).toBeLessThanOrEqual(s.posBound);
      expect(s.neg).toBeGreaterThanOrEqual(s.negBound);
    }
    const res = await t.request(`/v1/stats/totals?profile=${PROFILE}`, { headers: u.auth });
    const totals = (await res.json()) as { profile: { keys: { key: string; lifetime: { value: number } }[] } };
    for (const k of keys) {
      let sum = 0;
      for (const [id, v] of latest) if (id.endsWith(`/${k}`)) sum += v;
      expect({ key: k, value: totals.profile.keys.find((x) => x.key === k)?.lifetime.value }).toEqual({
        key: k,
        value: sum,
      });
    }
  });
});
