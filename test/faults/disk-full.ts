// Scenarios 7 and 8: the disk under the database fills while accounts upload. The database lives on
// a small filesystem of its own (a tmpfs with size=, mounted by the test; needs root): DATA_DIR for
// the embedded database, the data folder of a private Postgres cluster for Postgres. A filler file
// takes all but LEAVE_BYTES (Postgres keeps its WAL on the ordinary disk: see privateCluster).
// While full: uploads are refused 503 storage_full with Retry-After, the log
// says what to do, the service stays up. Once the filler is deleted: uploads are acknowledged again
// on their own, every acknowledged upload is stored whole, none in part; the database opens again
// after a restart with the same contents.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freeBytesOf } from "../../src/db/free-space.ts";
import { STORAGE_FULL_LOG } from "../../src/http/on-error.ts";
import { privateCluster, type Cluster } from "./cluster.ts";
import { firstDay, runLoad, signIn, type Reply } from "./load.ts";
import { batchRecords } from "./records.ts";
import type { Report } from "./report.ts";
import { rssMb, sampleRss, startService, stopService, type Service } from "./service.ts";
import { checkStoredOnce, storedBatches } from "./verify.ts";

const ACCOUNTS = 6;
const FULL_MS = 4000;
const RECOVERY_LIMIT_MS = 5000;
/**
 * What the filler leaves free. Postgres: a few pages, so some small writes still fit and the big ones
 * do not. Embedded: 8 MB, room for many pages but not for the next 16 MB WAL file, which is where a
 * disk that fills slowly first runs out; PGlite hung there for good (every answer stopped, and
 * freeing space did not help) until the service kept a floor of free space (EMBEDDED_MIN_FREE_MB).
 */
const LEAVE_BYTES = { postgres: 256 * 1024, embedded: 8 * 2 ** 20 };

type Seen = { at: number; ms: number; reply: Reply };

