// SQL of the maintainers' list of problems: open regressions first, then by recent reports, count
// and last seen; narrowed by state, tool, a mod version seen and a text search; and the filters'
// choices (every version and tool with a report).
import { and, asc, desc, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { reportDays, reportProblems, reportVersions } from "./reports.table.ts";
import type { Problem, ProblemState } from "./reports.query.ts";
import { compareVersions } from "./versions.ts";

/** Every problem, regressions first, then most reported lately (the maintainer's list). */
export function problemsByCount(db: Db, recentFrom = "9999-12-31"): Promise<ListedProblem[]> {
  return problemsWhere(db, { recentFrom });
}

export type ProblemFilter = {
  state?: ProblemState | "regressed";
  tool?: string;
  version?: string;
  /** Words the title, the exception or the grouping signature contains (case-insensitive). */
  text?: string;
  /** Reports from this UTC day on are "recent" (the order after regressions). */
  recentFrom?: string;
  limit?: number;
};

export type ListedProblem = Problem & { recent: number };

/** `%`, `_` and `\` of a search taken literally by ILIKE. */
const likeLiteral = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The list: open regressions first, then by reports since `recentFrom`, then by count and last
 * seen; narrowed by state, tool, a mod version seen, and a text search.
 */
export function problemsWhere(db: Db, f: ProblemFilter): Promise<ListedProblem[]> {
  const seen = f.version
    ? sql`exists (select 1 from ${reportVersions} where ${reportVersions.problemId} = ${reportProblems.id} and ${reportVersions.version} = ${f.version})`
    : undefined;
  const words = (f.text ?? "").trim().split(/\s+/).filter(Boolean).slice(0, 8);
  const text = words.map((w) => {
    const like = likeLiteral(w);
    return sql`(${reportProblems.title} ilike ${like} or ${reportProblems.exceptionType} ilike ${like} or ${reportProblems.signature} ilike ${like})`;
  });
  const state =
    f.state === "regressed"
      ? and(eq(reportProblems.state, "open"), sql`${reportProblems.regressedIn} is not null`)
      : f.state
        ? eq(reportProblems.state, f.state)
        : undefined;
  const recent = sql<number>`coalesce((select sum(${reportDays.count}) from ${reportDays} where ${reportDays.problemId} = ${reportProblems.id} and ${reportDays.day} >= ${f.recentFrom ?? "9999-12-31"}), 0)::int`;
  const regressed = sql`(${reportProblems.state} = 'open' and ${reportProblems.regressedIn} is not null)`;
  return db
    .select({ ...getTableColumns(reportProblems), recent })
    .from(reportProblems)
    .where(and(state, f.tool ? eq(reportProblems.tool, f.tool) : undefined, seen, ...text))
    .orderBy(
      desc(regressed),
      desc(recent),
      desc(reportProblems.count),
      desc(reportProblems.lastSeenAt),
      asc(reportProblems.number),
    )
    .limit(f.limit ?? 1000);
}

/** Every mod version and tool with a report (the page's filters). */
export async function filterChoices(db: Db): Promise<{ versions: string[]; tools: string[] }> {
  const versions = await db.selectDistinct({ v: reportVersions.version }).from(reportVersions).limit(500);
  const tools = await db.selectDistinct({ t: reportProblems.tool }).from(reportProblems).limit(100);
  return {
    versions: versions
      .map((r) => r.v)
      .sort(compareVersions)
      .reverse(),
    tools: tools.map((r) => r.t).sort(),
  };
}
