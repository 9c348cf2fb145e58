// Property: random valid uploads, applied in any order and any number of times, leave the same
// stored rows as applying each once in order of arrival (contract 1.2: replays give identical
// state). Seeded, so a failure names the seed that reproduces it.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { uploader, INSTALL_A, INSTALL_B, PROFILE, ACCOUNT, categoriesOf } from "../support/uploads.ts";
import { storedState } from "../support/stored.ts";
import type { Envelope, CounterBlock } from "../../src/wire/envelope.ts";
import { and, asc, eq } from "drizzle-orm";
import { counterRollups } from "../../src/stats/counters.table.ts";
import { recomputeRollups, refreshStaleRollups } from "../../src/stats/rollup.query.ts";
import { rng } from "../support/random.ts";

// A seed's dozens of uploads take 0.6-1.3 s on an idle machine and passed 5 s with two suites
// running side by side: the default timeout measured the machine, not the property.
setDefaultTimeout(60_000);

const rollupsOf = (uuid: string) =>
  t.db
    .select()
    .from(counterRollups)
    .where(and(eq(counterRollups.uuid, uuid), eq(counterRollups.profileId, PROFILE)))
    .orderBy(asc(counterRollups.key));
/** The fields a key's kind reads (a count's max, say, is never read and may differ). */
const byKind = (list: Awaited<ReturnType<typeof rollupsOf>>) =>
  list.map((r) => {
    const kind = keys.find((k) => k.k === r.key)!.m;
    const value = kind === "count" ? r.sum : kind === "max" ? r.max : kind === "min" ? r.min : r.lastValue;
    return { key: r.key, value, firstDay: r.firstDay, lastDay: r.lastDay };
  });

let t: TestApp;
beforeAll(async () => (t = await testApp({ settings: { devSignin: true }, now: "2026-06-01T12:00:00Z" })));
afterAll(() => t.close());

const keys = [
  { k: "mining.blocks.stone", m: "count" },
  { k: "mining.best.hit", m: "max" },
  { k: "dungeon.best_split.F7.finish", m: "min" },
  { k: "farming.purse.coins", m: "gauge" },
  { k: "loot.item.ENCHANTED_BONE", m: "count" },
] as const;
const days = ["2026-05-29", "2026-05-30", "2026-05-31", "2026-06-01"];
const installs = [INSTALL_A, INSTALL_B, "c".repeat(32)];

function randomUploads(seed: number, count: number): Envelope[] {
  const r = rng(seed);
  const base = t.clock.now() - 10 * 86_400_000;
  // Each event is recorded by one install, and only that install resends it.
  const events = Array.from({ length: 6 }, (_, i) => ({
    install: r.pick(installs),
    event: {
      id: `ev${i}`,
      kind: r.pick(["rare_drop", "level_up", "first"]),
      day: r.pick(days),
      at: base + i,
      key: r.pick(keys).k,
      value: r.int(100),
    },
  }));
  return Array.from({ length: count }, (_, i) => {
    const blocks: CounterBlock[] = [];
    for (const day of days) {
      if (r.next() < 0.5) continue;
      const rows = keys
        .filter(() => r.next() < 0.6)
        .map(({ k, m }) => ({ k, v: r.int(1000) - 100, ...(r.next() < 0.5 ? { m } : {}) }));
      if (rows.length) blocks.push({ profileId: PROFILE, scope: "day", day, rows });
    }
    if (r.next() < 0.3)
      blocks.push({
        profileId: PROFILE,
        scope: "backfill",
        day: "2026-05-01",
        rows: [{ k: "mining.blocks.stone", v: r.int(100_000) }],
      });
    if (r.next() < 0.4)
      blocks.push({
        profileId: ACCOUNT,
        scope: "day",
        day: r.pick(days),
        rows: [{ k: "tally.playtime.total", v: r.int(86_400_000) }],
      });
    if (blocks.length === 0)
      blocks.push({ profileId: PROFILE, scope: "day", day: days[0]!, rows: [{ k: "mining.blocks.stone", v: i }] });
    const install = r.pick(installs);
    const env: Envelope = {
      schema: 1,
      batchId: (seed * 1000 + i).toString(16).padStart(32, "0"),
      // Distinct send times: the order they were sent in is the order of arrival in the reference run.
      sentAt: base + i * 1000,
      mode: "live",
      client: { install, modVersion: "1.4.0", minecraft: "1.21.4", catalogue: t.catalogue.version },
      zone: { id: "Europe/Berlin" },
      settingsVersion: 2,
      profile: { id: PROFILE, cuteName: "Kiwi" },
      categories: [],
      counters: blocks,
      sessions:
        r.next() < 0.5
          ? [
              {
                id: `s${r.int(3)}`,
                activity: "mining",
                day: r.pick(days),
                startedAt: base,
                endedAt: base + i * 1000 + 1,
                gains: [{ k: "mining.blocks.stone", v: r.int(50) }],
                costs: [],
              },
            ]
          : [],
      // A resent event is the same event: the mod resends what it recorded.
      timeline: events.filter((e) => e.install === install && r.next() < 0.5).map((e) => e.event),
    };
    env.categories = categoriesOf(t, env);
    return env;
  });
}

/** The stored state without the account column, table by table, so two accounts compare. */
const state = async (uuid: string) =>
  Object.fromEntries(
    Object.entries(await storedState(t.db, uuid)).map(([table, rows]) => [
      table,
      JSON.stringify(rows, (k, v) => (k === "uuid" ? undefined : v)),
    ]),
  );

test.each([1, 2, 3, 4, 5])("seed %d: shuffled and repeated uploads store what in-order uploads store", async (seed) => {
  const uploads = randomUploads(seed, 25);
  const reference = await uploader(t, { zone: "Europe/Berlin" });
  for (const env of uploads) expect((await reference.send(env)).status).toBe(200);

  const chaotic = await uploader(t, { zone: "Europe/Berlin" });
  const r = rng(seed + 100);
  const deliveries = uploads.flatMap((env) => Array.from({ length: 1 + r.int(3) }, () => env));
  for (let i = deliveries.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
  }
  for (let i = 0; i < deliveries.length; i += 4) {
    const statuses = await Promise.all(
      deliveries.slice(i, i + 4).map((env) => chaotic.send(env).then((res) => res.status)),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
  }

  expect(await state(chaotic.uuid)).toEqual(await state(reference.uuid));
  expect((await storedState(t.db, reference.uuid)).days.length).toBeGreaterThan(10);

  // The rollups kept up to date upload by upload equal the ones rebuilt from the day rows, and
  // both accounts read the same lifetime totals.
  const totals = async (_uuid: string, auth: { authorization: string }) =>
    (await t.request(`/v1/stats/totals?profile=${PROFILE}`, { headers: auth })).text();
  expect(await totals(chaotic.uuid, chaotic.auth)).toBe(await totals(reference.uuid, reference.auth));
  for (const u of [reference, chaotic]) {
    await refreshStaleRollups(t.db, u.uuid, PROFILE);
    const kept = await rollupsOf(u.uuid);
    await t.db.transaction((tx) =>
      recomputeRollups(
        tx,
        u.uuid,
        keys.map((k) => k.k),
        PROFILE,
      ),
    );
    expect(byKind(kept)).toEqual(byKind(await rollupsOf(u.uuid)));
  }
});
