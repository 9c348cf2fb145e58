// Scenarios 1 and 3: kill -9 the service while accounts upload, start it again on the same
// database, and prove every acknowledged upload is stored exactly once and none is stored in part;
// then send everything again (same batchIds) and prove the result is each upload applied once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firstDay, runLoad, signIn } from "./load.ts";
import { batchRecords } from "./records.ts";
import type { Report } from "./report.ts";
import { killService, startService, stopService } from "./service.ts";
import { resendAll, storedBatches, totalsDiffer } from "./verify.ts";

const ACCOUNTS = 8;
/** Acknowledged uploads before the kill, at the least. */
const MIN_ACKS = 50;

/** `postgresUrl` empty: the embedded database in a fresh DATA_DIR. */
export async function killScenario(
  report: Report,
  binary: string,
  scenario: number,
  postgresUrl: string,
  loadMs: number,
) {
  const label = postgresUrl ? "kill -9 on Postgres" : "kill -9 on embedded";
  const cwd = mkdtempSync(join(tmpdir(), "tally-faults-kill-"));
  const dataDir = join(cwd, "data");
  const env: Record<string, string> = postgresUrl ? { DATABASE_URL: postgresUrl } : { DATA_DIR: dataDir };
  try {
    const first = await startService(binary, cwd, env);
    const accounts = await Promise.all(Array.from({ length: ACCOUNTS }, (_, i) => signIn(first.url, scenario, i)));
    let running = true;
    let acks = 0;
    const load = runLoad({
      url: first.url,
      scenario,
      accounts,
      from: firstDay(),
      more: () => running,
      onReply: (r) => r.status === 200 && acks++,
    });
    // A sustained load first (on a busy machine, however long it takes to have MIN_ACKS answered),
    // then a moment that is not a multiple of anything: requests are mid-flight, some mid-commit.
    const t0 = performance.now();
    await Bun.sleep(loadMs);
    while (acks < MIN_ACKS && performance.now() - t0 < 30_000) await Bun.sleep(10);
    await Bun.sleep(Math.floor(Math.random() * 500));
    await killService(first);
    running = false;
    const sent = await load;
    const acked = sent.filter((s) => s.acked);
    report.check(
      `${label}: the load was acknowledged before the kill`,
      acked.length >= MIN_ACKS,
      `${acked.length} of ${sent.length}`,
    );

    const again = await startService(binary, cwd, env);
    report.check(`${label}: the service starts again on the same database`, true, `${again.msToHealthy} ms to health`);
    const stored = await storedBatches(again.url, accounts, sent);
    const lost = acked.filter((s) => !stored.whole.has(s.batch.batchId));
    report.check(
      `${label}: every acknowledged upload is stored whole`,
      lost.length === 0,
      `${lost.length} lost of ${acked.length}`,
    );
    report.check(
      `${label}: no upload is stored in part`,
      stored.partial.length === 0,
      stored.partial.slice(0, 3).join("; "),
    );
    report.check(
      `${label}: nothing is stored that was not sent`,
      stored.unexplained === 0,
      `${stored.unexplained} unexplained`,
    );
    const storedSent = sent.filter((s) => stored.whole.has(s.batch.batchId));
    const differ = await totalsDiffer(again.url, accounts, storedSent);
    report.check(
      `${label}: lifetime totals are those of the stored uploads, each once`,
      differ.length === 0,
      differ.slice(0, 3).join("; "),
    );

    const resent = await resendAll(again.url, accounts, sent, stored, report, label);
    const final = await storedBatches(again.url, accounts, sent);
    report.check(
      `${label}: after sending everything again, every upload is stored whole`,
      final.whole.size === sent.length && final.partial.length === 0 && final.unexplained === 0,
      `${final.whole.size} of ${sent.length}`,
    );
    const finalDiffer = await totalsDiffer(again.url, accounts, sent);
    report.check(
      `${label}: and the totals are those of sending each upload once`,
      finalDiffer.length === 0,
      finalDiffer.slice(0, 3).join("; "),
    );
    const code = await stopService(again);
    report.check(`${label}: the restarted service stops cleanly`, code === 0, `exit ${code}`);
    const records = await batchRecords(
      postgresUrl || dataDir,
      accounts.map((a) => a.uuid),
    );
    report.check(
      `${label}: one idempotency record per batchId, each with its answer`,
      records.records === sent.length && records.distinctBatches === sent.length && records.withoutAnswer === 0,
      JSON.stringify(records),
    );
    report.figures(label, {
      sent: sent.length,
      acknowledged: acked.length,
      storedAfterRestart: stored.whole.size,
      acknowledgedLost: lost.length,
      unacknowledgedStored: stored.whole.size - (acked.length - lost.length),
      unacknowledgedAbsent: stored.absent.size,
      partial: stored.partial.length,
      restartMs: again.msToHealthy,
      resentDuplicate: resent.duplicates,
      resentApplied: resent.applied,
      storedFinal: final.whole.size,
      idempotencyRecords: records.records,
    });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
