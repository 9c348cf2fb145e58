// `tally reports`: the maintainer's list of problems, most reported first, one problem in detail
// (`show`), and the state actions. Every piece of report text is printed as plain text: a title's
// control sequences or bidi overrides never reach the terminal.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../http/errors.ts";
import {
  dailyCounts,
  eventsOf,
  problemByNumber,
  samplesOf,
  versionsOf,
  type Problem,
  type Sample,
} from "./reports.query.ts";
import { problemsByCount } from "./problems-list.query.ts";
import { chatStatuses, pendingOutbox } from "./chat.query.ts";
import { compareVersions, versionRange } from "./versions.ts";
import { cut } from "./chat-message.ts";
import { plainLine, plainText, table } from "./plain-text.ts";
import { applyAction } from "./states.ts";
import { webhookKey } from "./chat-outbox.ts";
import { versionsTable } from "./release-health-text.ts";

const minute = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

/** The state as one word or phrase: open, open (regressed in 1.4.1), resolved in 1.4.0, muted. */
export function stateText(p: Pick<Problem, "state" | "resolvedIn" | "regressedIn">): string {
  if (p.state === "resolved") return `resolved in ${p.resolvedIn}`;
  if (p.state === "muted") return "muted";
  return p.regressedIn ? `regressed in ${p.regressedIn}` : "open";
}

/** The top frame of the mod's own code a problem was grouped by (undefined: grouped by message). */
export function topFrame(p: Pick<Problem, "kind" | "signature">): string | undefined {
  if (p.kind !== "frames") return undefined;
  const line = p.signature.split("\n", 2)[1];
  return line?.trim().replace(/^at /, "") || undefined;
}

/** Identical scrubbed samples once each, newest first, with how many there were. */
export function distinctSamples(samples: Sample[]): { sample: Sample; count: number }[] {
  const by = new Map<string, { sample: Sample; count: number }>();
  for (const s of samples) {
    const key = JSON.stringify([s.modVersion, s.minecraft, s.loader, s.title, s.message, s.steps, s.stackTrace]);
    const seen = by.get(key);
    if (seen) seen.count++;
    else by.set(key, { sample: s, count: 1 });
  }
  return [...by.values()];
}

/** What the chat said about the configured webhook (deleted, tags required), if anything. */
async function chatNotes(db: Db, webhookUrl: string): Promise<string[]> {
  if (!webhookUrl) return [];
  const key = webhookKey(webhookUrl);
  const status = (await chatStatuses(db)).find((s) => s.webhookKey === key);
  if (!status) return [];
  const pending = (await pendingOutbox(db)).length;
  const what =
    status.status === "webhook_gone"
      ? `the chat webhook was deleted (${status.detail}) at ${minute(status.since)} UTC: nothing is posted; ${pending} problem(s) wait in the outbox. Set a new CHAT_WEBHOOK_URL.`
      : `the chat refuses new threads since ${minute(status.since)} UTC: ${status.detail}; ${pending} problem(s) wait in the outbox.`;
  return ["", `chat: ${what}`];
}

export async function problemsTable(db: Db, webhookUrl = "", now?: number): Promise<string> {
  const problems = await problemsByCount(
    db,
    now === undefined ? undefined : new Date(now - 6 * 86_400_000).toISOString().slice(0, 10),
  );
  const notes = await chatNotes(db, webhookUrl);
  if (!problems.length) return ["no bug reports yet", ...notes.slice(1), ""].join("\n");
  const rows = problems.map((p) => [
    String(p.number),
    String(p.count),
    String(p.recent),
    minute(p.firstSeenAt),
    minute(p.lastSeenAt),
    plainLine(versionRange(p.minVersion, p.maxVersion)),
    p.tool,
    plainLine(stateText(p)),
    p.chatThreadId ? "yes" : p.chatUncertainAt !== null ? "unknown" : "no",
    cut(plainLine([p.exceptionType, topFrame(p) && `at ${topFrame(p)}`].filter(Boolean).join(" ") || p.title), 90),
  ]);
  const head = [
    "#",
    "count",
    "7 days",
    "first seen (UTC)",
    "last seen (UTC)",
    "versions",
    "tool",
    "state",
    "thread",
    "problem",
  ];
  const total = problems.reduce((n, p) => n + p.count, 0);
  return [...table(head, rows), "", `${problems.length} problem(s), ${total} report(s)`, ...notes, ""].join("\n");
}

