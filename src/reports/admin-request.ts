// What the maintainers' routes (admin.routes.tsx) read from a request and how they answer: the
// admin cookie, the list's filter from the query, a problem's number, the same-site check of a form
// post, one problem's detail, and the problem as the JSON routes answer it.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import { ApiError } from "../http/errors.ts";
import { addDays, utcDay } from "../wire/day.ts";
import { dailyCounts, eventsOf, problemByNumber, samplesOf, versionsOf, type Problem } from "./reports.query.ts";
import type { ProblemFilter } from "./problems-list.query.ts";
import { stateText } from "./problems-list.ts";

export const ADMIN_COOKIE = "tally_admin";
export const DAYS_SHOWN = 30;
/** The list orders by reports of the last this many days (after open regressions). */
export const RECENT_DAYS = 7;
const ID = /^[1-9]\d{0,9}$/;
export const ACTIONS = { resolve: "resolved", reopen: "reopened", mute: "muted" } as const;

export function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** The problem as the JSON routes answer it. */
export function problemJson(p: Problem) {
  return {
    id: p.number,
    title: p.title,
    tool: p.tool,
    state: p.state,
    stateText: stateText(p),
    resolvedIn: p.resolvedIn,
    regressedIn: p.regressedIn,
    count: p.count,
    firstSeenAt: p.firstSeenAt,
    lastSeenAt: p.lastSeenAt,
    minVersion: p.minVersion,
    maxVersion: p.maxVersion,
    lastMinecraft: p.lastMinecraft,
    thread: p.chatThreadId !== null,
  };
}

export function filterOf(url: URL, today: string): ProblemFilter {
  const state = url.searchParams.get("state") ?? "";
  const tool = url.searchParams.get("tool") ?? "";
  const version = url.searchParams.get("version") ?? "";
  const text = (url.searchParams.get("q") ?? "").trim();
  if (state && !["open", "regressed", "resolved", "muted"].includes(state))
    throw new ApiError("invalid_query", "state is open, regressed, resolved or muted", "/state");
  if (tool.length > 32 || version.length > 64 || text.length > 100)
    throw new ApiError("invalid_query", "tool is at most 32, version 64 and q 100 characters");
  return {
    ...(state ? { state: state as ProblemFilter["state"] } : {}),
    ...(tool ? { tool } : {}),
    ...(version ? { version } : {}),
    ...(text ? { text } : {}),
    recentFrom: addDays(today, -(RECENT_DAYS - 1)),
    limit: 500,
  };
}

export const idOf = (text: string) => {
  if (!ID.test(text)) throw new ApiError("not_found", `no problem ${JSON.stringify(text.slice(0, 20))}`);
  return Number(text);
};

/** Each day of the last 30 with its count (a day without a report is 0). */
export function fullDays(rows: { day: string; count: number }[], from: string): { day: string; value: number }[] {
  const by = new Map(rows.map((r) => [r.day, r.count]));
  return Array.from({ length: DAYS_SHOWN }, (_, i) => addDays(from, i)).map((day) => ({
    day,
    value: by.get(day) ?? 0,
  }));
}

/** One problem with what its page shows: versions, the last 30 days' counts, state changes, samples. */
export async function problemDetail(deps: { db: Db; clock: Clock }, id: number) {
  const problem = await problemByNumber(deps.db, id);
  if (!problem) throw new ApiError("not_found", `no problem #${id}`);
  const to = utcDay(deps.clock.now());
  const from = addDays(to, -(DAYS_SHOWN - 1));
  const [versions, days, events, samples] = await Promise.all([
    versionsOf(deps.db, problem.id),
    dailyCounts(deps.db, [problem.id], from),
    eventsOf(deps.db, problem.id),
    samplesOf(deps.db, problem.id),
  ]);
  return { problem, versions, days, events, samples, from, to };
}
