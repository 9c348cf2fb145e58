// Scenario 6: a Postgres that stops answering without closing anything. Every process of a private
// cluster is frozen (SIGSTOP: what a stalled disk or a network partition looks like from the
// service: connections open, nothing answers) while accounts upload and keep re-sending what gets
// 503. While frozen: every request is answered within a bound (the statement timeout for one caught
// in flight, the acquire timeout for the rest), 503 database_unavailable with Retry-After; the
// service's memory stays bounded; health says unavailable. After SIGCONT: uploads are acknowledged
// again within seconds, every acknowledged upload is stored whole, none in part, each once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateCluster } from "./cluster.ts";
import { firstDay, runLoad, signIn, type Reply } from "./load.ts";
import { batchRecords } from "./records.ts";
import type { Report } from "./report.ts";
import { openFds, rssMb, sampleRss, startService, stopService, type Service } from "./service.ts";
import { checkStoredOnce } from "./verify.ts";

const ACCOUNTS = 12;
const FROZEN_MS = 6000;
const STATEMENT_TIMEOUT_MS = 2000;
const ACQUIRE_TIMEOUT_MS = 1000;
/** The longest any request may take while Postgres is frozen: the statement timeout, its grace, and slack for a busy machine. */
const ANSWER_LIMIT_MS = STATEMENT_TIMEOUT_MS + 500 + 4000;
const RECOVERY_LIMIT_MS = 5000;
/** Resident memory the service may gain while frozen with clients sending. */
const MEMORY_LIMIT_MB = 150;

type Seen = { at: number; ms: number; reply: Reply };

async function health(url: string) {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(30_000) }).catch(() => null);
  return { status: res?.status ?? 0, retryAfter: res?.headers.get("retry-after") ?? null, ms: performance.now() - t0 };
}

