// docs/protocol.md is what the mod's authors code against: its table of error codes must be the
// codes the service answers (src/http/errors.ts, the one place they are defined), each with its
// status, and every warning it lists must be one the ingest answer can carry.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { errorStatus } from "../../src/http/errors.ts";

const root = join(import.meta.dir, "../..");
const doc = readFileSync(join(root, "docs/protocol.md"), "utf8");

/** The rows `| `code` | ... |` of the section whose heading starts with `heading`. */
function tableRows(heading: string): string[][] {
  const start = doc.indexOf(`\n## ${heading}`);
  expect(start).toBeGreaterThan(-1);
  const end = doc.indexOf("\n## ", start + 1);
  return doc
    .slice(start, end === -1 ? undefined : end)
    .split("\n")
    .filter((line) => /^\| `[a-z_]+` +\|/.test(line))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe("docs/protocol.md", () => {
  test("lists every error code the service defines, once, with its status", () => {
    const rows = tableRows("9. Errors");
    const listed = rows.map(([code, status]) => [code!.replaceAll("`", ""), Number(status)] as const);
    expect(listed.map(([code]) => code).sort()).toEqual(Object.keys(errorStatus).sort());
    expect(new Set(listed.map(([code]) => code)).size).toBe(listed.length);
    for (const [code, status] of listed)
      expect([code, status]).toEqual([code, errorStatus[code as keyof typeof errorStatus]]);
  });

  test("every warning and refused-row code it names is one the ingest answer carries", () => {
    const source = ["src/stats/ingest-kept.ts", "src/stats/key-cap.ts", "src/stats/ingest.schema.ts"]
      .map((file) => readFileSync(join(root, file), "utf8"))
      .join("\n");
    const rows = tableRows("7. The answer");
    expect(rows.length).toBeGreaterThanOrEqual(9);
    for (const [code] of rows) expect(source).toContain(`"${code!.replaceAll("`", "")}"`);
  });

  test("its table of contents links a heading that exists", () => {
    const headings = new Set(
      [...doc.matchAll(/^##+ (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^\w\- ]/g, "")
          .replaceAll(" ", "-"),
      ),
    );
    const links = [...doc.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) expect(headings).toContain(link);
  });
});
