// `tally reports`: the maintainer's list of problems, most reported first.
import type { Db } from "../db/database.ts";
import { problemsByCount } from "./reports.query.ts";
import { versionRange } from "./versions.ts";
import { cut } from "./chat-message.ts";

const day = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export async function problemsTable(db: Db): Promise<string> {
  const problems = await problemsByCount(db);
  if (!problems.length) return "no bug reports yet\n";
  const rows = problems.map((p) => [
    String(p.id),
    String(p.count),
    day(p.firstSeenAt),
    day(p.lastSeenAt),
    versionRange(p.minVersion, p.maxVersion),
    p.tool,
    p.chatThreadId ? "yes" : "no",
    cut(p.title.replace(/\s+/g, " "), 70),
  ]);
  const head = ["id", "count", "first seen (UTC)", "last seen (UTC)", "versions", "tool", "thread", "title"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => [...r[i]!].length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd();
  const total = problems.reduce((n, p) => n + p.count, 0);
  return [line(head), ...rows.map(line), "", `${problems.length} problem(s), ${total} report(s)`, ""].join("\n");
}
