// Release health against a simulation of installs upgrading over days (seeded, random): every
// upload goes through POST /v1/stats/ingest, every bug report through POST /v1/reports/general; the
// release-health job's count equals the distinct installs that uploaded per version and day, the
// aggregate holds no uuid, install id or profile (read from the table itself), install ids are gone
// once their day is counted, and days past RELEASE_HEALTH_DAYS expire. The chat's release summary
// comes the first day the newest version reaches its adoption and once more a week later, naming no
// player.
import { describe, expect, test, setDefaultTimeout } from "bun:test";
setDefaultTimeout(120_000);
import { rows } from "../../src/db/database.ts";
import { sql } from "drizzle-orm";
import { foldReleaseHealth } from "../../src/reports/release-health.ts";
import { postReleaseSummaries } from "../../src/reports/release-summary.ts";
import { versionsTable } from "../../src/reports/release-health-text.ts";
import { runReportsCommand } from "../../src/reports/problems-list.ts";
import { addDays, utcDay } from "../../src/wire/day.ts";
import { envelope, PROFILE, uploader, type Uploader } from "../support/uploads.ts";
import { rng } from "../support/random.ts";
import { traceCorpus } from "./corpus.ts";
import { chatSetup } from "./chat-setup.ts";

const VERSIONS = ["1.4.0", "1.4.1", "1.5.0"];
/** The day (from the start) each version comes out. */
const RELEASED = [0, 3, 8];
const DAYS = 12;
const SEED = Number(process.env.RELEASE_HEALTH_SEED ?? 0) || 20_261_126;

const chat = chatSetup({ now: "2026-11-01T08:00:00Z", settings: { devSignin: true } });

/** One upload of today's values from this install (PROFILE's), as the mod sends it. */
const upload = (t: Awaited<ReturnType<typeof chat.setup>>["t"], install: string) =>
  envelope(t, {
    install,
    counters: [
      { profileId: PROFILE, scope: "day", day: utcDay(t.clock.now()), rows: [{ k: "mining.blocks.stone", v: 1 }] },
    ],
  });

type Install = { id: string; player: Uploader; version: number };

/** Runs the simulation; answers the expected (version, day) -> installs and reports. */
async function simulate(
  t: Awaited<ReturnType<typeof chat.setup>>["t"],
  send: (over: Record<string, unknown>) => Promise<unknown>,
  r: ReturnType<typeof rng>,
) {
  const players = await Promise.all(Array.from({ length: 6 }, () => uploader(t)));
  // 1 to 3 installs (computers) per player, each with its own 32-hex id.
  const installs: Install[] = players.flatMap((player) =>
    Array.from({ length: 1 + r.int(3) }, () => ({
      id: Array.from({ length: 32 }, () => "0123456789abcdef"[r.int(16)]).join(""),
      player,
      version: 0,
    })),
  );
  const expected = new Map<string, { installs: Set<string>; reports: number }>();
  const at = (version: string, day: string) => {
    const key = `${version} ${day}`;
    if (!expected.has(key)) expected.set(key, { installs: new Set(), reports: 0 });
    return expected.get(key)!;
  };
  for (let d = 0; d < DAYS; d++) {
    const day = utcDay(t.clock.now());
    const newest = RELEASED.filter((r) => r <= d).length - 1;
    for (const install of installs) {
      // An install upgrades to the newest version with some chance each day after its release.
      if (install.version < newest && r.chance(0.45)) install.version = newest;
      const uploads = r.chance(0.7) ? 1 + r.int(3) : 0; // some days not played, some days several uploads
      for (let u = 0; u < uploads; u++) {
        const version = VERSIONS[install.version]!;
        const env = upload(t, install.id);
        env.client.modVersion = version;
        const res = await install.player.send(env);
        expect(res.status).toBe(200);
        at(version, day).installs.add(install.id);
        t.clock.advance(60_000);
      }
      // 1.5.0 is the buggy one: more reports, and a new problem.
      if (r.chance(install.version === 2 ? 0.5 : 0.1)) {
        const version = VERSIONS[install.version]!;
        await send({
          modVersion: version,
          stackTrace: traceCorpus[install.version === 2 ? 5 : 0]!.stackTrace,
          message: "it crashed when Steve joined",
        });
        at(version, day).reports++;
      }
    }
    // The job runs at most every day, and sometimes skips one: nothing is lost either way.
    if (r.chance(0.8)) await foldReleaseHealth(t);
    t.clock.advance(86_400_000 - (t.clock.now() % 86_400_000) + 3_600_000); // next day, 01:00 UTC
  }
  await foldReleaseHealth(t);
  return { installs, players, expected };
}

