// Ingest, what is stored: absolute values per install and day, pinned kinds, gauges' low and high,
// backfill baselines, and the replacement rules of sessions, timeline events and mirror sections.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { testApp, type TestApp } from "../support/app.ts";
import { envelope, uploader, INSTALL_A, INSTALL_B, PROFILE, type Uploader } from "../support/uploads.ts";
import { storedState } from "../support/stored.ts";
import { tempDirs } from "../support/temp.ts";
import { counterKeys } from "../../src/stats/counters.table.ts";
import { createApp } from "../../src/app.ts";
import type { CounterBlock } from "../../src/wire/envelope.ts";

const tempDir = tempDirs("ingest");
let t: TestApp;
beforeAll(async () => {
  // The built-in catalogue with one mirror section, so the mirror can be tested.
  const doc = JSON.parse(readFileSync(join(import.meta.dir, "../../catalogue/catalogue.json"), "utf8"));
  doc.mirrorSections = [
    { id: "skills", label: "Skills" },
    { id: "bank", label: "Bank" },
  ];
  const file = join(tempDir(), "catalogue.json");
  writeFileSync(file, JSON.stringify(doc));
  t = await testApp({ settings: { devSignin: true, catalogueFile: file }, now: "2026-06-01T12:00:00Z" });
});
afterAll(() => t.close());

type Answer = { warnings: { code: string; key?: string; message: string }[]; applied: Record<string, number> };
const day = (d: string, rows: CounterBlock["rows"], scope: "day" | "backfill" = "day"): CounterBlock => ({
  profileId: PROFILE,
  scope,
  day: d,
  rows,
});
const send = async (u: Uploader, parts: Parameters<typeof envelope>[1]) => {
  const res = await u.send(envelope(t, parts));
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
};

describe("counters", () => {
  test("a new upload's absolute value replaces the stored one, also when it is lower", async () => {
    const u = await uploader(t);
    await send(u, { counters: [day("2026-06-01", [{ k: "mining.blocks.stone", v: 50 }])] });
    t.clock.advance(1000);
    await send(u, { counters: [day("2026-06-01", [{ k: "mining.blocks.stone", v: 40 }])] });
    expect((await storedState(t.db, u.uuid)).days.map((d) => d.value)).toEqual([40]);
  });

  test("two installs on one day are separate rows, never a conflict", async () => {
    const u = await uploader(t);
    await send(u, { install: INSTALL_A, counters: [day("2026-06-01", [{ k: "mining.blocks.stone", v: 10 }])] });
    await send(u, { install: INSTALL_B, counters: [day("2026-06-01", [{ k: "mining.blocks.stone", v: 7 }])] });
    expect((await storedState(t.db, u.uuid)).days.map((d) => [d.installId, d.value])).toEqual([
      [INSTALL_A, 10],
      [INSTALL_B, 7],
    ]);
  });

  test("an upload sent earlier but delivered later does not overwrite a newer value", async () => {
    const u = await uploader(t);
    const older = envelope(t, {
      sentAt: t.clock.now() - 60_000,
      counters: [day("2026-06-01", [{ k: "mining.blocks.stone", v: 10 }])],
    });
    const newer = envelope(t, {
      sentAt: t.clock.now(),
      counters: [day("2026-06-01", [{ k: "mining.blocks.stone", v: 12 }])],
    });
    await u.send(newer);
    await u.send(older);
    expect((await storedState(t.db, u.uuid)).days.map((d) => [d.value, d.sentAt])).toEqual([[12, newer.sentAt]]);
  });

  test("a gauge keeps the latest reading and the day's low and high over every reading", async () => {
    const u = await uploader(t);
    for (const [offset, v] of [
      [0, 500],
      [1000, 200],
      [2000, 900],
      [3000, 650],
    ] as const) {
      await send(u, {
        sentAt: t.clock.now() + offset,
        counters: [day("2026-06-01", [{ k: "farming.purse.coins", v, m: "gauge" }])],
      });
    }
    expect((await storedState(t.db, u.uuid)).days[0]).toMatchObject({ value: 650, low: 200, high: 900 });
  });

  test("other kinds keep no low or high", async () => {
    const u = await uploader(t);
    await send(u, { counters: [day("2026-06-01", [{ k: "mining.best.hit", v: 5, m: "max" }])] });
    expect((await storedState(t.db, u.uuid)).days[0]).toMatchObject({ value: 5, low: null, high: null });
  });
});

