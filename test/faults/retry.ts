// Scenario 4: a client that gives up on an upload after a short timeout and sends it again with the
// same batchId, until it gets an answer. Many uploads of one account at once queue behind each
// other (one account's uploads apply one at a time), so many attempts time out on the client while
// the service goes on and applies them. However often each is sent, it must be applied once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROWS, batchOf, firstDay, send, signIn, type Answer, type Sent } from "./load.ts";
import { batchRecords } from "./records.ts";
import type { Report } from "./report.ts";
import { startService, stopService, type Service } from "./service.ts";
import { storedBatches, totalsDiffer } from "./verify.ts";

const ACCOUNTS = 3;
const UPLOADS_PER_ACCOUNT = 10;
/** The client's pause before it sends again. */
const PAUSE_MS = 100;
/** Attempt n gives up after 10 ms * 2^(n-1): the first always too soon for an upload queued behind its account's others. */
const FIRST_TIMEOUT_MS = 10;
/** After these the client waits for its answer however long it takes. */
const ATTEMPTS_WITH_TIMEOUT = 9;

/** How many uploads the service says it applied (not duplicates), from its own /metrics. */
async function appliedByService(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^tally_ingest_uploads_total\{duplicate="false"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

export async function retryScenario(report: Report, binary: string, scenario: number, postgresUrl: string) {
  const label = `retrying client on ${postgresUrl ? "Postgres" : "embedded"}`;
  const cwd = mkdtempSync(join(tmpdir(), "tally-faults-retry-"));
  const dataDir = join(cwd, "data");
  let service: Service | undefined;
  try {
    service = await startService(binary, cwd, postgresUrl ? { DATABASE_URL: postgresUrl } : { DATA_DIR: dataDir });
    const url = service.url;
    const accounts = await Promise.all(Array.from({ length: ACCOUNTS }, (_, i) => signIn(url, scenario, i)));
    const from = firstDay();
    const sent: (Sent & { timeouts: number; final?: Answer })[] = accounts.flatMap((a) =>
      Array.from({ length: UPLOADS_PER_ACCOUNT }, (_, i) => ({
        batch: batchOf(scenario, a, i, from),
        acked: false,
        attempts: 0,
        unavailable: 0,
        timeouts: 0,
      })),
    );
    // Every upload at once; each one sent again a moment after its attempt times out, waiting longer each time.
    await Promise.all(
      sent.map(async (s) => {
        while (!s.acked) {
          s.attempts++;
          const reply = await send(
            url,
            s.batch,
            s.attempts <= ATTEMPTS_WITH_TIMEOUT ? FIRST_TIMEOUT_MS * 2 ** (s.attempts - 1) : undefined,
          );
          if (reply.status === 200) {
            s.acked = true;
            s.final = reply.answer;
          } else if (reply.error === "timeout") {
            s.timeouts++;
            await Bun.sleep(PAUSE_MS);
          } else return; // another answer: not acknowledged, reported below
        }
      }),
    );
    const acked = sent.filter((s) => s.acked);
    report.check(
      `${label}: every upload is acknowledged in the end`,
      acked.length === sent.length,
      `${acked.length} of ${sent.length}`,
    );
    const retried = sent.filter((s) => s.timeouts > 0);
    const landedWhileAway = retried.filter((s) => s.final?.duplicate);
    report.check(
      `${label}: uploads timed out on the client and were sent again`,
      retried.length > 0 && landedWhileAway.length > 0,
      `${retried.length} retried, ${landedWhileAway.length} of them had been applied meanwhile`,
    );
    const wrongDuplicates = landedWhileAway.filter(
      (s) => s.final!.applied.rows !== ROWS || s.final!.applied.events !== 1,
    );
    report.check(
      `${label}: a re-sent upload that was applied meanwhile answers duplicate with the answer of its one application`,
      wrongDuplicates.length === 0,
      `${wrongDuplicates.length} wrong`,
    );
    const firstTime = sent.filter((s) => s.final && !s.final.duplicate);
    report.check(
      `${label}: each upload got at most one answer that it was applied`,
      firstTime.length + landedWhileAway.length === acked.length,
    );
    const applied = await appliedByService(url);
    report.check(
      `${label}: the service applied each upload exactly once (its own count)`,
      applied === sent.length,
      `${applied} applied for ${sent.length} uploads in ${sent.reduce((n, s) => n + s.attempts, 0)} attempts`,
    );
    const stored = await storedBatches(url, accounts, sent);
    report.check(
      `${label}: every upload is stored whole, nothing else`,
      stored.whole.size === sent.length && stored.partial.length === 0 && stored.unexplained === 0,
      `${stored.whole.size} whole, ${stored.partial.length} partial, ${stored.unexplained} unexplained`,
    );
    const differ = await totalsDiffer(url, accounts, sent);
    report.check(
      `${label}: lifetime totals are those of sending each upload once`,
      differ.length === 0,
      differ.slice(0, 3).join("; "),
    );
    const code = await stopService(service);
    report.check(`${label}: the service stops cleanly`, code === 0, `exit ${code}`);
    const records = await batchRecords(
      postgresUrl || dataDir,
      accounts.map((a) => a.uuid),
    );
    report.check(
      `${label}: one idempotency record per batchId`,
      records.records === sent.length && records.withoutAnswer === 0,
      JSON.stringify(records),
    );
    report.figures(label, {
      uploads: sent.length,
      attempts: sent.reduce((n, s) => n + s.attempts, 0),
      clientTimeouts: sent.reduce((n, s) => n + s.timeouts, 0),
      retriedUploads: retried.length,
      appliedWhileClientAway: landedWhileAway.length,
      appliedByService: applied,
      stored: stored.whole.size,
      idempotencyRecords: records.records,
    });
  } finally {
    if (service && service.proc.exitCode === null) service.proc.kill("SIGKILL");
    rmSync(cwd, { recursive: true, force: true });
  }
}
