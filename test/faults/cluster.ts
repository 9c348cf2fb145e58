// A private Postgres cluster for the restart scenario: its own data folder, port and socket folder,
// so stopping it never touches the machine's shared Postgres. Run as root, it runs as the postgres
// user (Postgres refuses root). Always `destroy()` it, even after a failure.
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { freePort } from "./service.ts";

export type Cluster = {
  url: string;
  /** Starts the server and resolves once it accepts a connection; answers that moment (performance.now()). */
  start(): Promise<number>;
  stop(mode: "fast" | "immediate"): void;
  destroy(): void;
};

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))) : [];
  if (versions.length === 0) throw new Error(`no Postgres server binaries under ${root} (initdb, pg_ctl)`);
  return join(root, versions.sort((a, b) => Number(b) - Number(a))[0]!, "bin");
}

export function privateCluster(): Cluster {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? Bun.spawnSync(["id", "-u", "postgres"]).stdout.toString().trim() : "";
  const as = (cmd: string[]) => (asRoot ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd);
  const dir = mkdtempSync(join(tmpdir(), "tally-faults-pg-"));
  if (asRoot) chownSync(dir, Number(owner), Number(owner));
  const data = join(dir, "data");
  const port = freePort();
  const run = (cmd: string[]) => {
    const p = Bun.spawnSync(as(cmd), { stdout: "pipe", stderr: "pipe" });
    if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (${p.exitCode}): ${p.stderr.toString()}${p.stdout.toString()}`);
  };
  run([join(bin, "initdb"), "-D", data, "--auth=trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
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
      run([join(bin, "pg_ctl"), "-D", data, "-l", join(dir, "server.log"), "-W", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, "start"]);
      running = true;
      const t0 = performance.now();
      for (;;) {
        if (await accepting()) return performance.now();
        if (performance.now() - t0 > 30_000) throw new Error(`the private Postgres did not accept connections within 30 s`);
        await Bun.sleep(10);
      }
    },
    stop(mode) {
      run([join(bin, "pg_ctl"), "-D", data, "-m", mode, "-w", "stop"]);
      running = false;
    },
    destroy() {
      try {
        if (running || existsSync(join(data, "postmaster.pid"))) Bun.spawnSync(as([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
