// DATA_DIR holds every token hash, share key and the pseudonym key: only the service's own user may
// read it. Folders are 0700 and files 0600 whatever the umask, and whatever modes an archive (the
// seed, a backup being restored) carries; a backup is written 0600 with 0600 entries. A DATA_DIR
// that already exists is not changed, but one open to other users is reported at start-up.
import {
  chmodSync,
  closeSync,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Everything this process creates from now on is private to its user (PGlite creates its files
 * with the process umask). Called before the embedded database is opened.
 */
export function privateUmask() {
  process.umask(0o077);
}

/** Creates `dir` 0700 when it does not exist yet (an existing folder keeps its mode). */
export function makePrivateDir(dir: string) {
  let exists = true;
  try {
    statSync(dir);
  } catch {
    exists = false;
  }
  if (exists) return;
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Sets every folder under `root` (itself included) to 0700 and every file to 0600; links are left alone. */
export function makeTreePrivate(root: string) {
  const stack = [root];
  while (stack.length) {
    const path = stack.pop()!;
    const st = lstatSync(path);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) {
      if ((st.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(path, PRIVATE_DIR_MODE);
      for (const name of readdirSync(path)) stack.push(join(path, name));
    } else if ((st.mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
  }
}

/** A warning when other users may enter or read `dir`, else null. */
export function openToOthers(dir: string): string | null {
  let mode: number;
  try {
    mode = statSync(dir).mode & 0o777;
  } catch {
    return null;
  }
  if ((mode & 0o077) === 0) return null;
  return `DATA_DIR ${dir} is open to other local users (mode ${mode.toString(8).padStart(4, "0")}): run chmod 700 on it`;
}

/** Writes `bytes` to `path` as a 0600 file (an existing file is made 0600 before it is overwritten). */
export function writePrivateFile(path: string, bytes: Uint8Array) {
  const fd = openSync(path, "w", PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
    for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at, bytes.byteLength - at);
  } finally {
    closeSync(fd);
  }
}

const BLOCK = 512;

/**
 * Rewrites the mode of every entry of an uncompressed tar (ustar) in place: folders 0700, the rest
 * 0600, and each header's checksum with it. PGlite's dump writes 0666 entries.
 */
export function makeTarPrivate(tar: Uint8Array) {
  const ascii = (at: number, len: number) =>
    String.fromCharCode(...tar.subarray(at, at + len))
      .replace(/[\0 ]+$/, "")
      .trim();
  for (let at = 0; at + BLOCK <= tar.byteLength; ) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    const type = String.fromCharCode(header[156]!);
    const size = parseInt(ascii(at + 124, 12) || "0", 8);
    const isHeaderOnly = type === "x" || type === "g" || type === "L" || type === "K";
    if (!isHeaderOnly) {
      const mode = type === "5" ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
      header.set(new TextEncoder().encode(mode.toString(8).padStart(7, "0") + "\0"), 100);
      header.fill(0x20, 148, 156);
      let sum = 0;
      for (const b of header) sum += b;
      header.set(new TextEncoder().encode(sum.toString(8).padStart(6, "0") + "\0 "), 148);
    }
    at += BLOCK + Math.ceil((Number.isFinite(size) ? size : 0) / BLOCK) * BLOCK;
  }
}
