// A private Postgres cluster for the restart scenario: its own data folder, port and socket folder,
// so stopping it never touches the machine's shared Postgres. Run as root, it runs as the postgres
// user (Postgres refuses root). Always `destroy()` it, even after a failure.
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { freePort } from "./service.ts";

export type Cluster = {
  url: string;
  /** Starts the server and resolves once it accepts a connection; answers that moment (performance.now()). */
  start(): Promise<number>;
  stop(mode: "fast" | "immediate"): void;
  /** SIGSTOP (freeze) or SIGCONT (thaw) the server and every process it started: it stops answering, closes nothing. */
  signal(sig: "SIGSTOP" | "SIGCONT"): number[];
  destroy(): void;
};

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))) : [];
  if (versions.length === 0) throw new Error(`no Postgres server binaries under ${root} (initdb, pg_ctl)`);
  return join(root, versions.sort((a, b) => Number(b) - Number(a))[0]!, "bin");
}

/**
 * `under`: the folder to make the cluster's own folder in (a small filesystem, for the disk-full
 * scenario). `walApart`: keep the write-ahead log in a folder of its own on the ordinary disk, so a
 * full `under` fails only the data files' growth (ERROR disk_full, which a running server survives)
 * and never a WAL segment (PANIC: the server restarts itself, and when its crash recovery finds the
 * disk still full it stays down, which is the restart scenario's case, not this one's).
 */
export function privateCluster(under = tmpdir(), walApart = false): Cluster {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim() : "";
  const as = (cmd: string[]) => (asRoot ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd);
  const dir = mkdtempSync(join(under, "tally-faults-pg-"));
  if (asRoot) chownSync(dir, Number(owner), Number(owner));
  const data = join(dir, "data");
  const walDir = walApart ? mkdtempSync(join(tmpdir(), "tally-faults-wal-")) : null;
  if (walDir && asRoot) chownSync(walDir, Number(owner), Number(owner));
  const port = freePort();
  const run = (cmd: string[]) => {
    const p = Bun.spawnSync(as(cmd), { stdout: "pipe", stderr: "pipe" });
    if (p.exitCode !== 0)
      throw new Error(`${cmd.join(" ")} failed (${p.exitCode}): ${p.stderr.toString()}${p.stdout.toString()}`);
  };
  const waldir = walDir ? ["--waldir", join(walDir, "pg_wal")] : [];
  run([join(bin, "initdb"), "-D", data, ...waldir, "--auth=trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let running = false;

  async function accepting(): Promise<boolean> {
    const sql = postgres(url, { max: 1, connect_timeout: 1, onnotice: () => {} });
    try {
      await sql`select 1`;
      return true;
    } catch {
      return false;
    } finally {
      await sql.end({ timeout: 1 }).catch(() => {});
    }
  }

  return {
    url,
    async start() {
      run([
        join(bin, "pg_ctl"),
        "-D",
        data,
        "-l",
        join(dir, "server.log"),
        "-W",
        "-o",
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
        "start",
      ]);
      running = true;
      const t0 = performance.now();
      for (;;) {
        if (await accepting()) return performance.now();
        if (performance.now() - t0 > 30_000)
          throw new Error(`the private Postgres did not accept connections within 30 s`);
        await Bun.sleep(10);
      }
    },
    stop(mode) {
      run([join(bin, "pg_ctl"), "-D", data, "-m", mode, "-w", "stop"]);
      running = false;
    },
    signal(sig) {
      const postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
      const children = readdirSync("/proc")
        .filter((d) => /^\d+$/.test(d))
        .filter((d) => {
          try {
            return Number(readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]!.split(" ")[1]) === postmaster;
          } catch {
            return false;
          }
        })
        .map(Number);
      const pids = [postmaster, ...children];
      for (const pid of pids) process.kill(pid, sig);
      return pids;
    },
    destroy() {
      try {
        if (existsSync(join(data, "postmaster.pid"))) this.signal("SIGCONT");
      } catch {}
      try {
        if (running || existsSync(join(data, "postmaster.pid")))
          Bun.spawnSync(as([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]));
      } finally {
        rmSync(dir, { recursive: true, force: true });
        if (walDir) rmSync(walDir, { recursive: true, force: true });
      }
    },
  };
}
