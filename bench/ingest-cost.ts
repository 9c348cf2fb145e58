// Where one upload's CPU goes, statement by statement: the compiled binary on a fresh Postgres
// database, one client sending the soak's uploads one after another (the mod's live upload: 600 rows
// of today's values, a session and a timeline event; `--cells`: the catch-up shape, cells of their
// own on past, closed days), beside the raw unnest upsert of the same rows through postgres.js.
// Postgres reports its own CPU per phase of each statement (log_parser_stats, log_planner_stats,
// log_executor_stats: getrusage around parse, plan and execute), set on this database only, read
// from the server's log; the service's and this process's CPU come from /proc and process.cpuUsage.
// One client, so nothing waits on anything: CPU per upload, not throughput. Local server only.
//   DATABASE_URL=postgres://... bun bench/ingest-cost.ts [dist/tally] [--uploads 60] [--rows 600] [--cells]
//     [--log /var/log/postgresql/postgresql-15-main.log] [--plans]
// `--plans`: also prints each statement's plan with its actual rows and times, as auto_explain logs
// it for the last upload (what a statement's execute time above went to).
import postgres from "postgres";
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createPostgresDatabase } from "../test/support/db.ts";
import { PROFILE, batchOf, firstDay, send, signIn } from "../test/faults/load.ts";
import { startService, stopService } from "../test/faults/service.ts";
import { cpuByThread, cpuOf } from "./process.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const binary = resolve(
  args.find((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1]!.startsWith("--"))) ?? "dist/tally",
);
const uploads = Number(flag("--uploads", "60"));
const rowCount = Number(flag("--rows", "600"));
const live = !args.includes("--cells");
const logFile = flag("--log", "/var/log/postgresql/postgresql-15-main.log");
const plans = args.includes("--plans");
const WARMUP = 10;
const url = loadConfig().databaseUrl;
if (!url) {
  console.log("bench/ingest-cost.ts: skipped, it measures Postgres; set DATABASE_URL");
  process.exit(0);
}

type Phase = "parse" | "plan" | "execute";
type Cost = Record<Phase, number> & { calls: number };

/** A line of the server's log as Debian prefixes it ('%m [%p] %q%u@%d '): pid, database, level, text. */
const LOG_LINE = /^\S+ \S+ \S+ \[(\d+)\] \S*@(\S*) (\w+):\s+(.*)$/;
/** Which phase each of Postgres's statistics reports measures. */
const PHASES: Record<string, Phase> = {
  PARSER: "parse",
  "PARSE ANALYSIS": "parse",
  REWRITER: "parse",
  PLANNER: "plan",
  EXECUTOR: "execute",
};

/** Bytes appended to the server's log since `from`. */
function logSince(from: number): string {
  const size = statSync(logFile).size;
  const buf = Buffer.alloc(size - from);
  const fd = openSync(logFile, "r");
  readSync(fd, buf, 0, buf.length, from);
  closeSync(fd);
  return buf.toString("utf8");
}

/**
 * Sums the parse, plan and execute CPU Postgres logged for `database`, by statement: each phase's
 * figures are kept per backend until the backend logs the statement's duration line (log
 * min_duration 0), which names it. Statements are named by their first words.
 */
function costsOf(log: string, database: string): Map<string, Cost> {
  const costs = new Map<string, Cost>();
  const pending = new Map<string, Record<Phase, number>>();
  let current: { pid: string; phase?: Phase } | undefined;
  const nameOf = (text: string) =>
    text
      .replace(/\s+/g, " ")
      .replace(/\$\d+/g, "$")
      .replace(/'[^']*'/g, "'…'")
      .slice(0, 72);
  for (const line of log.split("\n")) {
    const head = LOG_LINE.exec(line);
    if (head) {
      const [, pid, db, level, text] = head;
      if (db !== database) {
        current = undefined;
        continue;
      }
      const stats = /^(PARSER|PARSE ANALYSIS|REWRITER|PLANNER|EXECUTOR) STATISTICS/.exec(text!);
      if (level === "LOG" && stats) {
        current = { pid: pid!, phase: PHASES[stats[1]!] };
        continue;
      }
      const duration = /^duration: [\d.]+ ms\s+(?:(execute) [^:]*|statement): (.*)$/.exec(text!);
      if (level === "LOG" && duration) {
        const spent = pending.get(pid!) ?? { parse: 0, plan: 0, execute: 0 };
        pending.delete(pid!);
        const name = nameOf(duration[2]!);
        const c = costs.get(name) ?? { parse: 0, plan: 0, execute: 0, calls: 0 };
        c.parse += spent.parse;
        c.plan += spent.plan;
        c.execute += spent.execute;
        c.calls++;
        costs.set(name, c);
        current = undefined;
        continue;
      }
      if (level !== "DETAIL") current = undefined;
      continue;
    }
    const usage = /^!\s+([\d.]+) s user, ([\d.]+) s system/.exec(line.trim());
    if (usage && current?.phase) {
      const spent = pending.get(current.pid) ?? { parse: 0, plan: 0, execute: 0 };
      const ms = (Number(usage[1]) + Number(usage[2])) * 1000;
      // A statement with a data-modifying CTE logs its executor's figures twice, the second window
      // holding the first: the larger is the statement's.
      spent[current.phase] = current.phase === "execute" ? Math.max(spent.execute, ms) : spent[current.phase] + ms;
      pending.set(current.pid, spent);
      current.phase = undefined;
    }
  }
  return costs;
}

