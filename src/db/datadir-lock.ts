// PGlite has no lock of its own: two processes on one folder would lose writes. The first process
// takes an exclusive flock(2) on DATA_DIR/tally.lock and holds it while it runs; a second opener is
// refused. The kernel drops the lock when its holder dies however it dies (kill -9, OOM, a crashed
// container that comes back as pid 1 again), so a stale lock never blocks a restart. The pid
// written into the file is only there to name the holder in the message.
import { dlopen, FFIType } from "bun:ffi";
import { closeSync, fchmodSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;

type Flock = (fd: number, operation: number) => number;
let flockFn: Flock | undefined;

function flock(): Flock {
  if (flockFn) return flockFn;
  for (const name of ["libc.so.6", "libc.dylib", "/usr/lib/libSystem.B.dylib"]) {
    try {
      const lib = dlopen(name, { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
      flockFn = (fd, op) => lib.symbols.flock(fd, op);
      return flockFn;
    } catch {
      // try the next name
    }
  }
  throw new Error("cannot lock DATA_DIR: flock(2) is not available on this system; use DATABASE_URL");
}

/** Takes the folder's lock; returns the function that releases it. */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "tally.lock");
  const fd = openSync(path, "a+", 0o600);
  fchmodSync(fd, 0o600);
  if (flock()(fd, LOCK_EX | LOCK_NB) !== 0) {
    let holder: { pid?: number; host?: string } = {};
    try {
      holder = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      // the holder is still writing its details
    }
    closeSync(fd);
    const who = holder.pid
      ? `process ${holder.pid}${holder.host && holder.host !== hostname() ? ` on ${holder.host}` : ""}`
      : "another process";
    throw new DataDirLockedError(
      `DATA_DIR ${dir} is in use by another tally (${who}). Stop it first, or give this one its own DATA_DIR.`,
    );
  }
  ftruncateSync(fd, 0);
  writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() }), 0);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    ftruncateSync(fd, 0);
    flock()(fd, LOCK_UN);
    closeSync(fd);
  };
}