export async function postgresHangScenario(report: Report, binary: string, scenario: number) {
  const label = "Postgres frozen (SIGSTOP)";
  const cluster = privateCluster();
  const cwd = mkdtempSync(join(tmpdir(), "tally-faults-hang-"));
  let service: Service | undefined;
  try {
    await cluster.start();
    service = await startService(binary, cwd, {
      DATABASE_URL: cluster.url,
      DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      DATABASE_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_TIMEOUT_MS),
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
      retryUnavailableAfterMs: 50,
      onReply: (reply, at, ms) => seen.push({ at, ms, reply }),
    });
    await Bun.sleep(1500);
    const rssBefore = rssMb(service);
    const fdsBefore = openFds(service);
    const frozenPids = cluster.signal("SIGSTOP");
    const frozenAt = performance.now();
    const rss = sampleRss(service);
    const probes: Awaited<ReturnType<typeof health>>[] = [];
    while (performance.now() - frozenAt < FROZEN_MS) {
      probes.push(await health(url));
      await Bun.sleep(200);
    }
    const memory = rss.stop();
    const fdsFrozen = openFds(service);
    cluster.signal("SIGCONT");
    const thawedAt = performance.now();

    const during = seen.filter((s) => s.at > frozenAt && s.at <= thawedAt);
    // A 200 in the first moment is an upload Postgres committed just before the freeze.
    const refused = during.filter((s) => s.reply.status !== 200);
    const unavailable = refused.filter(
      (s) => s.reply.status === 503 && s.reply.code === "database_unavailable" && Number(s.reply.retryAfter) > 0,
    );
    report.check(
      `${label}: uploads are answered 503 database_unavailable with Retry-After`,
      unavailable.length > 0 && unavailable.length === refused.length,
      `${unavailable.length} of ${refused.length} refusals (${pids(frozenPids)})${
        refused.length > unavailable.length
          ? `; others: ${refused
              .filter((s) => !unavailable.includes(s))
              .slice(0, 3)
              .map((s) => `${s.reply.status} ${s.reply.code ?? s.reply.error}`)
              .join(", ")}`
          : ""
      }`,
    );
    const slowest = Math.round(Math.max(0, ...during.map((s) => s.ms)));
    report.check(
      `${label}: every upload is answered within ${ANSWER_LIMIT_MS} ms`,
      slowest <= ANSWER_LIMIT_MS,
      `slowest ${slowest} ms`,
    );
    const badProbes = probes.filter(
      (p) => !(p.status === 503 && Number(p.retryAfter) > 0) && !(p === probes[0] && p.status === 200),
    );
    const slowestProbe = Math.round(Math.max(...probes.map((p) => p.ms)));
    report.check(
      `${label}: /v1/health answers 503 with Retry-After, within the bound`,
      badProbes.length === 0 && slowestProbe <= ANSWER_LIMIT_MS,
      `${probes.length} probes, slowest ${slowestProbe} ms${badProbes.length ? `; ${JSON.stringify(badProbes[0])}` : ""}`,
    );
    report.check(
      `${label}: memory stays bounded while clients keep sending`,
      memory.peak - rssBefore <= MEMORY_LIMIT_MB,
      `${rssBefore} MB before, peak ${memory.peak} MB, ${during.length} answers in ${FROZEN_MS} ms`,
    );
    report.check(`${label}: the service stays up`, service.proc.exitCode === null, `exit ${service.proc.exitCode}`);

    let first200: Seen | undefined;
    while (!first200 && performance.now() - thawedAt < 15_000) {
      first200 = seen.find((s) => s.at > thawedAt && s.reply.status === 200 && s.at - s.ms >= thawedAt);
      if (!first200) await Bun.sleep(5);
    }
    const recoveryMs = first200 ? Math.round(first200.at - thawedAt) : -1;
    report.check(
      `${label}: a new upload is acknowledged within ${RECOVERY_LIMIT_MS / 1000} s of the thaw`,
      first200 !== undefined && recoveryMs <= RECOVERY_LIMIT_MS,
      `${recoveryMs} ms`,
    );
    let back = await health(url);
    while (back.status !== 200 && performance.now() - thawedAt < RECOVERY_LIMIT_MS)
      back = (await Bun.sleep(20), await health(url));
    report.check(
      `${label}: /v1/health answers 200 again`,
      back.status === 200,
      `${Math.round(performance.now() - thawedAt)} ms after the thaw`,
    );

    await Bun.sleep(1000);
    running = false;
    const sent = await load;
    const acked = sent.filter((s) => s.acked);
    report.check(
      `${label}: every upload is acknowledged in the end (503s retried)`,
      acked.length === sent.length,
      `${acked.length} of ${sent.length}`,
    );
    const { stored, lost } = await checkStoredOnce(report, label, url, accounts, sent);
    const fdsAfter = openFds(service);
    const code = await stopService(service);
    report.check(`${label}: the service stops cleanly afterwards`, code === 0, `exit ${code}`);
    const records = await batchRecords(
      cluster.url,
      accounts.map((a) => a.uuid),
    );
    report.check(
      `${label}: one idempotency record per batchId, each with its answer`,
      records.records === sent.length && records.withoutAnswer === 0,
      JSON.stringify(records),
    );
    report.figures("Postgres frozen 6 s", {
      sent: sent.length,
      acknowledged: acked.length,
      stored: stored.whole.size,
      lost: lost.length,
      partial: stored.partial.length,
      refusedWhileFrozen: refused.length,
      slowestAnswerMs: slowest,
      recoveryMs,
      rssBeforeMb: rssBefore,
      rssPeakFrozenMb: memory.peak,
      fds: `${fdsBefore}/${fdsFrozen}/${fdsAfter}`,
    });
  } finally {
    if (service && service.proc.exitCode === null) service.proc.kill("SIGKILL");
    cluster.destroy();
    rmSync(cwd, { recursive: true, force: true });
  }
}

const pids = (p: number[]) => `${p.length} Postgres processes frozen`;
