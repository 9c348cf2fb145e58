// The report scrubber on a 32 KiB bug report (issue 13 target: under 5 ms a report). The reports: a
// crash report whose stack trace and game log carry real chat lines with names (from the privacy
// corpus, with their formatting codes), the same size of clean crash text, players' own sentences in
// several languages, the largest report the intake takes (players' words at their fields' caps and the
// crash report), and hostile inputs of test/security/scrubber.test.ts. Baseline measured in the same run: one linear pass over
// the same text (a JSON.stringify of the fields), so a noisy machine shows in both. Then each rule's
// slowest hostile input (test/security/hostile-text.ts). Asserts nothing.
//   bun bench/scrub.ts [--runs N]
import { availableParallelism, loadavg } from "node:os";
import { scrubFields } from "../src/privacy/scrub.ts";
import { ReportBody } from "../src/reports/reports.schema.ts";
import { traceCorpus } from "../test/reports/corpus.ts";
import { cleanStrings, gameWords, nameLines } from "../test/privacy/corpus.ts";
import { everyMatchOf, hostile, privacyRules, time } from "../test/security/hostile-text.ts";

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1]) || 300;
const KEY = "a-bench-key-that-is-long-enough-0123456789";
const SIZE = 32 * 1024;

const traces = traceCorpus.map((c) => c.stackTrace ?? "").filter(Boolean);
function build(withNames: boolean): Record<string, string> {
  let trace = "";
  let i = 0;
  while (trace.length < SIZE - 2048) {
    trace += traces[i % traces.length] + "\n";
    if (withNames) {
      const line = nameLines[(i * 7) % nameLines.length]!;
      trace += `[12:00:${String(i % 60).padStart(2, "0")}] [Client thread/INFO]: [CHAT] ${line.text.replaceAll("\n", " ")}\n`;
    }
    i++;
  }
  return {
    title: withNames ? "Crash after Party > [MVP+] Steve: go" : "Crash while reading dungeon chat",
    message: withNames ? "From Alex_99: again, then it crashed" : "Opened the dungeon menu, then it crashed",
    steps: "1. Join a dungeon\n2. Open the menu",
    stackTrace: trace.slice(0, SIZE - 200),
  };
}
/**
 * A report in players' own words, 32 KiB of the development part's sentences (report_prose), English
 * and other languages, names and all: every line's language is read (src/privacy/language.ts).
 */
function prose(): Record<string, string> {
  const lines = [...nameLines, ...cleanStrings].filter((l) => l.family === "report_prose").map((l) => l.text);
  let message = "";
  for (let i = 0; message.length < SIZE - 200; i++) message += `${lines[(i * 13) % lines.length]}\n`;
  return { title: "Mein Freund kann nicht joinen", message: message.slice(0, SIZE - 200) };
}
/**
 * The largest report the intake takes (src/reports/reports.schema.ts): a title, a message and steps of
 * players' own words at their caps (the development part's sentences, as above) and the crash report
 * with names at the stack trace's cap. A player's own words are at most these 8 KiB of a report; 32
 * KiB of them can come only where the stack trace goes.
 */
function largest(): Record<string, string> {
  const cap = (field: "title" | "message" | "steps" | "stackTrace") => ReportBody.properties[field].maxLength!;
  const words = prose().message!;
  const trace = build(true).stackTrace!;
  return {
    title: words.slice(0, cap("title")),
    message: words.slice(cap("title"), cap("title") + cap("message")),
    steps: words.slice(cap("title") + cap("message"), cap("title") + cap("message") + cap("steps")),
    stackTrace: (trace + trace).slice(0, cap("stackTrace")),
  };
}
const reports: [string, Record<string, string>][] = [
  ["crash report with chat and names", build(true)],
  ["clean crash report", build(false)],
  ["players' own words, several languages", prose()],
  ["largest the intake takes (8+32 KiB)", largest()],
  ["hostile: 32 KiB of newlines", { title: "x", message: "x", stackTrace: "\n".repeat(SIZE) }],
  ["hostile: 32 KiB of rank tags", { title: "x", message: "x", stackTrace: "[MVP+] ".repeat(SIZE / 7) }],
];

function stats(f: () => unknown) {
  for (let i = 0; i < 20; i++) f();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]! * 1000) / 1000;
  return { minMs: at(0), p50Ms: at(0.5), p99Ms: at(0.99) };
}

const rows = reports.map(([name, fields]) => {
  const bytes = Object.values(fields).reduce((n, v) => n + Buffer.byteLength(v), 0);
  const scrub = stats(() => scrubFields(KEY, fields, { gameWords }));
  const baseline = stats(() => JSON.stringify(fields).length);
  const names = scrubFields(KEY, fields, { gameWords }).names;
  return { report: name, bytes, names, ...scrub, baselineP50Ms: baseline.p50Ms };
});
console.log(
  `${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
console.log("report                                 bytes  names  scrub min ms  p50 ms  p99 ms  baseline p50 ms");
for (const r of rows) {
  console.log(
    `${r.report.padEnd(38)}${String(r.bytes).padStart(6)}${String(r.names).padStart(7)}${String(r.minMs).padStart(14)}` +
      `${String(r.p50Ms).padStart(8)}${String(r.p99Ms).padStart(8)}${String(r.baselineP50Ms).padStart(17)}`,
  );
}
// Each rule's slowest hostile input (best of three runs of each input, in ms).
const perRule = privacyRules().map(([rule, pattern]) => {
  const run = everyMatchOf(pattern);
  const [input, ms] = hostile
    .map(([what, text]) => [what, time(() => run(text))] as const)
    .sort((a, b) => b[1] - a[1])[0]!;
  return { rule, input, ms: Math.round(ms * 100) / 100 };
});
console.log("\nrule                 slowest hostile 32 KiB input    ms");
for (const r of perRule) console.log(`${r.rule.padEnd(21)}${r.input.padEnd(32)}${String(r.ms).padStart(6)}`);
console.log(JSON.stringify({ bench: "scrub", runs, rows, perRule }));
