// The compiled binary as the fault tests drive it: started from an empty folder with only the
// settings named here, waited for until /v1/health answers, stopped by SIGTERM or killed by SIGKILL.
import { readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";

export type Service = {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  url: string;
  /** Milliseconds from spawn to the first 200 from /v1/health. */
  msToHealthy: number;
  output: () => string;
};

/** A port nothing listens on right now (asked of the kernel). */
export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** Settings every fault run uses: dev sign-in for tokens, no sign-in limit, quiet logs, /metrics. */
const baseEnv = { DEV_SIGNIN: "true", AUTH_RATE_LIMIT_PER_MINUTE: "0", LOG_LEVEL: "warn", METRICS_ENABLED: "true" };

export async function startService(
  binary: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<Service> {
  const port = freePort();
  const t0 = performance.now();
  const proc = Bun.spawn([binary], {
    cwd,
    env: { PATH: "/usr/bin:/bin", HOME: tmpdir(), HOST: "127.0.0.1", PORT: String(port), ...baseEnv, ...env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  let out = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) out += decoder.decode(r.value);
  };
  void drain(proc.stdout);
  void drain(proc.stderr);
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (proc.exitCode !== null)
      throw new Error(`the service exited ${proc.exitCode} before answering: ${out.slice(-2000)}`);
    if (
      await fetch(`${url}/v1/health`).then(
        (r) => r.status === 200,
        () => false,
      )
    )
      break;
    if (performance.now() - t0 > timeoutMs) {
      proc.kill("SIGKILL");
      throw new Error(`the service did not answer /v1/health within ${timeoutMs} ms: ${out.slice(-2000)}`);
    }
    await Bun.sleep(10);
  }
  return { proc, url, msToHealthy: Math.round(performance.now() - t0), output: () => out };
}

/** SIGTERM and the exit code. */
export async function stopService(s: Service): Promise<number> {
  if (s.proc.exitCode !== null) return s.proc.exitCode;
  s.proc.kill("SIGTERM");
  return s.proc.exited;
}

/** kill -9: no chance to finish a request, flush, or release anything itself. */
export async function killService(s: Service): Promise<void> {
  s.proc.kill("SIGKILL");
  await s.proc.exited;
}

/** Resident memory of the service now, in MB (VmRSS of /proc/<pid>/status). */
export function rssMb(s: Service): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${s.proc.pid}/status`, "utf8"))?.[1];
  return Math.round(Number(kb) / 102.4) / 10;
}

/** Open file descriptors of the service now (/proc/<pid>/fd), sockets included. */
export function openFds(s: Service): number {
  return readdirSync(`/proc/${s.proc.pid}/fd`).length;
}

/** Samples the service's resident memory every `everyMs` until stopped; answers the peak and the last. */
export function sampleRss(s: Service, everyMs = 200) {
  let peak = rssMb(s);
  let last = peak;
  const timer = setInterval(() => {
    if (s.proc.exitCode !== null) return;
    last = rssMb(s);
    peak = Math.max(peak, last);
  }, everyMs);
  return { stop: () => (clearInterval(timer), { peak, last }) };
}
