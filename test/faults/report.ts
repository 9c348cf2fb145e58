// What the fault script prints: one line per check, and per scenario a table line and a JSON line.

export type Figures = Record<string, number | string | boolean>;

export class Report {
  failures: string[] = [];
  checks = 0;

  check(name: string, ok: boolean, detail = "") {
    this.checks++;
    if (!ok) this.failures.push(`${name}${detail ? ` (${detail})` : ""}`);
    console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? `  (${detail})` : ""}`);
  }

  /** The scenario's figures as one aligned table line and one JSON line. */
  figures(scenario: string, f: Figures) {
    const cells = Object.entries(f).map(([k, v]) => `${k}=${v}`);
    console.log(`\n| ${scenario.padEnd(26)} | ${cells.join(" | ")} |`);
    console.log(JSON.stringify({ faults: scenario, ...f }) + "\n");
  }
}