/** The last plan auto_explain logged for each statement of `database`, as logged. */
function lastPlans(log: string, database: string): string {
  const byQuery = new Map<string, string>();
  let plan: string[] | undefined;
  const flush = () => {
    if (!plan) return;
    const query =
      plan
        .find((l) => l.trim().startsWith("Query Text:"))
        ?.trim()
        .slice(12, 80) ?? "?";
    byQuery.set(query, plan.join("\n"));
    plan = undefined;
  };
  for (const line of log.split("\n")) {
    const head = LOG_LINE.exec(line);
    if (head) {
      flush();
      const [, , db, level, text] = head;
      if (db === database && level === "LOG" && /^duration: [\d.]+ ms\s+plan:/.test(text!)) plan = [text!];
    } else if (plan) plan.push(line);
  }
  flush();
  return [...byQuery.values()].join("\n\n");
}

const db = await createPostgresDatabase();
const database = new URL(db.url).pathname.slice(1);
const admin = postgres(url, { max: 1, onnotice: () => {} });
for (const setting of ["log_parser_stats", "log_planner_stats", "log_executor_stats"])
  await admin.unsafe(`alter database "${database}" set ${setting} = on`);
await admin.unsafe(`alter database "${database}" set log_min_duration_statement = 0`);
await admin.unsafe(`alter database "${database}" set log_parameter_max_length = 0`); // the arrays' text is not logged
if (plans) {
  await admin.unsafe(`alter database "${database}" set session_preload_libraries = 'auto_explain'`);
  await admin.unsafe(`alter database "${database}" set auto_explain.log_min_duration = 0`);
  await admin.unsafe(`alter database "${database}" set auto_explain.log_analyze = on`);
}
await admin.end();