describe("kinds are pinned the first time a key reaches the service", () => {
  test("from the catalogue, whatever the row declares; a different declaration is accepted with a warning", async () => {
    const u = await uploader(t);
    const answer = await send(u, { counters: [day("2026-06-01", [{ k: "loot.item.GHAST_TEAR", v: 3, m: "gauge" }])] });
    expect(answer.warnings).toEqual([
      { code: "kind_mismatch", key: "loot.item.GHAST_TEAR", message: expect.stringContaining("pinned as count") },
    ]);
    const [pin] = await t.db.select().from(counterKeys).where(eq(counterKeys.key, "loot.item.GHAST_TEAR"));
    expect(pin).toMatchObject({ kind: "count", unit: "count", category: "combat" });
    expect((await storedState(t.db, u.uuid)).days[0]).toMatchObject({ value: 3, low: null });
  });

  test("a key absent from the catalogue is pinned by its first declaration; later ones warn, never refuse", async () => {
    const a = await uploader(t);
    const b = await uploader(t);
    expect(
      (await send(a, { counters: [day("2026-06-01", [{ k: "fishing.best.catch", v: 40, m: "max" }])] })).warnings,
    ).toEqual([]);
    const answer = await send(b, { counters: [day("2026-06-01", [{ k: "fishing.best.catch", v: 41, m: "min" }])] });
    expect(answer.warnings.map((w) => [w.code, w.key])).toEqual([["kind_mismatch", "fishing.best.catch"]]);
    expect(answer.applied.rows).toBe(1);
    const [pin] = await t.db.select().from(counterKeys).where(eq(counterKeys.key, "fishing.best.catch"));
    expect(pin).toMatchObject({ kind: "max", unit: "count", category: "gathering" });
  });

  test("a second instance, whose cache has not seen the key, reads the pin rather than making its own", async () => {
    const a = await uploader(t);
    await send(a, { counters: [day("2026-06-01", [{ k: "hunting.best.trap", v: 4, m: "max" }])] });
    const other = createApp({ ...t, fetch: t.fetch });
    const env = envelope(t, { counters: [day("2026-06-01", [{ k: "hunting.best.trap", v: 5, m: "gauge" }])] });
    const res = await other.handle(
      new Request("http://localhost/v1/stats/ingest", {
        method: "POST",
        headers: { ...a.auth, "content-type": "application/json" },
        body: JSON.stringify(env),
      }),
    );
    const answer = (await res.json()) as Answer;
    expect(answer.warnings.map((w) => [w.code, w.key])).toEqual([["kind_mismatch", "hunting.best.trap"]]);
    const [pin] = await t.db.select().from(counterKeys).where(eq(counterKeys.key, "hunting.best.trap"));
    expect(pin!.kind).toBe("max");
  });

  test("a key the catalogue files under the account scope warns when sent under a profile", async () => {
    const u = await uploader(t);
    const answer = await send(u, { counters: [day("2026-06-01", [{ k: "tally.playtime.total", v: 1 }])] });
    expect(answer.warnings.map((w) => [w.code, w.key])).toEqual([["scope_mismatch", "tally.playtime.total"]]);
  });
});

describe("backfill", () => {
  test("writes the install's baseline up to and including its day, never a day row; a newer backfill replaces it", async () => {
    const u = await uploader(t);
    await send(u, { counters: [day("2026-05-01", [{ k: "mining.blocks.stone", v: 12_000 }], "backfill")] });
    t.clock.advance(1000);
    await send(u, { counters: [day("2026-05-02", [{ k: "mining.blocks.stone", v: 12_500 }], "backfill")] });
    await send(u, {
      install: INSTALL_B,
      counters: [day("2026-04-01", [{ k: "mining.blocks.stone", v: 3_000 }], "backfill")],
    });
    const stored = await storedState(t.db, u.uuid);
    expect(stored.days).toEqual([]);
    expect(stored.backfills.map((b) => [b.installId, b.day, b.value])).toEqual([
      [INSTALL_A, "2026-05-02", 12_500],
      [INSTALL_B, "2026-04-01", 3_000],
    ]);
  });
});

describe("the profile's display name", () => {
  test("is kept for display, following the latest-sent upload whatever the arrival order", async () => {
    const u = await uploader(t);
    const rows = [{ k: "mining.blocks.stone", v: 1 }];
    const later = envelope(t, {
      sentAt: t.clock.now(),
      profile: { id: PROFILE, cuteName: "Mango" },
      counters: [day("2026-06-01", rows)],
    });
    const earlier = envelope(t, {
      sentAt: t.clock.now() - 5_000,
      profile: { id: PROFILE, cuteName: "Banana" },
      counters: [day("2026-06-01", rows)],
    });
    await u.send(later);
    await u.send(earlier);
    expect((await storedState(t.db, u.uuid)).profiles).toEqual([
      expect.objectContaining({
        profileId: PROFILE,
        cuteName: "Mango",
        firstSeenAt: earlier.sentAt,
        lastSeenAt: later.sentAt,
      }),
    ]);
  });
});

