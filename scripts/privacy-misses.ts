// bun run privacy:misses: marks the development part's known misses (issue 36). Every line of
// test/privacy/corpus/names.jsonl whose names the rules leave gets `"miss": [...]` (those names),
// every other line loses it; the lines are otherwise kept byte for byte. Run it after a rule change,
// read the diff (a name that left the list is caught now; one that joined it is a regression to
// explain), and commit it with the change. The held-out part is never marked.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { namesLeft } from "../test/privacy/corpus.ts";

const path = join(import.meta.dir, "../test/privacy/corpus/names.jsonl");
let marked = 0;
const lines = readFileSync(path, "utf8")
  .split("\n")
  .map((raw) => {
    if (!raw.trim()) return raw;
    const bare = raw.replace(/, "miss": \[[^\]]*\]\}$/, "}");
    const left = namesLeft(JSON.parse(bare));
    if (left.length === 0) return bare;
    marked++;
    return `${bare.replace(/\}\s*$/, "")}, "miss": ${JSON.stringify(left)}}`;
  });
writeFileSync(path, lines.join("\n"));
console.log(`${marked} lines of the development part marked with their known misses`);
