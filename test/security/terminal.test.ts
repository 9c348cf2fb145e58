// The maintainer's terminal as a boundary: `tally reports` prints text strangers sent. Finding 8 of
// issue 22: ESC and OSC sequences, C1 controls and bidi overrides in a title reached the terminal
// (set its title, clear it, spoof text). Report text is made plain at intake, and again on print.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
setDefaultTimeout(30_000);
import { testApp, type TestApp } from "../support/app.ts";
import { problemsTable, problemDetail } from "../../src/reports/problems-list.ts";
import { plainText } from "../../src/reports/plain-text.ts";
import { samplesOf } from "../../src/reports/reports.query.ts";
import { report } from "../reports/report.ts";

const HOSTILE = [
  "\u001b]0;you have been owned\u0007", // OSC: set the window title (BEL-terminated)
  "\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\", // OSC 8 hyperlink (ST-terminated)
  "\u001b[2J\u001b[H", // CSI: clear the screen, cursor home
  "\u009b31m", // 8-bit CSI (C1)
  "\u0085\u008d", // C1 controls (NEL, RI)
  "\u202Etxt.exe\u202C", // right-to-left override
  "\u2066\u2067\u2068\u2069\u200e\u200f\u061c", // isolates and marks
  "\u0007\u0008\u000b\u000c\u007f", // BEL, BS, VT, FF, DEL
];
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

describe("tally reports", () => {
  test("prints no control character or bidi control from a hostile title, message or trace", async () => {
    const title = `Crash ${HOSTILE.join(" ")} end`;
    const res = await t.postJson(
      "/v1/reports/general",
      report({
        title,
        message: HOSTILE.join("\n"),
        steps: HOSTILE.join("\r\n"),
        stackTrace: `java.lang.Error: ${HOSTILE.join("")}\n\tat dev.tally.mod.A.b(A.java:1)`,
      }),
    );
    expect(res.status).toBe(200);
    const { problemId } = (await res.json()) as { problemId: number };
    const list = await problemsTable(t.db);
    const detail = await problemDetail(t.db, problemId, t.clock.now());
    for (const out of [list, detail]) expect(CONTROL.test(out)).toBe(false);
    // The list names the exception and where it was thrown; the problem's detail has the title.
    expect(list).toContain("java.lang.Error at dev.tally.mod.A.b");
    expect(detail).toContain("Crash ");
    expect(list).not.toContain("you have been owned"); // the whole OSC sequence goes, not just its ESC
    // Nothing hostile is stored either.
    const [sample] = await samplesOf(t.db, problemId);
    expect(CONTROL.test(JSON.stringify(sample).replace(/\\[nt]/g, ""))).toBe(false);
    expect(
      CONTROL.test(sample!.title + sample!.message + sample!.steps + sample!.stackTrace!.replace(/[\n\t]/g, "")),
    ).toBe(false);
  });

  test("plainText keeps tabs and newlines and is linear on hostile input", () => {
    expect(plainText("a\tb\r\nc")).toBe("a\tb\nc");
    for (const unit of ["\u001b]", "\u001b[", "\u009b", "\u001b", "\u202e"]) {
      const input = unit.repeat(32_768 / unit.length);
      const started = performance.now();
      expect(CONTROL.test(plainText(input))).toBe(false);
      expect(performance.now() - started).toBeLessThan(200);
    }
  });
});
