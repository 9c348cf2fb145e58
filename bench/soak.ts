// Soak: the compiled binary under a steady mixed load for a long time, watched from outside.
//   bun bench/soak.ts [dist/tally] [--minutes 60] [--rate half|<uploads/s>] [--rows 600] [--cells] [--window 10] [--accounts 16]
// Uploads of `--rows` rows (600 by default), each account's the mod's usual live upload: today's
// values of one key set, each upload overwriting the last, with its own session and event (as
// bench/ingest.ts --keys 600). `--cells`: the fault tests' uploads instead, each on cells of its own
// on a past day (closed days: the costlier catch-up path); the fault runner's 3-minute soak sends
// those, 40 rows each. On a fixed schedule, latency counted from
// each one's scheduled moment) at half the raw ingest limit (`--rate half`: measured first, as
// bench/ingest.ts does, by unnest upserts of the same rows straight through postgres.js) or at a
// given rate; besides them, per upload-second: page views (/u/<name>), player look-ups (fake name
// and game API servers on loopback) and bug reports. Every `--window` minutes it prints uploads,
// p50/p99 of uploads and of the other requests, resident memory, open file descriptors and sockets
// of the service, Postgres connections and the generator's own resident size; at the end the slope
// of resident memory (MB/hour, least squares over every 5 s sample after the first window) and
// whether every acknowledged upload is stored once. With DATABASE_URL: a fresh Postgres database; without: the embedded database.
// The fault runner runs a 3-minute version (scenario 9). Reports; asserts nothing itself.
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { loadConfig } from "../src/config.ts";
import { createPostgresDatabase } from "../test/support/db.ts";
import { fakeGameApi, hypixelProfile } from "../test/support/fakes/game-api.ts";
import { fakeNames } from "../test/support/fakes/names.ts";
import { ROWS, batchIdentity, batchOf, firstDay, send, signIn, type Account } from "../test/faults/load.ts";
import { batchRecords } from "../test/faults/records.ts";
import { openFds, rssMb, startService, stopService } from "../test/faults/service.ts";
import { storedBatches, storedLiveBatches } from "../test/faults/verify.ts";

export type SoakOptions = {
  binary: string;
  minutes: number;
  rate: "half" | number;
  windowMinutes: number;
  accounts: number;
  /** Rows per upload; the fault tests' 40 unless given. */
  rows?: number;
  /** Live uploads of today's values (the mod's usual), rather than the fault tests' cells of their own. */
  live?: boolean;
  scenario?: number;
  quiet?: boolean;
};

export type SoakWindow = {
  window: number;
  endMinute: number;
  uploads: number;
  failed: number;
  uploadP50Ms: number;
  uploadP99Ms: number;
  otherRequests: number;
  otherP99Ms: number;
  rssMb: number;
  /** The load generator's own resident size: its pauses count as upload latency. */
  generatorRssMb: number;
  fds: number;
  sockets: number;
  postgresConnections: number | string;
};

export type SoakResult = {
  backend: "postgres" | "embedded";
  rawRowsPerSec: number | null;
  uploadsPerSec: number;
  rowsPerSec: number;
  minutes: number;
  windows: SoakWindow[];
  rssSlopeMbPerHour: number;
  rssFirstMb: number;
  rssLastMb: number;
  sent: number;
  acknowledged: number;
  refused: Record<string, number>;
  appliedByService: number;
  storedWhole: number;
  partial: number;
  unexplained: number;
  idempotencyRecords: number;
  /** Sent uploads the schedule could not start on time (client side behind by more than a second). */
  behindSchedule: number;
};

const pct = (xs: number[], p: number) =>
  xs.length
    ? Math.round([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! * 10) / 10
    : 0;
const hex = (n: number, width = 32) => n.toString(16).padStart(width, "0");

/** Least-squares slope of (t seconds, y) in y per hour. */
function slopePerHour(points: { t: number; y: number }[]): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.t - mt) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.t - mt) ** 2, 0);
  return den === 0 ? 0 : Math.round((num / den) * 3600 * 10) / 10;
}

