// What a problem looks like in the maintainers' chat: the thread's starter message (a summary the
// count edits keep current, and an embed with the first sample), and the replies at thresholds.
// User text is escaped (no markdown, no mention, no link mask takes effect), mentions are off in
// every message, and every part is cut to Discord's limits.
import type { ChatMessage, Embed } from "../upstream/chat.ts";
import type { Problem, ProblemEvent, Sample } from "./reports.query.ts";
import { plainLine, plainText } from "./plain-text.ts";
import { versionRange } from "./versions.ts";

export const LIMITS = {
  content: 2000,
  threadName: 100,
  embedTitle: 256,
  embedDescription: 4096,
  embedTotal: 6000,
} as const;
const NO_MENTIONS = { parse: [] as [] };

/** Cuts to `max` characters (code points), marking the cut. */
export function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** Markdown, mentions, masked links, headings and quotes shown as typed, not interpreted. */
export function escapeText(text: string): string {
  return plainText(text)
    .replace(/[\\*_~`|>#[\]()<@]/g, (c) => (c === "@" ? "@\u200b" : `\\${c}`))
    .replace(/^(\s*)([-+]) /gm, "$1\\$2 ")
    .replace(/^(\s*)(\d+)\. /gm, "$1$2\\. ")
    .replace(/https?:\/\//g, (m) => m.replace("//", "/\u200b/"));
}

/**
 * A code block whose body cannot close it: every run of backticks is broken (a zero-width space
 * after each backtick that another follows), so no two backticks in the body touch and no fence of
 * any length can form; cutting afterwards cannot join two again.
 */
export function codeBlock(text: string, max: number, lang = ""): string {
  const frame = 8 + lang.length; // ```lang\n ... \n```
  const body = plainText(text).replace(/`(?=`)/g, "`\u200b");
  return "```" + lang + "\n" + cut(body, Math.max(1, max - frame)) + "\n```";
}

const when = (ms: number, style: "f" | "R") => `<t:${Math.floor(ms / 1000)}:${style}>`;

/** The summary line the count edits keep current. */
export function starterContent(p: Problem): string {
  const lines = [
    `**Problem #${p.number}** · \`${p.tool}\` · **${p.count}** ${p.count === 1 ? "report" : "reports"} · mod ${escapeText(versionRange(p.minVersion, p.maxVersion))} · Minecraft ${escapeText(p.lastMinecraft)}`,
    `First seen ${when(p.firstSeenAt, "f")} · last seen ${when(p.lastSeenAt, "R")}`,
    p.exceptionType
      ? `\`${cut(p.exceptionType.replaceAll("`", ""), 200)}\``
      : `Grouped by message: \`${cut(p.signature.replaceAll("`", ""), 300)}\``,
  ];
  const state = stateLine(p);
  if (state) lines.push(state);
  return cut(lines.join("\n"), LIMITS.content);
}

function sampleEmbed(p: Problem, s: Sample): Embed {
  const parts: string[] = [];
  if (s.message) parts.push(`**What happened**\n${cut(escapeText(s.message), 1200)}`);
  if (s.steps) parts.push(`**Steps**\n${cut(escapeText(s.steps), 800)}`);
  const used = parts.join("\n\n").length + 2;
  const trace = s.stackTrace ?? (p.kind === "frames" ? p.signature : undefined);
  if (trace) parts.push(codeBlock(trace, Math.min(LIMITS.embedDescription - used, 3000), "java"));
  return {
    title: cut(escapeText(s.title), LIMITS.embedTitle),
    description: cut(parts.join("\n\n") || "(no details)", LIMITS.embedDescription),
    footer: { text: cut(`mod ${s.modVersion} · Minecraft ${s.minecraft}${s.loader ? ` · ${s.loader}` : ""}`, 200) },
  };
}

/** The problem's state as the summary shows it (nothing while open and never resolved). */
function stateLine(p: Problem): string | undefined {
  if (p.state === "resolved") return `Resolved in **${escapeText(p.resolvedIn ?? "?")}**`;
  if (p.state === "muted") return "Muted";
  if (p.regressedIn) return `Regression: back in **${escapeText(p.regressedIn)}**`;
  return undefined;
}

/**
 * The new thread: its name, the summary and the first sample; `continues` names the thread it
 * replaces (closed or locked by a maintainer), `uncertainSince` when an earlier creation got no
 * answer (that thread may exist: this one says so), `tags` the forum tags to apply.
 */
export function newThreadMessage(
  p: Problem,
  first: Sample,
  opts: { continues?: string; uncertainSince?: number; tags?: string[] } = {},
): ChatMessage & { thread_name: string } {
  const name = plainLine(`#${p.number} ${p.title}`);
  const before = opts.continues
    ? `Continues <#${opts.continues}>, which is closed.\n`
    : opts.uncertainSince !== undefined
      ? `The chat never answered an earlier post of this problem (${when(opts.uncertainSince, "f")}): if a thread named like this one exists, delete it; this one is kept up to date.\n`
      : "";
  const content = before ? cut(`${before}${starterContent(p)}`, LIMITS.content) : starterContent(p);
  return {
    thread_name: cut(name, LIMITS.threadName),
    content,
    embeds: [sampleEmbed(p, first)],
    ...(opts.tags?.length ? { applied_tags: opts.tags } : {}),
    allowed_mentions: NO_MENTIONS,
  };
}

/** The reply that announces a state change (a mute is never announced: nothing is posted while muted). */
export function stateReply(p: Problem, e: ProblemEvent, previousResolvedIn?: string | null): ChatMessage | undefined {
  const v = escapeText(e.version ?? "");
  let text: string;
  if (e.action === "resolved")
    text = `Resolved in **${v}**: reports from older versions are counted without reopening it.`;
  else if (e.action === "regressed") {
    text = `**Regression**: reported again from mod **${v}**${previousResolvedIn ? `, though resolved in **${escapeText(previousResolvedIn)}**` : ""}. Reopened (now **${p.count}** reports).`;
  } else if (e.action === "reopened") text = `Reopened by a maintainer (now **${p.count}** reports).`;
  else return undefined;
  return { content: cut(text, LIMITS.content), allowed_mentions: NO_MENTIONS };
}

/** A reply that unarchives a closed thread when the problem comes back (an edit alone is refused there). */
export function stillHappeningReply(p: Problem): ChatMessage {
  return {
    content: cut(
      `Still reported: now **${p.count}** reports · mod ${escapeText(versionRange(p.minVersion, p.maxVersion))} · last seen ${when(p.lastSeenAt, "R")}`,
      LIMITS.content,
    ),
    allowed_mentions: NO_MENTIONS,
  };
}

/** The starter message's edit when the count moves (its embed stays). */
export function starterEdit(p: Problem): Partial<ChatMessage> {
  return { content: starterContent(p), allowed_mentions: NO_MENTIONS };
}

/** The reply posted when the count passes a threshold. */
export function thresholdReply(p: Problem, threshold: number, latest: Sample | undefined): ChatMessage {
  const lines = [
    `Passed **${threshold}** reports (now **${p.count}**) · mod ${escapeText(versionRange(p.minVersion, p.maxVersion))} · last seen ${when(p.lastSeenAt, "R")}`,
  ];
  if (latest) {
    lines.push(
      `Latest: ${escapeText(latest.title)} (mod ${escapeText(latest.modVersion)}, Minecraft ${escapeText(latest.minecraft)})`,
    );
    if (latest.message) lines.push(escapeText(latest.message));
  }
  return { content: cut(lines.join("\n"), LIMITS.content), allowed_mentions: NO_MENTIONS };
}