describe("release health", () => {
  test("counts distinct installs per version and day through uploads; the aggregate names nobody", async () => {
    const { t, send } = await chat.setup();
    const r = rng(SEED);
    const { installs, players, expected } = await simulate(t, send, r);

    const stored = await rows<{ version: string; day: string; installs: number; reports: number }>(
      t.db,
      sql`select version, day, installs, reports from report_version_days order by day, version`,
    );
    const want = [...expected.entries()]
      .map(([key, v]) => {
        const [version, day] = key.split(" ") as [string, string];
        return { version, day, installs: v.installs.size, reports: v.reports };
      })
      .sort((a, b) => (a.day === b.day ? (a.version < b.version ? -1 : 1) : a.day < b.day ? -1 : 1));
    expect(stored.map((s) => ({ ...s, installs: Number(s.installs), reports: Number(s.reports) }))).toEqual(want);

    // The aggregate's columns, and every value in it: no uuid, install id or profile id.
    const columns = await rows<{ column_name: string }>(
      t.db,
      sql`select column_name from information_schema.columns where table_name = 'report_version_days' order by ordinal_position`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(["version", "day", "installs", "reports"]);
    const everything = JSON.stringify(await rows(t.db, sql`select * from report_version_days`));
    for (const secret of [
      ...installs.map((i) => i.id),
      ...players.map((p) => p.uuid),
      "4f1c2a3b4d5e6f708192a3b4c5d6e7f8",
    ])
      expect(everything).not.toContain(secret);

    // Install ids are kept only for today and yesterday (an upload begun before midnight may still write it).
    const today = utcDay(t.clock.now());
    const scratch = await rows<{ day: string }>(t.db, sql`select distinct day from report_install_days`);
    for (const s of scratch) expect(s.day >= addDays(today, -1)).toBe(true);

    // The terminal's table: newest version first, and the comparison of the newest against the one before.
    const text = await versionsTable(t);
    console.log(`tally reports versions (seed ${SEED}):\n${text}`);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^version\s+first seen\s+active installs/);
    expect(lines[1]).toStartWith("1.5.0");
    expect(lines[2]).toStartWith("1.4.1");
    expect(text).toContain("1.5.0 against 1.4.1:");
    expect(text).toContain("Counts only installs with statistics on");
    expect(await runReportsCommand(t, { kind: "versions" })).toBe(text);
  });

  test("days past RELEASE_HEALTH_DAYS expire; a day with no job run still counts", async () => {
    const { t } = await chat.setup({ releaseHealthDays: 7 });
    const player = await uploader(t);
    const first = utcDay(t.clock.now());
    for (const install of ["a".repeat(32), "b".repeat(32)]) {
      const env = upload(t, install);
      expect((await player.send(env)).status).toBe(200);
    }
    t.clock.advance(3 * 86_400_000); // no run for three days
    await foldReleaseHealth(t);
    const counted = await rows<{ day: string; installs: number }>(
      t.db,
      sql`select day, installs from report_version_days`,
    );
    expect(counted.map((c) => ({ day: c.day, installs: Number(c.installs) }))).toEqual([{ day: first, installs: 2 }]);
    expect(await rows(t.db, sql`select * from report_install_days`)).toEqual([]);
    t.clock.advance(7 * 86_400_000);
    await foldReleaseHealth(t);
    expect(await rows(t.db, sql`select * from report_version_days`)).toEqual([]);
  });

  test("the chat's release summary: the day the newest version reaches its adoption, and a week later", async () => {
    const { t, send, discord } = await chat.setup({ releaseSummaryMinInstalls: 4 });
    const r = rng(SEED + 1);
    await simulate(t, send, r);
    expect(await postReleaseSummaries(t)).toMatchObject({ reached: 1, posted: 1, failed: 0 });
    const threads = [...discord.threads.values()].filter((th) => th.name.startsWith("Release"));
    expect(threads.map((th) => th.name)).toEqual(["Release 1.5.0"]);
    const content = threads[0]!.messages[0]!.content;
    console.log(`release summary:\n${content}`);
    expect(content).toContain("Counts only installs with statistics on");
    expect(content).toMatch(
      /Reports per 1 000 active installs a day, last 7 days: \*\*[\d.]+\*\*, against \*\*[\d.–]+\*\* for 1\.4\.1/,
    );
    expect(content).toMatch(/New problems first reported from 1\.5\.0: \*\*\d+\*\*/);
    expect(content).not.toContain("Steve");
    // Nothing more until a week after it reached its adoption.
    expect(await postReleaseSummaries(t)).toMatchObject({ posted: 0 });
    t.clock.advance(7 * 86_400_000);
    expect(await postReleaseSummaries(t)).toMatchObject({ posted: 1 });
    expect([...discord.threads.values()].map((th) => th.name).filter((n) => n.startsWith("Release"))).toEqual([
      "Release 1.5.0",
      "Release 1.5.0: one week on",
    ]);
    t.clock.advance(7 * 86_400_000);
    expect(await postReleaseSummaries(t)).toMatchObject({ posted: 0 });
  });
});