/**
 * Rows/s of the raw limit for the soak's upload shape: unnest upserts straight through postgres.js,
 * 5 s counted after 1 s of warming, three times (this machine's readings of one 3 s run ranged from
 * 83 600 to 152 600 rows/s within an hour); the median is the limit. `live`: each connection writes
 * its one key set again and again, as a live upload does. A first run is not counted: on new
 * connections and an empty table it read 80 760-89 400 rows/s where the next two read 164 880-309 480,
 * and as one of three it was the median whenever the other two differed.
 */
async function rawRowsPerSec(
  url: string,
  connections: number,
  rowCount: number,
  live: boolean,
): Promise<{ median: number; runs: number[] }> {
  const sql = postgres(url, { max: connections, onnotice: () => {} });
  try {
    const day = firstDay();
    const runs: number[] = [];
    for (let run = -1; run < 3; run++) {
      let rows = 0;
      const from = performance.now() + 1000;
      const until = from + 5000;
      await Promise.all(
        Array.from({ length: connections }, async (_, c) => {
          for (let i = 0; performance.now() < until; i++) {
            const counted = performance.now() >= from;
            const keys = Array.from({ length: rowCount }, (_, j) => `mining.raw.r${live ? 0 : i % 100}.k${j}`);
            await sql`insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
              select ${hex(0xdd00 + c)}, ${hex(1)}, t.key, ${day}::date, ${hex(2)}, t.value, null, null, ${Date.now()}
              from unnest(${keys}::text[], ${keys.map((_, j) => i * 1000 + j)}::bigint[]) as t(key, value)
              on conflict (uuid, profile_id, key, day, install_id) do update set value = excluded.value, sent_at = excluded.sent_at`;
            if (counted) rows += rowCount;
          }
        }),
      );
      if (run >= 0) runs.push(Math.round(rows / 5));
      // The dead versions of the run go, as they would between the service's uploads.
      await sql.unsafe("vacuum counter_days");
    }
    return { median: [...runs].sort((a, b) => a - b)[1]!, runs };
  } finally {
    await sql`delete from counter_days where uuid like '0000000000000000000000000000dd%'`.catch(() => {});
    await sql.end();
  }
}

/**
 * Postgres's autovacuum, when the server has it off (this machine's CI Postgres does, in
 * conf.d/90-ci.conf): the soak vacuums its database once a minute, as autovacuum's launcher would
 * (autovacuum_naptime). Without it the live uploads' dead row versions pile up (306 000 of
 * counter_days' for its 9 600 live rows after 30 minutes) and upload p99 grew from 74 ms to 2.1 s
 * over the first half hour: a server nobody runs. Answers undefined when the server vacuums itself.
 */
async function vacuumIfServerWont(url: string): Promise<{ stop(): Promise<void> } | undefined> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [row] = await sql.unsafe("show autovacuum");
  if (row?.autovacuum === "on") {
    await sql.end();
    return undefined;
  }
  let running = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() =>
      sql.unsafe("vacuum").then(
        () => {},
        () => {},
      ),
    );
  }, 60_000);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
      await sql.end();
    },
  };
}

