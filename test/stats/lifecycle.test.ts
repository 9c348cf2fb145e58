// Export (everything held about the account, streamed in flat memory) and erasure (rows removed,
// per table and in total; a second deletion answers zero).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, ACCOUNT, PROFILE, type Uploader } from "../support/uploads.ts";
import { storedState, isEmpty } from "../support/stored.ts";
import { exportStream } from "../../src/stats/export.ts";
import { closeDaysPass } from "../../src/stats/rollups.ts";
import { activityRates } from "../../src/stats/rates.ts";

// The large-account export writes and streams 100 000 rows.
setDefaultTimeout(60_000);

let t: TestApp;
beforeAll(async () => (t = await testApp({ settings: { devSignin: true }, now: "2026-06-10T12:00:00Z" })));
afterAll(() => t.close());

async function fill(u: Uploader) {
  const res = await u.send(
    envelope(t, {
      counters: [
        {
          profileId: PROFILE,
          scope: "day",
          day: "2026-06-09",
          rows: [
            { k: "mining.blocks.stone", v: 5 },
            { k: "farming.purse.coins", v: 9, m: "gauge" },
          ],
        },
        { profileId: PROFILE, scope: "backfill", day: "2026-06-01", rows: [{ k: "mining.blocks.stone", v: 500 }] },
        { profileId: ACCOUNT, scope: "day", day: "2026-06-09", rows: [{ k: "tally.playtime.total", v: 60_000 }] },
      ],
      sessions: [
        {
          id: "s1",
          activity: "mining",
          day: "2026-06-09",
          startedAt: 1,
          endedAt: 2,
          gains: [{ k: "mining.blocks.stone", v: 5 }],
          costs: [],
        },
      ],
      timeline: [{ id: "e1", kind: "first", day: "2026-06-09", at: 3 }],
    }),
  );
  expect(res.status).toBe(200);
}

/** Closes the filled days into the rollups, as the stats.rollups job does two days later (the clock is put back). */
async function closeFilled() {
  const now = t.clock.now();
  t.clock.set("2026-06-12T12:00:00Z");
  await closeDaysPass({ db: t.db, clock: t.clock });
  t.clock.set(now);
}

describe("GET /v1/stats/export", () => {
  test("holds everything about the account and nothing that signs anyone in", async () => {
    const u = await uploader(t);
    await fill(u);
    const res = await t.request("/v1/stats/export", { headers: u.auth });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="tally-export-${u.uuid}.json"`);
    const text = await res.text();
    const doc = JSON.parse(text);
    expect(doc.account).toMatchObject({ uuid: u.uuid, settings: { settingsVersion: 2, zone: "Europe/Berlin" } });
    expect(doc.deviceSessions).toHaveLength(1);
    expect(Object.keys(doc.deviceSessions[0]).sort()).toEqual(["createdAt", "device", "expiresAt", "id", "lastSeenAt"]);
    expect(doc.profiles).toEqual([expect.objectContaining({ profileId: PROFILE, cuteName: "Pomegranate" })]);
    expect(doc.dayRows.map((r: { key: string }) => r.key)).toEqual([
      "tally.playtime.total",
      "farming.purse.coins",
      "mining.blocks.stone",
    ]);
    expect(doc.dayRows[1]).toMatchObject({ day: "2026-06-09", value: 9, low: 9, high: 9 });
    expect(doc.backfills).toEqual([
      expect.objectContaining({ key: "mining.blocks.stone", day: "2026-06-01", value: 500 }),
    ]);
    expect(doc.sessions[0]).toMatchObject({ id: "s1", gains: [{ k: "mining.blocks.stone", v: 5 }] });
    expect(doc.timelineEvents[0]).toMatchObject({ id: "e1", kind: "first" });
    expect(text).not.toContain(u.auth.authorization.slice("Bearer ".length));
    expect(text).not.toContain("tokenHash");
  });

  test("streams a large account a page at a time, in flat memory", async () => {
    const u = await uploader(t);
    const rowsTotal = 100_000;
    await t.db.execute(sql`insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
      select ${u.uuid}, ${PROFILE}, 'mining.big.k' || (i % 500), date '2025-06-01' + (i / 500), ${"a".repeat(32)}, i, null, null, 0
      from generate_series(0, ${rowsTotal - 1}) as i`);
    const stream = await exportStream(t, u.uuid, 1000);
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let bytes = 0;
    let chunks = 0;
    let tail = "";
    Bun.gc(true);
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      bytes += r.value.byteLength;
      chunks++;
      tail = (tail + decoder.decode(r.value)).slice(-200);
      if (chunks % 25 === 0) {
        Bun.gc(true);
        peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      }
    }
    expect(tail.endsWith("]}")).toBe(true);
    expect(bytes).toBeGreaterThan(10_000_000);
    expect(chunks).toBeGreaterThanOrEqual(rowsTotal / 1000);
    // Holding the document would take at least its size; a page at a time stays far below it.
    expect(peak).toBeLessThan(bytes / 4);
  });
});

describe("DELETE /v1/stats/data", () => {
  test("removes every row of recorded data, answers the count per table and in total; a second time answers zero", async () => {
    const u = await uploader(t);
    const other = await uploader(t);
    await fill(u);
    await closeFilled();
    await fill(other);
    const rates = () => activityRates(t.db, u.uuid, PROFILE, "2026-06-01", "2026-06-10");
    expect((await rates()).activities.map((a) => a.activity)).toEqual(["mining"]);
    const first = await t.request("/v1/stats/data", { method: "DELETE", headers: u.auth });
    expect(await first.json()).toEqual({
      removed: {
        dayRows: 3,
        backfills: 1,
        seals: 0,
        rollups: 3,
        sessions: 1,
        timelineEvents: 1,
        mirrorSections: 0,
        profiles: 1,
        uploads: 1,
        recaps: 0,
      },
      total: 11,
    });
    expect(isEmpty(await storedState(t.db, u.uuid))).toBe(true);
    // The sums the rates are read from go with the sessions.
    expect((await rates()).activities).toEqual([]);
    expect((await storedState(t.db, other.uuid)).days).toHaveLength(3);
    const second = await t.request("/v1/stats/data", { method: "DELETE", headers: u.auth });
    expect(((await second.json()) as { total: number }).total).toBe(0);
    // Settings stay: consent is still on.
    const settings = (await (await t.request("/v1/stats/settings", { headers: u.auth })).json()) as {
      categories: Record<string, boolean>;
    };
    expect(settings.categories.gathering).toBe(true);
  });
});

describe("DELETE /v1/stats/account", () => {
  test("removes the account, its sessions and all its data, counted; its tokens stop working at once", async () => {
    const u = await uploader(t);
    await fill(u);
    await closeFilled();
    const res = await t.request("/v1/stats/account", { method: "DELETE", headers: u.auth });
    expect(await res.json()).toEqual({
      removed: {
        dayRows: 3,
        backfills: 1,
        seals: 0,
        rollups: 3,
        sessions: 1,
        timelineEvents: 1,
        mirrorSections: 0,
        profiles: 1,
        uploads: 1,
        recaps: 0,
        account: 1,
        deviceSessions: 1,
        pageTokens: 0,
        accessTokens: 0,
      },
      total: 13,
    });
    expect((await t.request("/v1/stats/settings", { headers: u.auth })).status).toBe(401);
    expect(isEmpty(await storedState(t.db, u.uuid))).toBe(true);
  });
});
