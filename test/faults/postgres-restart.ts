// Scenario 2: stop Postgres under load and start it again. While it is down the service answers
// uploads and /v1/health with 503 database_unavailable and Retry-After, and stays up; once Postgres
// accepts connections again it answers 200 on its own within seconds; nothing acknowledged is lost.
// Clients keep an upload that got 503 and send it again after a pause, as the mod's outbox does.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateCluster } from "./cluster.ts";
import { firstDay, runLoad, signIn, type Reply } from "./load.ts";
import { batchRecords } from "./records.ts";
import type { Figures, Report } from "./report.ts";
import { startService, stopService, type Service } from "./service.ts";
import { checkStoredOnce } from "./verify.ts";

const ACCOUNTS = 6;
const DOWN_MS = 3000;
/** How soon after Postgres is back the first upload must be acknowledged. */
const RECOVERY_LIMIT_MS = 5000;

type Seen = { at: number; reply: Reply };

async function healthOf(url: string) {
  const res = await fetch(`${url}/v1/health`).catch(() => null);
  if (!res) return { status: 0, database: "no answer", retryAfter: null };
  const body = (await res.json().catch(() => ({}))) as { database?: string };
  return { status: res.status, database: body.database ?? "?", retryAfter: res.headers.get("retry-after") };
}

export async function postgresRestartScenario(report: Report, binary: string, scenario: number) {
  const cluster = privateCluster();
  const cwd = mkdtempSync(join(tmpdir(), "tally-faults-restart-"));
  let service: Service | undefined;
  try {
    await cluster.start();
    service = await startService(binary, cwd, { DATABASE_URL: cluster.url });
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
      onReply: (reply, at) => seen.push({ at, reply }),
    });
    const figures: Figures = {};

    for (const mode of ["fast", "immediate"] as const) {
      const label = `Postgres stopped (-m ${mode})`;
      await Bun.sleep(1500);
      cluster.stop(mode);
      const stoppedAt = performance.now();
      // Requests in flight at the stop may still finish either way; after a moment every answer is 503.
      await Bun.sleep(200);
      const from = performance.now();
      const health = [];
      while (performance.now() - stoppedAt < DOWN_MS) {
        health.push(await healthOf(url));
        await Bun.sleep(200);
      }
      const restartAt = performance.now();
      const down = seen.filter((s) => s.at >= from && s.at < restartAt);
      const unavailable = down.filter(
        (s) => s.reply.status === 503 && s.reply.code === "database_unavailable" && Number(s.reply.retryAfter) > 0,
      );
      // A 200 here is an upload committed before the stop and answered late (it must then be stored, checked below).
      const other = down.filter((s) => s.reply.status !== 200 && !unavailable.includes(s));
      report.check(
        `${label}: uploads are answered 503 database_unavailable with Retry-After`,
        unavailable.length > 0 && other.length === 0,
        `${unavailable.length} answers 503${
          other.length
            ? `; others: ${other
                .slice(0, 3)
                .map((s) => `${s.reply.status} ${s.reply.code ?? s.reply.error}`)
                .join(", ")}`
            : ""
        }`,
      );
      const badHealth = health.filter(
        (h) => !(h.status === 503 && h.database === "unavailable" && Number(h.retryAfter) > 0),
      );
      report.check(
        `${label}: /v1/health answers 503, database unavailable`,
        health.length > 0 && badHealth.length === 0,
        badHealth.length ? JSON.stringify(badHealth[0]) : `${health.length} probes`,
      );
      report.check(`${label}: the service stays up`, service.proc.exitCode === null, `exit ${service.proc.exitCode}`);

      const readyAt = await cluster.start();
      let first200: Seen | undefined;
      while (!first200 && performance.now() - readyAt < 15_000) {
        first200 = seen.find((s) => s.at >= readyAt && s.reply.status === 200);
        if (!first200) await Bun.sleep(5);
      }
      const recoveryMs = first200 ? Math.round(first200.at - readyAt) : -1;
      report.check(
        `${label}: uploads are acknowledged again within ${RECOVERY_LIMIT_MS / 1000} s of Postgres accepting connections`,
        first200 !== undefined && recoveryMs <= RECOVERY_LIMIT_MS,
        `${recoveryMs} ms`,
      );
      // A pool connection that was still connecting while Postgres finished starting may fail one
      // more request; health must be back within the same limit as uploads, not at one instant.
      let healthBack = await healthOf(url);
      while (healthBack.status !== 200 && performance.now() - readyAt < RECOVERY_LIMIT_MS) {
        await Bun.sleep(20);
        healthBack = await healthOf(url);
      }
      const healthMs = Math.round(performance.now() - readyAt);
      const why = () =>
        service!
          .output()
          .split("\n")
          .findLast((line) => line.includes("health: database unavailable"))
          ?.slice(0, 600) ?? "";
      report.check(
        `${label}: /v1/health answers 200 again within ${RECOVERY_LIMIT_MS / 1000} s`,
        healthBack.status === 200 && healthBack.database === "ok",
        healthBack.status === 200 ? `${healthMs} ms` : `${JSON.stringify(healthBack)} ${why()}`,
      );
      figures[`unavailable_${mode}`] = unavailable.length;
      figures[`recoveryMs_${mode}`] = recoveryMs;
    }

    await Bun.sleep(500);
    running = false;
    const sent = await load;
    const acked = sent.filter((s) => s.acked);
    const refused = sent.filter((s) => !s.acked);
    report.check(
      "Postgres restarts: every upload is acknowledged in the end (503s retried)",
      refused.length === 0,
      `${acked.length} of ${sent.length}`,
    );
    const { stored, lost } = await checkStoredOnce(report, "Postgres restarts", url, accounts, sent);
    const code = await stopService(service);
    report.check("Postgres restarts: the service stops cleanly afterwards", code === 0, `exit ${code}`);
    const records = await batchRecords(
      cluster.url,
      accounts.map((a) => a.uuid),
    );
    report.check(
      "Postgres restarts: one idempotency record per batchId, each with its answer",
      records.records === sent.length && records.withoutAnswer === 0,
      JSON.stringify(records),
    );
    report.figures("Postgres stop/start", {
      sent: sent.length,
      acknowledged: acked.length,
      stored: stored.whole.size,
      acknowledgedLost: lost.length,
      partial: stored.partial.length,
      retriedAfter503: sent.filter((s) => s.unavailable > 0).length,
      ...figures,
    });
  } finally {
    if (service && service.proc.exitCode === null) service.proc.kill("SIGKILL");
    cluster.destroy();
    rmSync(cwd, { recursive: true, force: true });
  }
}
