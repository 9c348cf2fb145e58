// Moving a player's history between two tally instances (issue 37): an account's export (format 2)
// taken by another instance's POST /v1/stats/import gives back the same export, byte for byte from
// its statistics on (the head and device sessions are the instance's: its name, times, sessions);
// the same file twice changes nothing; two installs' rows stay separate and an older copy never
// replaces a newer one; a file of another account needs the player's confirmation.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { testApp, type TestApp } from "../support/app.ts";
import { postgresUrl } from "../support/db.ts";
import { fixtureCatalogue } from "../support/fixtures.ts";
import { envelope, uploader, INSTALL_A, INSTALL_B, PROFILE, ACCOUNT, type Uploader } from "../support/uploads.ts";
import { sealPass, retentionPass } from "../../src/stats/seal.ts";
import { closeDaysPass } from "../../src/stats/rollups.ts";
import { addDays } from "../../src/wire/day.ts";

setDefaultTimeout(60_000);

const START = "2026-01-10";
/** 150 days after START: the first days are past the 120-day seal horizon. */
const TODAY = addDays(START, 150);
const UUID = "c0ffee00c0ffee00c0ffee00c0ffee00";
const SETTINGS = { devSignin: true, catalogueFile: fixtureCatalogue, retentionOptionsDays: "120,130,730" };

/** The export's statistics: everything from its profiles on (the head and device sessions are the instance's). */
export function statisticsPart(text: string): string {
  const at = text.indexOf(',"profiles":[');
  if (at < 0) throw new Error("no profiles section");
  return text.slice(at);
}

export async function exportOf(t: TestApp, auth: Record<string, string>): Promise<string> {
  const res = await t.request("/v1/stats/export", { headers: auth });
  expect(res.status).toBe(200);
  return res.text();
}

export function importTo(t: TestApp, auth: Record<string, string>, file: string | Uint8Array<ArrayBuffer>, query = "") {
  const body = typeof file === "string" ? Bun.gzipSync(new TextEncoder().encode(file)) : file;
  return t.request(`/v1/stats/import${query}`, {
    method: "POST",
    body,
    headers: { ...auth, "content-type": "application/json", "content-encoding": "gzip" },
  });
}

/** Fills an account with a history: two installs, a backfill, sealed days, sessions, events, the mirror. */
async function fill(t: TestApp, player: Uploader) {
  const day = (n: number) => addDays(START, n);
  for (let d = 0; d < 140; d += 7) {
    t.clock.set(`${day(d)}T20:00:00Z`);
    for (const install of d % 14 === 0 ? [INSTALL_A, INSTALL_B] : [INSTALL_A]) {
      const env = envelope(t, {
        install,
        counters: [
          {
            profileId: PROFILE,
            scope: "day",
            day: day(d),
            rows: [
              { k: "mining.blocks.total", v: 100 + d },
              { k: "kills.best.hit", v: 1000 + d * 3, m: "max" },
              { k: "dungeon.best_split.F7.finish", v: 300_000 - d * 10, m: "min" },
              { k: "farming.purse.coins", v: 5_000 + d * (install === INSTALL_A ? 2 : 1), m: "gauge" },
            ],
          },
          { profileId: ACCOUNT, scope: "day", day: day(d), rows: [{ k: "tally.playtime.total", v: 3_600_000 }] },
          ...(d === 0
            ? [
                {
                  profileId: PROFILE,
                  scope: "backfill" as const,
                  day: day(0),
                  rows: [{ k: "mining.blocks.total", v: 90_000 }],
                },
              ]
            : []),
        ],
        sessions: [
          {
            id: `sess-${d}-${install.slice(0, 4)}`,
            activity: "dungeon",
            day: day(d),
            startedAt: t.clock.now() - 1_500_000,
            endedAt: t.clock.now() - 60_000,
            gains: [{ k: "loot.item.ENCHANTED_BONE", v: 12 }],
            costs: [{ k: "dungeon.keys.used", v: 1 }],
          },
        ],
        timeline: [
          {
            id: `evt-${d}`,
            kind: "rare_drop",
            day: day(d),
            at: t.clock.now() - 100_000,
            key: "loot.item.NECRON_HANDLE",
            value: 1,
          },
        ],
        mirror: {
          observedAt: t.clock.now(),
          sections: [{ name: "skills", values: [{ k: "mining.skill.xp", v: 1000 * d }] }],
        },
      });
      const res = await player.send(env);
      if (res.status !== 200) throw new Error(`upload refused: ${await res.text()}`);
    }
    await closeDaysPass(t);
    await sealPass(t);
    await retentionPass(t);
  }
  t.clock.set(`${TODAY}T12:00:00Z`);
  await closeDaysPass(t);
  await sealPass(t);
  await retentionPass(t);
}

let source: TestApp;
let from: Uploader;
let file: string;
beforeAll(async () => {
  source = await testApp({ settings: SETTINGS, now: `${START}T12:00:00Z`, backend: "embedded" });
  from = await uploader(source, { uuid: UUID, name: "Mover", zone: "UTC" });
  // 130 days kept: the first weeks are folded into the retention seal, the next ones collapsed by the seal.
  await source.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...from.auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: 2, retentionDays: 130 }),
  });
  await fill(source, from);
  file = await exportOf(source, from.auth);
  // The history holds what an instance must rebuild: sealed days, retention seals, a backfill, two installs.
  const doc = JSON.parse(file);
  expect(doc.format).toBe(2);
  expect(doc.seals.length).toBeGreaterThan(0);
  expect(doc.backfills.length).toBe(2);
  expect(doc.dayRows.some((r: { installId: string }) => r.installId === "")).toBe(true);
  expect(doc.dayRows.some((r: { installId: string }) => r.installId === INSTALL_B)).toBe(true);
});
afterAll(() => source.close());

