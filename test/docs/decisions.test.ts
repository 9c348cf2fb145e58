// docs/decisions.md stays readable: one section per decision, each named once in the index, and no
// wide table whose cells run to thousands of characters.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const doc = readFileSync(join(import.meta.dir, "../../docs/decisions.md"), "utf8");
/** GitHub's anchor of a heading. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, "")
    .replaceAll(" ", "-");

describe("docs/decisions.md", () => {
  const sections = [...doc.matchAll(/^### (.+)$/gm)].map((m) => anchor(m[1]!));
  const index = doc.slice(doc.indexOf("## Index"), doc.indexOf("\n## ", doc.indexOf("## Index") + 1));
  const linked = [...index.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);

  test("every section is in the index once, and every index entry is a section", () => {
    expect(sections.length).toBeGreaterThan(170);
    expect(new Set(sections).size).toBe(sections.length);
    expect([...linked].sort()).toEqual([...sections].sort());
  });

  test("each section says what we do, and no line is a wall", () => {
    const bodies = doc.split(/^### .+$/m).slice(1);
    for (const body of bodies) expect(body).toContain("**What we do.**");
    const walls = doc.split("\n").filter((line) => line.length > 200 && !line.startsWith("- ["));
    expect(walls).toEqual([]);
  });
});