const dir = mkdtempSync(join(tmpdir(), "tally-bench-cost-"));
const service = await startService(binary, dir, { DATABASE_URL: db.url, LOG_LEVEL: "warn", DATABASE_POOL_MAX: "3" });
try {
  const account = await signIn(service.url, 77, 0);
  const from = firstDay();
  const batches = Array.from({ length: WARMUP + uploads }, (_, i) => batchOf(77, account, i, from, rowCount, live));
  for (const b of batches.slice(0, WARMUP)) await send(service.url, b);
  const logStart = statSync(logFile).size;
  const cpu0 = cpuOf(service.proc.pid);
  const threads0 = cpuByThread(service.proc.pid);
  for (const b of batches.slice(WARMUP)) {
    const reply = await send(service.url, b);
    if (reply.status !== 200) throw new Error(`upload answered ${reply.status} ${reply.code ?? reply.error ?? ""}`);
  }
  const serviceMs = ((cpuOf(service.proc.pid) - cpu0) * 1000) / uploads;
  // The service's CPU by thread: JavaScript runs on the main thread; the garbage collector's
  // helpers, the HTTP server's and the runtime's own threads have names of their own.
  const byThread = [...cpuByThread(service.proc.pid)]
    .map(([name, s]) => [name, ((s - (threads0.get(name) ?? 0)) * 1000) / uploads] as const)
    .filter(([, ms]) => ms >= 0.01)
    .sort((a, b) => b[1] - a[1]);
  await Bun.sleep(300); // the server's last lines reach its log
  const uploadLog = logSince(logStart);

  // The raw limit's statement: the same rows into the same table, one unnest upsert per upload.
  const raw = postgres(db.url, { max: 1, onnotice: () => {} });
  const rawOne = async (uuid: string, i: number) => {
    const rows = batches[i]!.rows;
    await raw`insert into counter_days (uuid, profile_id, key, day, install_id, value, low, high, sent_at)
      select ${uuid}, ${PROFILE}, t.key, t.day::date, ${account.install}, t.value, null, null, ${Date.now()}
      from unnest(${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.day)}::text[], ${rows.map((r) => r.value)}::bigint[]) as t(key, day, value)
      on conflict (uuid, profile_id, key, day, install_id) do update set value = excluded.value, sent_at = excluded.sent_at`;
  };
  for (let i = 0; i < WARMUP; i++) await rawOne("feedfeedfeedfeedfeedfeedfeedfeed", i);
  const rawStart = statSync(logFile).size;
  const client0 = process.cpuUsage();
  for (let i = WARMUP; i < WARMUP + uploads; i++) await rawOne("feedfeedfeedfeedfeedfeedfeedfeed", i);
  const clientUse = process.cpuUsage(client0);
  const rawClientMs = (clientUse.user + clientUse.system) / 1000 / uploads;
  await raw.end();
  await Bun.sleep(300); // the server's last lines reach its log

  const costs = costsOf(uploadLog, database);
  const rawCost = [...costsOf(logSince(rawStart), database).values()].find((c) => c.calls === uploads);
  if (plans) console.log(lastPlans(uploadLog, database));
  const per = (x: number) => (x / uploads).toFixed(3).padStart(8);
  const total = { parse: 0, plan: 0, execute: 0, calls: 0 };
  console.log(
    `one client, ${uploads} ${live ? "live" : "catch-up (cells)"} uploads of ${rowCount} rows, each after the last is answered; Postgres CPU per upload (ms) by statement\n`,
  );
  console.log(
    `${"calls".padStart(6)} ${"parse".padStart(8)} ${"plan".padStart(8)} ${"execute".padStart(8)}  statement`,
  );
  for (const [name, c] of [...costs].sort((a, b) => b[1].plan + b[1].execute - (a[1].plan + a[1].execute))) {
    console.log(
      `${(c.calls / uploads).toFixed(2).padStart(6)} ${per(c.parse)} ${per(c.plan)} ${per(c.execute)}  ${name}`,
    );
    for (const k of ["parse", "plan", "execute", "calls"] as const) total[k] += c[k];
  }
  const pgMs = (total.parse + total.plan + total.execute) / uploads;
  console.log(
    `${(total.calls / uploads).toFixed(2).padStart(6)} ${per(total.parse)} ${per(total.plan)} ${per(total.execute)}  all of the upload's statements`,
  );
  const rawPgMs = rawCost ? (rawCost.parse + rawCost.plan + rawCost.execute) / uploads : NaN;
  console.log(
    `${"1.00".padStart(6)} ${per(rawCost?.parse ?? NaN)} ${per(rawCost?.plan ?? NaN)} ${per(rawCost?.execute ?? NaN)}  the raw unnest upsert of the same rows\n`,
  );
  console.log(
    "(The raw statement is prepared by postgres.js, and after five runs Postgres keeps its generic plan; the service's statements are planned for each upload's arrays: plan_cache_mode, src/db/connect.ts.)" +
      (plans ? " With --plans, auto_explain's timing adds to each execute." : "") +
      "\n",
  );
  const result = {
    bench: "ingest-cost",
    live,
    rowCount,
    uploads,
    serviceCpuMs: Math.round(serviceMs * 100) / 100,
    postgresCpuMs: Math.round(pgMs * 100) / 100,
    rawPostgresCpuMs: Math.round(rawPgMs * 100) / 100,
    rawClientCpuMs: Math.round(rawClientMs * 100) / 100,
  };
  console.log(
    `per upload: service ${result.serviceCpuMs} ms + Postgres ${result.postgresCpuMs} ms = ${(serviceMs + pgMs).toFixed(2)} ms; ` +
      `raw: postgres.js ${result.rawClientCpuMs} ms + Postgres ${result.rawPostgresCpuMs} ms = ${(rawClientMs + rawPgMs).toFixed(2)} ms; ` +
      `ratio ${((serviceMs + pgMs) / (rawClientMs + rawPgMs)).toFixed(2)} (${((serviceMs + pgMs) / rawPgMs).toFixed(2)} against Postgres's part alone)`,
  );
  console.log(
    `service CPU per upload by thread (ms): ${byThread.map(([n, ms]) => `${n} ${ms.toFixed(2)}`).join(", ")}`,
  );
  console.log("\n" + JSON.stringify(result));
} finally {
  await stopService(service);
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
}
