// What the first statistics page after an upload costs in process, by part (issue 40): an account of
// KEYS keys x DAYS days (closed by the rollups job, today and yesterday open), then ROUNDS times: an
// upload of one row (a new account state) and the page, timed. Run with --cpu-prof-md to see where.
//   bun [--cpu-prof-md --cpu-prof-dir=/tmp/prof] bench/first-page.ts [--keys 10000] [--days 10] [--rounds 8] [--written 1]
import { testApp } from "../test/support/app.ts";
import { envelope, uploader, PROFILE } from "../test/support/uploads.ts";
import { closeDaysPass } from "../src/stats/rollups.ts";
import { addDays } from "../src/wire/day.ts";

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const KEYS = opt("keys", 10_000);
const DAYS = opt("days", 10);
const ROUNDS = opt("rounds", 8);
/** Keys each round's upload writes: past 2 000 the page reads the profile's every key again (lifetime-memo.ts). */
const WRITTEN = opt("written", 1);
const NOW = "2026-06-10T12:00:00Z";
const TODAY = "2026-06-10";
const NAMESPACES = ["mining", "farming", "fishing", "foraging", "kills", "loot"];
const KINDS = ["count", "count", "count", "max", "min", "gauge"] as const;

const t = await testApp({ now: NOW, settings: { devSignin: true, pageRateLimit: 0, pageRenderBudgetMs: 0 } });
const p = await uploader(t, { name: "FirstPage", zone: "UTC" });
const patch = await t.request("/v1/stats/settings", {
  method: "PATCH",
  headers: { ...p.auth, "content-type": "application/json" },
  body: JSON.stringify({ settingsVersion: 2, findable: true }),
});
if (patch.status !== 200) throw new Error(`settings: ${patch.status}`);
const send = async (day: string, rows: { k: string; v: number; m?: (typeof KINDS)[number] }[]) => {
  const res = await p.send(
    envelope(t, { zone: { id: "UTC" }, counters: [{ profileId: PROFILE, scope: "day", day, rows }] }),
  );
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
  t.clock.advance(1000);
};
const t0 = performance.now();
for (let d = DAYS - 1; d >= 0; d--) {
  const rows = Array.from({ length: KEYS }, (_, i) => ({
    k: `${NAMESPACES[i % NAMESPACES.length]}.bench.k${i}`,
    v: (i % 97) + DAYS - d,
    m: KINDS[i % KINDS.length]!,
  }));
  await send(addDays(TODAY, -d), rows);
  if (d === 2) await closeDaysPass({ db: t.db, clock: t.clock });
}
console.log(`${KEYS} keys x ${DAYS} days in ${Math.round(performance.now() - t0)} ms`);
const times: number[] = [];
const cpus: number[] = [];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
for (let r = 0; r < ROUNDS; r++) {
  await send(
    TODAY,
    Array.from({ length: WRITTEN }, (_, i) => ({
      k: `${NAMESPACES[i % NAMESPACES.length]}.bench.k${i}`,
      v: 1_000 + r + (i % 97),
      m: KINDS[i % KINDS.length]!,
    })),
  );
  const s = performance.now();
  const c = cpu();
  const res = await t.request(`/u/FirstPage?r=${r}`);
  await res.text();
  times.push(performance.now() - s);
  cpus.push(cpu() - c);
  if (res.status !== 200) throw new Error(`page: ${res.status}`);
}
console.log(`first page after an upload of ${WRITTEN} keys, ms wall: ${times.map((x) => x.toFixed(0)).join(" ")}`);
console.log(`ms CPU (the process, every thread): ${cpus.map((x) => x.toFixed(0)).join(" ")}`);
await t.close();
