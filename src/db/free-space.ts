// The embedded database's floor of free disk space. PGlite does not survive Postgres running out of
// space while it creates a WAL segment: the statement fails with 53100 ("could not write to file
// pg_wal/xlogtemp...: No space left on device"), and the next statement spins in the wasm forever,
// blocking the event loop, so the whole service stops answering and freeing space does not help
// (reproduced: test/faults/disk-full.ts with 8 MB left; a real disk that fills slowly reaches that
// state first, since a segment is 16 MB and a table grows by 8 kB). So the service never lets it
// get there: while the disk holding the database has less than EMBEDDED_MIN_FREE_MB free, every
// statement is refused before PGlite sees it (StorageLow, answered 503 storage_full), and accepted
// again as soon as there is room. Checked before each statement: a statfs costs under a microsecond.
import { statfsSync } from "node:fs";

/** Bytes free to this process on the filesystem holding `dir`. */
export function freeBytesOf(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

export class StorageLow extends Error {
  override name = "StorageLow";
  /** Classified with the database's own disk-full errors (isStorageFull: 503 storage_full). */
  readonly code = "ENOSPC";
  constructor(
    readonly freeBytes: number,
    readonly minFreeBytes: number,
    dir: string,
  ) {
    super(
      `${(freeBytes / 2 ** 20).toFixed(1)} MiB free on the disk holding ${dir}, under EMBEDDED_MIN_FREE_MB ` +
        `(${Math.round(minFreeBytes / 2 ** 20)} MiB): the embedded database takes no statement until there is more`,
    );
  }
}

export type FreeSpace = {
  /** Refuse statements while fewer bytes than this are free (0: never). */
  minFreeBytes: number;
  /** How many bytes are free on the disk holding a folder (tests inject their own). */
  freeBytes?: (dir: string) => number;
};

/** A check to run before each statement: throws StorageLow while `dir`'s disk is under the floor. */
export function freeSpaceCheck(dir: string, { minFreeBytes, freeBytes = freeBytesOf }: FreeSpace): () => void {
  if (minFreeBytes <= 0) return () => {};
  return () => {
    const free = freeBytes(dir);
    if (free < minFreeBytes) throw new StorageLow(free, minFreeBytes, dir);
  };
}

/** The refusal `check` throws now, if any (any other error is thrown). */
export function storageLow(check: () => void): StorageLow | undefined {
  try {
    check();
    return undefined;
  } catch (e) {
    if (e instanceof StorageLow) return e;
    throw e;
  }
}