/** Sockets among the process's open file descriptors. */
function socketsOf(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:")) n++;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

export async function soak(o: SoakOptions): Promise<SoakResult> {
  const scenario = o.scenario ?? 9;
  const rowCount = o.rows ?? ROWS;
  const postgresUrl = loadConfig().databaseUrl;
  const db = postgresUrl ? await createPostgresDatabase() : null;
  const cwd = mkdtempSync(join(tmpdir(), "tally-soak-"));
  const dataDir = join(cwd, "data");
  const names = fakeNames([]);
  const api = fakeGameApi({ key: "soak-key", limit: 100_000 });
  const log = (line: string) => o.quiet || console.log(line);
  let vacuuming: { stop(): Promise<void> } | undefined;
  try {
    if (o.rate === "half" && !db)
      throw new Error(
        "--rate half needs DATABASE_URL (the raw limit is measured on Postgres); give --rate <uploads/s>",
      );
    const service = await startService(o.binary, cwd, {
      ...(db ? { DATABASE_URL: db.url } : { DATA_DIR: dataDir }),
      NAMES_URL: names.url,
      GAME_API_URL: api.url,
      GAME_API_KEY: "soak-key",
      LOOKUP_RATE_LIMIT_PER_MINUTE: "0",
      REPORT_RATE_LIMIT_PER_HOUR: "0",
      ASSET_RATE_LIMIT_PER_MINUTE: "0",
    });
    const url = service.url;
    // The raw limit on the migrated database, the service idle meanwhile.
    const rawRuns = db ? await rawRowsPerSec(db.url, 10, rowCount, !!o.live) : null;
    const raw = rawRuns?.median ?? null;
    if (o.rate === "half" && raw === null)
      throw new Error(
        "--rate half needs DATABASE_URL (the raw limit is measured on Postgres); give --rate <uploads/s>",
      );
    const uploadsPerSec = o.rate === "half" ? Math.max(1, Math.round(raw! / 2 / rowCount)) : o.rate;
    vacuuming = db ? await vacuumIfServerWont(db.url) : undefined;
    const accounts: Account[] = await Promise.all(
      Array.from({ length: o.accounts }, (_, i) => signIn(url, scenario, i)),
    );
    for (const a of accounts) {
      names.players.push({ uuid: a.uuid, name: `Fault${scenario}_${a.index}` });
      api.players.set(a.uuid, [hypixelProfile(a.uuid)]);
    }
    log(
      `soak: ${db ? "Postgres" : "embedded"}, ${o.minutes} min, ${uploadsPerSec} ${o.live ? "live " : ""}uploads/s of ${rowCount} rows (${uploadsPerSec * rowCount} rows/s${rawRuns ? `; raw limit ${raw} rows/s, the median of ${rawRuns.runs.join(", ")}` : ""}), ${o.accounts} accounts, windows of ${o.windowMinutes} min`,
    );
    log(
      "window  end min  uploads  failed  upload p50  p99 ms | other  p99 ms | RSS MB  fds  sockets  pg conns | generator RSS MB",
    );
    if (vacuuming)
      log("(the server's autovacuum is off: the soak vacuums its database every minute, as autovacuum would)");

    const from = firstDay();
    // What the final check needs of each upload, a few numbers each (an hour sends 300 000 and more;
    // as objects they grew this process by 100 MB each ten minutes, and its pauses became the
    // uploads' latency): the account, i, the day it was on and whether it was acknowledged. The
    // batchIds end with this run's tag instead of random digits, so each upload is rebuilt from them.
    const tag = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
    const sentAccount: number[] = [];
    const sentI: number[] = [];
    const sentDay: number[] = [];
    const acked: number[] = [];
    const refused: Record<string, number> = {};
    let behind = 0;
    type Sample = { at: number; ms: number; ok: boolean };
    let uploads: Sample[] = [];
    let others: Sample[] = [];
    const rssPoints: { t: number; y: number }[] = [];
    const windows: SoakWindow[] = [];
    const next = new Map<Account, number>(accounts.map((a) => [a, 0]));
    const queues = new Map<Account, Promise<void>>(accounts.map((a) => [a, Promise.resolve()]));
    const t0 = performance.now();
    const endAt = t0 + o.minutes * 60_000;
    const inFlight = new Set<Promise<unknown>>();
    const track = <T>(p: Promise<T>) => (inFlight.add(p), p.finally(() => inFlight.delete(p)));

    const other = async (path: string, init?: RequestInit) => {
      const s = performance.now();
      const res = await fetch(url + path, { ...init, signal: AbortSignal.timeout(60_000) }).catch(() => null);
      await res?.arrayBuffer().catch(() => {});
      const ok = !!res && res.status < 500;
      if (!ok)
        refused[`other ${res?.status ?? 0} ${path.split("/").slice(0, 3).join("/")}`] =
          (refused[`other ${res?.status ?? 0} ${path.split("/").slice(0, 3).join("/")}`] ?? 0) + 1;
      others.push({ at: performance.now(), ms: performance.now() - s, ok });
    };
    const report = (i: number) =>
      JSON.stringify({
        schema: 1,
        modVersion: "soak",
        minecraft: "1.21.4",
        title: `Soak problem ${i % 7}`,
        message: "a steady trickle of the same few problems",
        stackTrace: `java.lang.IllegalStateException: soak ${i % 7}\n\tat com.example.soak.Probe.run(Probe.java:${10 + (i % 7)})`,
      });

    // One upload per account at a time (the way one client sends), scheduled; the schedule is the clock.
    const schedule = (k: number, due: number) => {
      const a = k % accounts.length;
      const account = accounts[a]!;
      const i = next.get(account)!;
      next.set(account, i + 1);
      let batch: ReturnType<typeof batchOf> | undefined = batchOf(scenario, account, i, from, rowCount, o.live, tag);
      const n = sentAccount.push(a) - 1;
      sentI.push(i);
      sentDay.push(Date.parse(`${batch.day}T00:00:00Z`) / 86_400_000);
      acked.push(0);
      const work = queues.get(account)!.then(async () => {
        if (performance.now() - due > 1000) behind++;
        const reply = await send(url, batch!, 60_000);
        batch = undefined; // sent once and never again
        const ok = reply.status === 200;
        if (ok) acked[n] = 1;
        else
          refused[`upload ${reply.status} ${reply.code ?? reply.error ?? ""}`] =
            (refused[`upload ${reply.status} ${reply.code ?? reply.error ?? ""}`] ?? 0) + 1;
        uploads.push({ at: performance.now(), ms: performance.now() - due, ok });
      });
      queues.set(account, work);
      track(work);
    };

    let k = 0;
    let second = 0;
    let windowEnd = t0 + o.windowMinutes * 60_000;
    const pgConnections = async () => {
      if (!db) return "-";
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      try {
        const [row] = await sql<
          { n: number }[]
        >`select count(*)::int as n from pg_stat_activity where application_name = 'tally' and datname = current_database()`;
        return row!.n;
      } finally {
        await sql.end();
      }
    };
    const closeWindow = async (endMinute: number) => {
      const w: SoakWindow = {
        window: windows.length + 1,
        endMinute,
        uploads: uploads.length,
        failed: uploads.filter((u) => !u.ok).length,
        uploadP50Ms: pct(
          uploads.map((u) => u.ms),
          50,
        ),
        uploadP99Ms: pct(
          uploads.map((u) => u.ms),
          99,
        ),
        otherRequests: others.length,
        otherP99Ms: pct(
          others.map((u) => u.ms),
          99,
        ),
        rssMb: rssMb(service),
        generatorRssMb: Math.round(process.memoryUsage().rss / 1e5) / 10,
        fds: openFds(service),
        sockets: socketsOf(service.proc.pid),
        postgresConnections: await pgConnections(),
      };
      windows.push(w);
      uploads = [];
      others = [];
      const pad = (x: unknown, n: number) => String(x).padStart(n);
      log(
        `${pad(w.window, 6)} ${pad(w.endMinute, 8)} ${pad(w.uploads, 8)} ${pad(w.failed, 7)} ${pad(w.uploadP50Ms, 11)} ${pad(w.uploadP99Ms, 7)} | ${pad(w.otherRequests, 5)} ${pad(w.otherP99Ms, 7)} | ${pad(w.rssMb, 6)} ${pad(w.fds, 4)} ${pad(w.sockets, 8)} ${pad(w.postgresConnections, 9)} | ${pad(w.generatorRssMb, 8)}`,
      );
    };

    let lastRss = 0;
    while (performance.now() < endAt) {
      const secondStart = t0 + second * 1000;
      for (let j = 0; j < uploadsPerSec; j++) {
        const due = secondStart + (j / uploadsPerSec) * 1000;
        if (due > performance.now()) await Bun.sleep(due - performance.now());
        schedule(k++, due);
      }
      // The rest of the mix, once per second: two page views, one look-up, one bug report.
      const a = accounts[second % accounts.length]!;
      track(other(`/u/Fault${scenario}_${a.index}`));
      track(other(`/`));
      track(other(`/v1/players/Fault${scenario}_${a.index}/summary`));
      track(
        other(`/v1/reports/general`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: report(second),
        }),
      );
      second++;
      if (performance.now() - lastRss >= 5000) {
        lastRss = performance.now();
        rssPoints.push({ t: (performance.now() - t0) / 1000, y: rssMb(service) });
      }
      if (performance.now() >= windowEnd) {
        await closeWindow(Math.round((performance.now() - t0) / 6000) / 10);
        windowEnd += o.windowMinutes * 60_000;
      }
    }
    await Promise.all([...inFlight]);
    if (uploads.length || others.length) await closeWindow(Math.round((performance.now() - t0) / 6000) / 10);

    const metrics = await (await fetch(`${url}/metrics`)).text();
    const applied = Number(/^tally_ingest_uploads_total\{duplicate="false"\} (\d+)$/m.exec(metrics)?.[1] ?? -1);
    const sent = sentAccount.map((a, n) => ({
      batch: batchIdentity(
        scenario,
        accounts[a]!,
        sentI[n]!,
        from,
        rowCount,
        o.live,
        tag,
        new Date(sentDay[n]! * 86_400_000).toISOString().slice(0, 10),
      ),
    }));
    const stored = await (o.live ? storedLiveBatches : storedBatches)(url, accounts, sent);
    await stopService(service);
    const records = await batchRecords(
      db?.url ?? dataDir,
      accounts.map((a) => a.uuid),
    );
    const warm = rssPoints.filter((p) => p.t >= o.windowMinutes * 60);
    const result: SoakResult = {
      backend: db ? "postgres" : "embedded",
      rawRowsPerSec: raw,
      uploadsPerSec,
      rowsPerSec: uploadsPerSec * rowCount,
      minutes: o.minutes,
      windows,
      rssSlopeMbPerHour: slopePerHour(warm.length >= 2 ? warm : rssPoints),
      rssFirstMb: rssPoints[0]?.y ?? 0,
      rssLastMb: rssPoints.at(-1)?.y ?? 0,
      sent: sent.length,
      acknowledged: acked.reduce((x, y) => x + y, 0),
      refused,
      appliedByService: applied,
      storedWhole: stored.whole.size,
      partial: stored.partial.length,
      unexplained: stored.unexplained,
      idempotencyRecords: records.records,
      behindSchedule: behind,
    };
    log(
      `RSS slope ${result.rssSlopeMbPerHour} MB/hour (${result.rssFirstMb} -> ${result.rssLastMb} MB); sent ${result.sent}, acknowledged ${result.acknowledged}, applied ${applied}, stored whole ${stored.whole.size}, partial ${stored.partial.length}, unexplained ${stored.unexplained}, idempotency records ${records.records}; ${behind} started over 1 s late`,
    );
    if (Object.keys(refused).length) log(`refused or failed: ${JSON.stringify(refused)}`);
    return result;
  } finally {
    await vacuuming?.stop();
    names.stop();
    api.stop();
    await db?.drop();
    rmSync(cwd, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const flag = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
  const binary = resolve(
    args.find((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1]!.startsWith("--"))) ?? "dist/tally",
  );
  const rate = flag("--rate", "half");
  const result = await soak({
    binary,
    minutes: Number(flag("--minutes", "60")),
    rate: rate === "half" ? "half" : Number(rate),
    windowMinutes: Number(flag("--window", "10")),
    accounts: Number(flag("--accounts", "16")),
    rows: Number(flag("--rows", "600")),
    live: !args.includes("--cells"),
  });
  console.log(JSON.stringify({ soak: result }));
}