/** A tmpfs of `mb` megabytes at a new folder; null (and why) when this machine cannot mount one. */
function smallFilesystem(mb: number): { dir: string; unmount(): void } | string {
  if (process.getuid?.() !== 0) return "not root: cannot mount a tmpfs";
  const dir = mkdtempSync(join(tmpdir(), "tally-faults-disk-"));
  const p = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${mb}m,mode=0755`, "tmpfs", dir], { stderr: "pipe" });
  if (p.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return `mount -t tmpfs failed: ${p.stderr.toString().trim()}`;
  }
  return {
    dir,
    unmount() {
      Bun.spawnSync(["umount", "-l", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function diskFullScenario(
  report: Report,
  binary: string,
  scenario: number,
  backend: "embedded" | "postgres",
) {
  const label = `disk full, ${backend}`;
  // Embedded: large enough that the database plus the default floor (64 MiB) fit once the filler goes.
  const fs = smallFilesystem(backend === "embedded" ? 256 : 192);
  if (typeof fs === "string") {
    console.log(`skipped: ${fs}`);
    return;
  }
  const cwd = mkdtempSync(join(tmpdir(), "tally-faults-full-"));
  let service: Service | undefined;
  let cluster: Cluster | undefined;
  try {
    const dataDir = join(fs.dir, "data");
    let env: Record<string, string> = { DATA_DIR: dataDir };
    if (backend === "postgres") {
      cluster = privateCluster(fs.dir, true);
      await cluster.start();
      env = { DATABASE_URL: cluster.url };
    } else mkdirSync(dataDir);
    service = await startService(binary, cwd, {
      ...env,
      ...(process.env.FAULTS_DUMP ? { LOG_LEVEL: "info" } : {}),
    });
    const url = service.url;
    const accounts = await Promise.all(Array.from({ length: ACCOUNTS }, (_, i) => signIn(url, scenario, i)));
    const seen: Seen[] = [];
    let running = true;
    const load = runLoad({
      url,
      scenario,
      accounts,
      from: firstDay(),
      more: () => running,
      retryUnavailableAfterMs: 100,
      onReply: (reply, at, ms) => seen.push({ at, ms, reply }),
    });
    await Bun.sleep(1500);
    const rssBefore = rssMb(service);
    const filler = join(fs.dir, "filler");
    const fill = Bun.spawnSync([
      "fallocate",
      "-l",
      String(Math.max(0, freeBytesOf(fs.dir) - LEAVE_BYTES[backend])),
      filler,
    ]);
    if (fill.exitCode !== 0) throw new Error(`fallocate failed: ${fill.stderr.toString()}`);
    const fullAt = performance.now();
    const rss = sampleRss(service);
    await Bun.sleep(FULL_MS);
    const memory = rss.stop();
    const freedAt = performance.now();
    rmSync(filler);

    // Uploads that still fit in the last free pages may be acknowledged; every refusal is storage_full.
    const during = seen.filter((s) => s.at > fullAt + 500 && s.at <= freedAt);
    const refused = during.filter((s) => s.reply.status !== 200);
    const full = refused.filter(
      (s) => s.reply.status === 503 && s.reply.code === "storage_full" && Number(s.reply.retryAfter) > 0,
    );
    const unavailable = refused.filter(
      (s) => s.reply.status === 503 && s.reply.code === "database_unavailable" && Number(s.reply.retryAfter) > 0,
    );
    const other = refused.filter((s) => !full.includes(s) && !unavailable.includes(s));
    report.check(
      `${label}: uploads are refused 503 storage_full with Retry-After`,
      full.length > 0 && other.length === 0 && unavailable.length === 0,
      `${full.length} storage_full, ${unavailable.length} database_unavailable of ${refused.length} refusals, ${during.length - refused.length} acknowledged${
        other.length
          ? `; others: ${other
              .slice(0, 3)
              .map((s) => `${s.reply.status} ${s.reply.code ?? s.reply.error}`)
              .join(", ")}`
          : ""
      }`,
    );
    const logged = service
      .output()
      .split("\n")
      .filter((line) => line.includes(STORAGE_FULL_LOG.slice(0, 40)));
    report.check(
      `${label}: the log says the disk is full and what to do`,
      logged.length > 0,
      logged[0]?.slice(0, 160) ?? "no such line",
    );
    report.check(`${label}: the service stays up`, service.proc.exitCode === null, `exit ${service.proc.exitCode}`);

    let first200: Seen | undefined;
    while (!first200 && performance.now() - freedAt < 20_000) {
      first200 = seen.find((s) => s.reply.status === 200 && s.at - s.ms >= freedAt);
      if (!first200) await Bun.sleep(5);
    }
    const recoveryMs = first200 ? Math.round(first200.at - freedAt) : -1;
    // FAULTS_DUMP=<file>: the service's log up to here, to see what it did while full (a hang shows as silence).
    if (process.env.FAULTS_DUMP) await Bun.write(process.env.FAULTS_DUMP, service.output());
    report.check(
      `${label}: uploads are acknowledged again within ${RECOVERY_LIMIT_MS / 1000} s of space being freed, on their own`,
      first200 !== undefined && recoveryMs <= RECOVERY_LIMIT_MS,
      `${recoveryMs} ms`,
    );

    await Bun.sleep(1000);
    running = false;
    const sent = await load;
    const acked = sent.filter((s) => s.acked);
    report.check(
      `${label}: every upload is acknowledged in the end (refusals retried)`,
      acked.length === sent.length,
      `${acked.length} of ${sent.length}`,
    );
    const { stored, lost } = await checkStoredOnce(report, label, url, accounts, sent);
    const code = await stopService(service);
    report.check(`${label}: the service stops cleanly afterwards`, code === 0, `exit ${code}`);

    // Not corrupted: the database opens again (crash-free start on the same files) with the same contents.
    const again = await startService(binary, cwd, env);
    service = again;
    const reread = await storedBatches(again.url, accounts, sent);
    report.check(
      `${label}: after a restart the database opens and holds the same uploads`,
      reread.whole.size === stored.whole.size && reread.partial.length === 0 && reread.unexplained === 0,
      `${reread.whole.size} whole after restart, ${stored.whole.size} before`,
    );
    await stopService(again);
    const records = await batchRecords(
      cluster?.url ?? dataDir,
      accounts.map((a) => a.uuid),
    );
    report.check(
      `${label}: one idempotency record per batchId, each with its answer`,
      records.records === sent.length && records.withoutAnswer === 0,
      JSON.stringify(records),
    );
    report.figures(label, {
      sent: sent.length,
      acknowledged: acked.length,
      stored: stored.whole.size,
      lost: lost.length,
      partial: stored.partial.length,
      refusedStorageFull: full.length,
      refusedUnavailable: unavailable.length,
      recoveryMs,
      rssBeforeMb: rssBefore,
      rssPeakFullMb: memory.peak,
    });
  } finally {
    if (service && service.proc.exitCode === null) service.proc.kill("SIGKILL");
    cluster?.destroy();
    fs.unmount();
    rmSync(cwd, { recursive: true, force: true });
  }
}