describe("sessions", () => {
  const session = (endedAt: number, gained: number) => ({
    id: "run-1",
    activity: "dungeon",
    day: "2026-06-01",
    startedAt: 1_000,
    endedAt,
    gains: [{ k: "loot.item.BONE", v: gained }],
    costs: [{ k: "dungeon.keys.used", v: 1 }],
  });

  test("are replaced by id only by a copy that ended at least as late", async () => {
    const u = await uploader(t);
    expect((await send(u, { sessions: [session(5_000, 10)] })).applied.sessions).toBe(1);
    expect((await send(u, { sessions: [session(4_000, 99)] })).applied.sessions).toBe(0);
    expect((await storedState(t.db, u.uuid)).sessions[0]).toMatchObject({
      endedAt: 5_000,
      gains: [{ k: "loot.item.BONE", v: 10 }],
    });
    expect((await send(u, { sessions: [session(5_000, 11)] })).applied.sessions).toBe(1);
    expect((await send(u, { sessions: [session(9_000, 12)] })).applied.sessions).toBe(1);
    expect((await storedState(t.db, u.uuid)).sessions).toEqual([
      expect.objectContaining({
        id: "run-1",
        profileId: PROFILE,
        activity: "dungeon",
        endedAt: 9_000,
        gains: [{ k: "loot.item.BONE", v: 12 }],
        costs: [{ k: "dungeon.keys.used", v: 1 }],
      }),
    ]);
  });
});

describe("timeline events", () => {
  test("a repeated id is ignored", async () => {
    const u = await uploader(t);
    const event = {
      id: "drop-7",
      kind: "rare_drop",
      day: "2026-06-01",
      at: 123,
      key: "loot.item.NECRON_HANDLE",
      value: 1,
    };
    expect((await send(u, { timeline: [event] })).applied.events).toBe(1);
    expect(
      (
        await send(u, {
          timeline: [
            { ...event, value: 5 },
            { ...event, id: "pb-1", kind: "personal_best" },
          ],
        })
      ).applied.events,
    ).toBe(1);
    expect((await storedState(t.db, u.uuid)).events.map((e) => [e.id, e.kind, e.value])).toEqual([
      ["drop-7", "rare_drop", 1],
      ["pb-1", "personal_best", 1],
    ]);
  });

  test("an event kind the service has never heard of is kept (kinds are open)", async () => {
    const u = await uploader(t);
    await send(u, { timeline: [{ id: "x", kind: "met_a_sheep", day: "2026-06-01", at: 1 }] });
    expect((await storedState(t.db, u.uuid)).events[0]).toMatchObject({ kind: "met_a_sheep", key: null, value: null });
  });
});

describe("mirror sections", () => {
  const mirror = (observedAt: number, xp: number) => ({
    observedAt,
    sections: [{ name: "skills", values: [{ k: "farming.skill.xp", v: xp }] }],
  });

  test("are replaced by section only by a newer observation", async () => {
    const u = await uploader(t);
    expect((await send(u, { mirror: mirror(2_000, 100) })).applied.sections).toBe(1);
    expect((await send(u, { mirror: mirror(1_000, 50) })).applied.sections).toBe(0);
    expect((await send(u, { mirror: mirror(2_000, 60) })).applied.sections).toBe(0);
    expect((await storedState(t.db, u.uuid)).mirror[0]).toMatchObject({
      section: "skills",
      observedAt: 2_000,
      values: [{ k: "farming.skill.xp", v: 100 }],
    });
    expect((await send(u, { mirror: mirror(3_000, 150) })).applied.sections).toBe(1);
    expect((await storedState(t.db, u.uuid)).mirror[0]).toMatchObject({
      observedAt: 3_000,
      values: [{ k: "farming.skill.xp", v: 150 }],
    });
  });

  test("a section the catalogue does not list is refused unknown_mirror_section", async () => {
    const u = await uploader(t);
    const res = await u.send(
      envelope(t, {
        mirror: { observedAt: 1, sections: [{ name: "friends", values: [{ k: "farming.skill.xp", v: 1 }] }] },
      }),
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string; path: string } }).error).toMatchObject({
      code: "unknown_mirror_section",
      path: "/mirror/sections/0/name",
    });
  });
});