async function roundTrip(target: TestApp) {
  const to = await uploader(target, { uuid: UUID, name: "Mover", zone: "UTC" });
  await target.request("/v1/stats/settings", {
    method: "PATCH",
    headers: { ...to.auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: 2, retentionDays: 130 }),
  });
  const res = await importTo(target, to.auth, file);
  const answer = (await res.json()) as Record<string, any>;
  expect(res.status).toBe(200);
  expect(answer.format).toBe(2);
  expect(answer.otherAccount).toBe(false);
  expect(answer.counts.counterRows.added).toBeGreaterThan(0);
  expect(answer.counts.counterRows.refused).toBe(0);
  expect(answer.counts.sessions.added).toBeGreaterThan(0);
  expect(answer.counts.baselines.added).toBeGreaterThan(0);
  const again = await exportOf(target, to.auth);
  expect(statisticsPart(again)).toBe(statisticsPart(file));
  // Lifetime totals fold to the same numbers on both instances.
  const totals = async (t: TestApp, auth: Record<string, string>) =>
    (await t.request(`/v1/stats/totals?profile=${PROFILE}`, { headers: auth })).text();
  expect(await totals(target, to.auth)).toBe(await totals(source, from.auth));

  // The same file twice changes nothing, and says so.
  const second = (await (await importTo(target, to.auth, file)).json()) as Record<string, any>;
  for (const kind of Object.keys(second.counts)) {
    expect(second.counts[kind].added).toBe(0);
    expect(second.counts[kind].replaced).toBe(0);
  }
  expect(statisticsPart(await exportOf(target, to.auth))).toBe(statisticsPart(file));
  return to;
}

describe("an export taken by another instance", () => {
  test("embedded to embedded: the same export back, byte for byte", async () => {
    const target = await testApp({ settings: SETTINGS, now: `${TODAY}T12:00:00Z`, backend: "embedded" });
    try {
      await roundTrip(target);
    } finally {
      await target.close();
    }
  });

  const toPostgres = postgresUrl
    ? "embedded to Postgres: the same export back, byte for byte"
    : "embedded to Postgres (skipped: DATABASE_URL unset)";
  test.skipIf(!postgresUrl)(toPostgres, async () => {
    const target = await testApp({ settings: SETTINGS, now: `${TODAY}T12:00:00Z` });
    try {
      await roundTrip(target);
    } finally {
      await target.close();
    }
  });

  test("merging: another install's rows stay separate, an older copy of the same install's row is skipped", async () => {
    const target = await testApp({ settings: SETTINGS, now: `${TODAY}T12:00:00Z`, backend: "embedded" });
    try {
      const to = await uploader(target, { uuid: UUID, name: "Mover", zone: "UTC" });
      const today = TODAY;
      const other = "c1c2c3c4c5c6c7c8c9cacbcccdcecfd0";
      // A newer reading of install A today, and a third install's row.
      const env = (install: string, v: number) =>
        envelope(target, {
          install,
          sentAt: target.clock.now() + 1000,
          counters: [{ profileId: PROFILE, scope: "day", day: today, rows: [{ k: "mining.blocks.total", v }] }],
        });
      expect((await to.send(env(INSTALL_A, 7))).status).toBe(200);
      expect((await to.send(env(other, 5))).status).toBe(200);
      const source2 = JSON.parse(file) as Record<string, any>;
      // The file's row of install A today is older (its sentAt is earlier) than the one stored.
      source2.dayRows.push({
        profileId: PROFILE,
        key: "mining.blocks.total",
        kind: "count",
        day: today,
        installId: INSTALL_A,
        value: 999,
        low: null,
        high: null,
        sentAt: target.clock.now() - 1000,
      });
      const res = await importTo(target, to.auth, JSON.stringify(source2));
      expect(res.status).toBe(200);
      const answer = (await res.json()) as Record<string, any>;
      expect(answer.counts.counterRows.skipped).toBe(1);
      const day = (await (
        await target.request(`/v1/stats/totals?profile=${PROFILE}`, { headers: to.auth })
      ).json()) as unknown;
      expect(JSON.stringify(day)).toContain("mining.blocks.total");
      const rows = JSON.parse(await exportOf(target, to.auth)).dayRows.filter(
        (r: { day: string; key: string }) => r.day === today && r.key === "mining.blocks.total",
      );
      expect(rows.map((r: { installId: string; value: number }) => [r.installId, r.value])).toEqual([
        [INSTALL_A, 7],
        [other, 5],
      ]);
    } finally {
      await target.close();
    }
  });

  test("another account's file is taken only with confirm=other-account", async () => {
    const target = await testApp({ settings: SETTINGS, now: `${TODAY}T12:00:00Z`, backend: "embedded" });
    try {
      const someone = await uploader(target, { name: "Someone", zone: "UTC" });
      const refused = await importTo(target, someone.auth, file);
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as any).error.code).toBe("import_other_account");
      const taken = await importTo(target, someone.auth, file, "?confirm=other-account");
      expect(taken.status).toBe(200);
      expect(((await taken.json()) as any).otherAccount).toBe(true);
    } finally {
      await target.close();
    }
  });
});
