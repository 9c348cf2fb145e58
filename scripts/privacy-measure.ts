// bun run privacy:measure: how the privacy rules do on the real-text corpus (issue 13). Per family,
// names caught by the report scrubber and lines refused by the ingest denylist; clean strings that
// the scrubber altered or the denylist refused. Prints the figures, asserts nothing (the tests do).
import { cleanStrings, nameLines, namesLeft, refused, altered } from "../test/privacy/corpus.ts";

type Row = { lines: number; names: number; caught: number; refused: number; coded: number; codedCaught: number };
const byFamily = new Map<string, Row>();
let names = 0;
let caught = 0;
const misses: string[] = [];
for (const line of nameLines) {
  const row = byFamily.get(line.family) ?? { lines: 0, names: 0, caught: 0, refused: 0, coded: 0, codedCaught: 0 };
  byFamily.set(line.family, row);
  const left = namesLeft(line);
  const coded = line.text.includes("§");
  row.lines++;
  row.names += line.names.length;
  row.caught += line.names.length - left.length;
  if (coded) {
    row.coded += line.names.length;
    row.codedCaught += line.names.length - left.length;
  }
  if (refused(line.text)) row.refused++;
  else misses.push(`not refused [${line.family}] ${JSON.stringify(line.text)}`);
  names += line.names.length;
  caught += line.names.length - left.length;
  for (const n of left) misses.push(`missed ${n} [${line.family}] ${JSON.stringify(line.text)}`);
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const lpad = (s: string | number, n: number) => String(s).padStart(n);
console.log(
  `${pad("family (names)", 16)}${lpad("lines", 7)}${lpad("names", 7)}${lpad("caught", 8)}${lpad("with codes", 12)}${lpad("refused at ingest", 19)}`,
);
for (const [family, r] of [...byFamily].sort()) {
  console.log(
    `${pad(family, 16)}${lpad(r.lines, 7)}${lpad(r.names, 7)}${lpad(r.caught, 8)}${lpad(`${r.codedCaught}/${r.coded}`, 12)}${lpad(`${r.refused}/${r.lines}`, 19)}`,
  );
}

const clean = new Map<string, { strings: number; altered: number; refused: number }>();
let changed = 0;
const wrongs: string[] = [];
for (const s of cleanStrings) {
  const row = clean.get(s.family) ?? { strings: 0, altered: 0, refused: 0 };
  clean.set(s.family, row);
  row.strings++;
  const a = altered(s.text);
  const r = refused(s.text);
  if (a) row.altered++;
  if (r) row.refused++;
  if (a || r) {
    changed++;
    wrongs.push(
      `${a ? "altered" : ""}${a && r ? "+" : ""}${r ? "refused" : ""} [${s.family}] ${JSON.stringify(s.text)}`,
    );
  }
}
console.log("");
console.log(`${pad("family (clean)", 16)}${lpad("strings", 9)}${lpad("altered", 9)}${lpad("refused", 9)}`);
for (const [family, r] of [...clean].sort())
  console.log(`${pad(family, 16)}${lpad(r.strings, 9)}${lpad(r.altered, 9)}${lpad(r.refused, 9)}`);
if (process.argv.includes("--verbose")) for (const l of [...misses, ...wrongs]) console.log(l);
console.log("");
console.log(`caught ${caught} of ${names} names, ${changed} of ${cleanStrings.length} clean strings altered`);
