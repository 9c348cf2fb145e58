// bun run privacy:measure: how the privacy rules do on the real-text corpus (issues 13 and 36), on
// the development part (the rules are written against it) and on the held-out part (sources the
// rules were not written against; the figure to report). Per family, names replaced by the report
// scrubber and lines refused by the ingest denylist; clean strings the scrubber altered or the
// denylist refused (its structure-free layer reads texts of several words). Prints the figures,
// asserts nothing (the tests do). `--verbose` lists the development part's misses and altered clean
// strings line by line (with what the scrubber made of them); the held-out part is only ever shown
// per family, and all its batches together last. Each part's summary is printed with the report
// scrubber's structure-free fallback (src/privacy/unknown-words.ts) and without it. `--dev` measures
// the development part alone.
import {
  altered,
  cleanStrings,
  gameWords,
  measureKey,
  heldOutBatches,
  identifierFamilies,
  type NameLine,
  nameLines,
  namesLeft,
  refused,
} from "../test/privacy/corpus.ts";
import { scrubText } from "../src/privacy/scrub.ts";

const off = { unknownWords: false };

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const lpad = (s: string | number, n: number) => String(s).padStart(n);
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : "-");

type Row = { lines: number; names: number; caught: number; refused: number; coded: number; codedCaught: number };
type Clean = { family: string; text: string };

/** Words of a name line other than its names (a letter first, not hex), and those scrubbing replaced. */
function otherWords(line: NameLine, into: { words: number; replaced: number }) {
  const word = /[A-Za-z][A-Za-z0-9_]{2,15}/g;
  const plain = (t: string) => t.replace(/§./g, "");
  const kept = new Set(plain(scrubText(measureKey, line.text, { gameWords })).match(word));
  for (const w of new Set(plain(line.text).match(word))) {
    if (line.names.includes(w) || /^[0-9a-f]+$/.test(w)) continue;
    into.words++;
    if (!kept.has(w)) into.replaced++;
  }
}

function measure(part: string, lines: NameLine[], clean: Clean[], verbose: boolean, tables = true) {
  const table = tables ? console.log : () => {};
  const byFamily = new Map<string, Row>();
  const misses: string[] = [];
  const total: Row = { lines: 0, names: 0, caught: 0, refused: 0, coded: 0, codedCaught: 0 };
  let caughtOff = 0;
  let refusedOff = 0;
  const others = { words: 0, replaced: 0 };
  for (const line of lines) {
    otherWords(line, others);
    const row = byFamily.get(line.family) ?? { lines: 0, names: 0, caught: 0, refused: 0, coded: 0, codedCaught: 0 };
    byFamily.set(line.family, row);
    const left = namesLeft(line);
    const caught = line.names.length - left.length;
    caughtOff += line.names.length - namesLeft(line, off).length;
    const r = refused(line.text);
    if (refused(line.text, off)) refusedOff++;
    for (const x of [row, total]) {
      x.lines++;
      x.names += line.names.length;
      x.caught += caught;
      if (r) x.refused++;
      if (line.text.includes("§")) {
        x.coded += line.names.length;
        x.codedCaught += caught;
      }
    }
    if (!r) misses.push(`not refused [${line.family}] ${JSON.stringify(line.text)}`);
    for (const n of left) misses.push(`missed ${n} [${line.family}] ${JSON.stringify(line.text)}`);
  }
  table(`== ${part}`);
  table(
    `${pad("family (names)", 16)}${lpad("lines", 7)}${lpad("names", 7)}${lpad("replaced", 10)}${lpad("", 8)}${lpad("with codes", 12)}${lpad("refused at ingest", 19)}${lpad("", 8)}`,
  );
  const show = (family: string, r: Row) =>
    table(
      `${pad(family, 16)}${lpad(r.lines, 7)}${lpad(r.names, 7)}${lpad(r.caught, 10)}${lpad(pct(r.caught, r.names), 8)}` +
        `${lpad(`${r.codedCaught}/${r.coded}`, 12)}${lpad(`${r.refused}/${r.lines}`, 19)}${lpad(pct(r.refused, r.lines), 8)}`,
    );
  for (const [family, r] of [...byFamily].sort()) show(family, r);
  show("all", total);

  const byClean = new Map<string, { strings: number; altered: number; refused: number }>();
  const wrongs: string[] = [];
  let identifiersChanged = 0;
  let display = 0;
  let displayChanged = 0;
  let identifiersOff = 0;
  let displayOff = 0;
  for (const s of clean) {
    const row = byClean.get(s.family) ?? { strings: 0, altered: 0, refused: 0 };
    byClean.set(s.family, row);
    row.strings++;
    const a = altered(s.text);
    const r = refused(s.text);
    if (a) row.altered++;
    if (r) row.refused++;
    const id = identifierFamilies.has(s.family);
    if (!id) display++;
    if (altered(s.text, off) || refused(s.text, off)) {
      if (id) identifiersOff++;
      else displayOff++;
    }
    if (a || r) {
      if (id) identifiersChanged++;
      else displayChanged++;
      wrongs.push(
        `${a ? "altered" : ""}${a && r ? "+" : ""}${r ? "refused" : ""} [${s.family}] ${JSON.stringify(s.text)}` +
          (a ? ` -> ${JSON.stringify(scrubText(measureKey, s.text, { gameWords }))}` : ""),
      );
    }
  }
  table("");
  table(`${pad("family (clean)", 16)}${lpad("strings", 9)}${lpad("altered", 9)}${lpad("refused", 9)}`);
  for (const [family, r] of [...byClean].sort())
    table(`${pad(family, 16)}${lpad(r.strings, 9)}${lpad(r.altered, 9)}${lpad(r.refused, 9)}`);
  if (verbose) for (const l of [...misses, ...wrongs]) console.log(l);
  console.log("");
  console.log(
    `${part}: replaced ${total.caught} of ${total.names} names (${pct(total.caught, total.names)}), refused ${total.refused} of ${total.lines} lines (${pct(total.refused, total.lines)}); ` +
      `${identifiersChanged} identifiers and ${displayChanged} of ${display} clean display lines (${pct(displayChanged, display)}) altered or refused`,
  );
  console.log(
    `${part}: ${others.replaced} of ${others.words} other words of the name lines replaced (${pct(others.replaced, others.words)}; ` +
      "words of letters, each once a line, not hex: what a line about a player loses besides its names)",
  );
  console.log(
    `${part}, without the fallback: replaced ${caughtOff} of ${total.names} names (${pct(caughtOff, total.names)}), ` +
      `refused ${refusedOff} of ${total.lines} lines (${pct(refusedOff, total.lines)}); ` +
      `${identifiersOff} identifiers and ${displayOff} of ${display} clean display lines (${pct(displayOff, display)}) altered or refused`,
  );
  console.log("");
}

measure("development part", nameLines, cleanStrings, process.argv.includes("--verbose"));
if (process.argv.includes("--dev")) process.exit(0);
const [first, second, ...later] = heldOutBatches;
measure("held-out part", first!.names, first!.clean, false);
measure("held-out part, second batch (gathered after the rules)", second!.names, second!.clean, false);
for (const batch of later)
  measure(
    `held-out part, ${batch.ordinal} batch (new sources; its untuned figure is in CHANGELOG.md)`,
    batch.names,
    batch.clean,
    false,
  );
// Every held-out batch together: the figure to report (printed last, its summary only).
measure(
  `every held-out batch (1 to ${heldOutBatches.length})`,
  heldOutBatches.flatMap((b) => b.names),
  heldOutBatches.flatMap((b) => b.clean),
  false,
  false,
);
