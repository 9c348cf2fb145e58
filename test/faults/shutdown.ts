// SIGTERM while a crowd asks for a large account's pages (issue 40): 120 requests at once for
// distinct pages of an account of KEYS keys x DAYS days, then SIGTERM. The service must stop taking
// requests, end within its grace (SHUTDOWN_GRACE_MS) plus the time to close the database, exit 0,
// and keep every upload it acknowledged (started again, the account's lifetime figure of a key is
// still its sum).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Report } from "./report.ts";
import { rssMb, startService, stopService } from "./service.ts";

const KEYS = 1000;
const DAYS = 30;
const CROWD = 120;
const GRACE_MS = 3000;
/** Closing the embedded database (a checkpoint) after the grace: generous, a busy CI machine. */
const CLOSE_MS = 15_000;
const PROFILE = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";

const dayBack = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

export async function shutdownScenario(report: Report, binary: string, scenario: number) {
  const cwd = mkdtempSync(join(tmpdir(), "tally-fault-shutdown-"));
  const env = { SHUTDOWN_GRACE_MS: String(GRACE_MS), PAGE_RATE_LIMIT_PER_MINUTE: "0" };
  try {
    let s = await startService(binary, cwd, env);
    const signIn = await fetch(`${s.url}/v1/auth/dev`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ uuid: "e".repeat(32), name: "Crowded", zone: "UTC" }),
    });
    const auth = { authorization: `Bearer ${((await signIn.json()) as { token: string }).token}` };
    const settings = await fetch(`${s.url}/v1/stats/settings`, {
      method: "PATCH",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ settingsVersion: 1, findable: true, categories: { gathering: true } }),
    });
    if (settings.status !== 200) throw new Error(`settings: ${settings.status}`);
    // KEYS keys on each of DAYS days, value 1 each: every key's lifetime is DAYS.
    for (let d = DAYS - 1; d >= 0; d -= 10) {
      const counters = Array.from({ length: Math.min(10, d + 1) }, (_, j) => ({
        profileId: PROFILE,
        scope: "day",
        day: dayBack(d - j),
        rows: Array.from({ length: KEYS }, (_, i) => ({ k: `mining.crowd.k${i}`, v: 1 })),
      }));
      const res = await fetch(`${s.url}/v1/stats/ingest`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "content-encoding": "gzip" },
        body: Bun.gzipSync(
          new TextEncoder().encode(
            JSON.stringify({
              schema: 1,
              batchId: (0xabc000 + d).toString(16).padStart(32, "0"),
              sentAt: Date.now(),
              mode: "live",
              client: { install: "c".repeat(32), modVersion: "1.0.0", minecraft: "1.21.4", catalogue: 1 },
              zone: { id: "UTC" },
              settingsVersion: 1,
              profile: { id: PROFILE, cuteName: "Kiwi" },
              categories: ["gathering"],
              counters,
            }),
          ),
        ),
      });
      if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
    }
    const rssBefore = rssMb(s);
    // The crowd: every request a page nobody asked for before.
    const variants = ["day", "week", "month", "year"].flatMap((p) =>
      [7, 30, 90, 365].map((r) => `period=${p}&range=${r}`),
    );
    const crowd = Array.from({ length: CROWD }, (_, i) =>
      fetch(`${s.url}/u/Crowded?${variants[i % variants.length]}&group=mining&page=${1 + (i % 5)}`).then(
        (r) => r.status,
        () => 0,
      ),
    );
    await Bun.sleep(300);
    const rssDuring = rssMb(s);
    const t0 = performance.now();
    const code = await stopService(s);
    const stopMs = Math.round(performance.now() - t0);
    const statuses = new Map<number, number>();
    for (const st of await Promise.all(crowd)) statuses.set(st, (statuses.get(st) ?? 0) + 1);
    report.check(`${scenario}. SIGTERM under ${CROWD} page requests: exits 0`, code === 0, `exit ${code}`);
    report.check(
      `${scenario}. SIGTERM under ${CROWD} page requests: ends within the grace (${GRACE_MS} ms) and closing (${CLOSE_MS} ms)`,
      stopMs <= GRACE_MS + CLOSE_MS,
      `${stopMs} ms`,
    );
    // Started again on the same folder: the acknowledged uploads are all there.
    s = await startService(binary, cwd, env);
    const badge = await fetch(`${s.url}/u/Crowded/badge/mining.crowd.k${KEYS - 1}.svg`);
    const text = await badge.text();
    report.check(
      `${scenario}. after SIGTERM under load, every acknowledged upload is stored`,
      badge.status === 200 && text.includes(`>${DAYS}<`),
      `badge ${badge.status}`,
    );
    await stopService(s);
    report.figures("SIGTERM under page load", {
      keys: KEYS,
      days: DAYS,
      crowd: CROWD,
      stopMs,
      rssBeforeMb: rssBefore,
      rssDuringMb: rssDuring,
      statuses: JSON.stringify(Object.fromEntries(statuses)),
    });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
