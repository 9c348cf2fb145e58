// The processes a benchmark starts or measures: waiting for a started service to answer health, and
// CPU time read from /proc (Linux), which the benchmarks compare because on a shared machine CPU per
// operation says more than wall time.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** CPU seconds (user + system) of a process, from /proc; 0 when it has ended. */
export function cpuOf(pid: number | string): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0; // it ended meanwhile
  }
}

/** CPU seconds (user + system) of each of a process's threads, summed by thread name (/proc/<pid>/task). */
export function cpuByThread(pid: number | string): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/[0-9]+$/, "#");
      const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/** CPU seconds of the Postgres backends serving one database (local server only; 0 elsewhere). */
export function postgresCpu(database: string): number {
  let sum = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmdline.startsWith("postgres: ") && cmdline.includes(` ${database} `)) sum += cpuOf(pid);
    } catch {
      // gone
    }
  }
  return sum;
}

/** Resolves once the service at `base` answers GET /v1/health with 2xx (asked every `pauseMs`). */
export async function untilHealthy(base: string, pauseMs = 20): Promise<void> {
  while (
    !(await fetch(`${base}/v1/health`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await Bun.sleep(pauseMs);
}

/**
 * Starts a compiled binary in a new temporary folder (its embedded database there, unless `env`
 * says otherwise) on a random port, and resolves once it answers health. `stop` ends it with
 * SIGTERM and removes the folder; `restart` ends it and starts it again on the same folder and port
 * (its `pid` is then the new process's).
 */
export async function startBinary(binary: string, env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "tally-bench-"));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const url = `http://127.0.0.1:${port}`;
  const spawn = () =>
    Bun.spawn([binary], {
      cwd: dir,
      env: { PATH: "/usr/bin:/bin", PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "error", ...env },
      stdout: "ignore",
      stderr: "inherit",
    });
  let proc = spawn();
  const stop = async () => {
    proc.kill("SIGTERM");
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await untilHealthy(url);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url,
    get pid() {
      return proc.pid;
    },
    stop,
    async restart() {
      proc.kill("SIGTERM");
      await proc.exited;
      proc = spawn();
      await untilHealthy(url);
    },
  };
}