/** `tally reports show <id>`: the problem, its versions seen, daily counts, audit list and samples. */
export async function problemDetail(db: Db, id: number, today: number): Promise<string> {
  const p = await problemByNumber(db, id);
  if (!p) throw new ApiError("not_found", `no problem #${id}`);
  const from = new Date(today - 29 * 86_400_000).toISOString().slice(0, 10);
  const [versions, days, events, samples] = await Promise.all([
    versionsOf(db, p.id),
    dailyCounts(db, [p.id], from),
    eventsOf(db, p.id),
    samplesOf(db, p.id),
  ]);
  const out = [
    `problem #${p.number}: ${plainLine(p.title)}`,
    `state      ${plainLine(stateText(p))}`,
    `tool       ${p.tool}`,
    `count      ${p.count} (first ${minute(p.firstSeenAt)} UTC, last ${minute(p.lastSeenAt)} UTC)`,
    `versions   ${plainLine(versionRange(p.minVersion, p.maxVersion))}; Minecraft ${plainLine(p.lastMinecraft)}`,
    `grouped by ${p.kind === "frames" ? "stack frames" : "message"}: ${plainLine(p.exceptionType ?? p.signature)}`,
    `thread     ${p.chatThreadId ? "yes" : "no"}${
      p.chatUncertainAt !== null
        ? `; the chat never answered a post of ${minute(p.chatUncertainAt)} UTC (it may be there): posted once more after CHAT_UNCERTAIN_PAUSE_MS`
        : ""
    }`,
    "",
    "versions seen:",
    ...(versions.length
      ? table(
          ["version", "reports", "last seen (UTC)"],
          versions
            .sort((a, b) => compareVersions(a.version, b.version))
            .map((v) => [plainLine(v.version), String(v.count), minute(v.lastSeenAt)]),
        ).map((l) => `  ${l}`)
      : ["  (none recorded)"]),
    "",
    "daily counts (UTC, last 30 days):",
    ...(days.length ? days.map((d) => `  ${d.day}  ${d.count}`) : ["  (none)"]),
    "",
    "state changes:",
    ...(events.length
      ? events.map(
          (e) => `  ${minute(e.at)} UTC  ${e.action}${e.version ? ` ${plainLine(e.version)}` : ""}  by ${e.actor}`,
        )
      : ["  (none)"]),
    "",
    `samples (newest first, ${samples.length}):`,
  ];
  for (const s of samples) {
    out.push(
      `--- ${minute(s.receivedAt)} UTC · mod ${plainLine(s.modVersion)} · Minecraft ${plainLine(s.minecraft)}${s.loader ? ` · ${plainLine(s.loader)}` : ""}`,
    );
    out.push(`title: ${plainLine(s.title)}`);
    if (s.message) out.push(`what happened:\n${plainText(s.message)}`);
    if (s.steps) out.push(`steps:\n${plainText(s.steps)}`);
    if (s.stackTrace) out.push(`stack trace:\n${plainText(s.stackTrace)}`);
  }
  return out.join("\n") + "\n";
}

export type ReportsCommand =
  | { kind: "list" }
  | { kind: "versions" }
  | { kind: "show"; id: number }
  | { kind: "resolve"; id: number; version: string }
  | { kind: "reopen"; id: number }
  | { kind: "mute"; id: number };

const REPORTS_USAGE =
  "tally reports [versions | show <number> | resolve <number> --in <version> | reopen <number> | mute <number>]";

/** Reads `tally reports ...`'s arguments; answers the command or an error line. */
export function parseReportsArgs(args: string[]): ReportsCommand | { error: string } {
  if (!args.length) return { kind: "list" };
  if (args[0] === "versions")
    return args.length === 1 ? { kind: "versions" } : { error: `versions takes nothing more: ${REPORTS_USAGE}` };
  const [verb, idText, ...rest] = args;
  const id = Number(idText);
  if (!idText || !/^\d{1,10}$/.test(idText)) return { error: `${verb ?? ""} needs a problem id: ${REPORTS_USAGE}` };
  if (verb === "resolve") {
    const at = rest.indexOf("--in");
    const version = at >= 0 ? rest[at + 1] : undefined;
    if (!version || rest.length !== 2)
      return { error: `resolve needs the fixing version: tally reports resolve ${idText} --in <version>` };
    return { kind: "resolve", id, version };
  }
  if (rest.length) return { error: `unexpected ${JSON.stringify(rest.join(" "))}: ${REPORTS_USAGE}` };
  if (verb === "show" || verb === "reopen" || verb === "mute") return { kind: verb, id };
  return { error: `unknown reports command ${JSON.stringify(verb)}: ${REPORTS_USAGE}` };
}

/** Runs one parsed command against the database; answers what to print. */
export async function runReportsCommand(
  deps: { db: Db; clock: Clock; config: Pick<Config, "chatWebhookUrl" | "releaseHealthDays"> },
  c: ReportsCommand,
): Promise<string> {
  if (c.kind === "list") return problemsTable(deps.db, deps.config.chatWebhookUrl, deps.clock.now());
  if (c.kind === "versions") return versionsTable(deps);
  if (c.kind === "show") return problemDetail(deps.db, c.id, deps.clock.now());
  const action = c.kind === "resolve" ? "resolved" : c.kind === "reopen" ? "reopened" : "muted";
  const done = await applyAction(deps, c.id, action, "cli", c.kind === "resolve" ? c.version : undefined);
  const state = plainLine(stateText(done.problem));
  const chat =
    deps.config.chatWebhookUrl && done.changed && action !== "muted"
      ? "; the chat thread follows at the next outbox run"
      : "";
  return done.changed
    ? `problem #${c.id} is now ${state}${chat}\n`
    : `problem #${c.id} is already ${state}; nothing changed\n`;
}
