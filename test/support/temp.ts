// Temporary folders for a test file, removed after its last test.
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Returns a maker of fresh folders named tally-<label>-*, all removed when the file's tests end. */
export function tempDirs(label: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), `tally-${label}-`));
    dirs.push(d);
    return d;
  };
}
