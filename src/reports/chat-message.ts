// What a problem looks like in the maintainers' chat: the thread's starter message (a summary the
// count edits keep current, and an embed with the first sample), and the replies at thresholds.
// User text is escaped (no markdown, no mention, no link mask takes effect), mentions are off in
// every message, and every part is cut to Discord's limits.
import type { ChatMessage, Embed } from "../upstream/chat.ts";
import type { Problem, Sample } from "./reports.query.ts";
import { versionRange } from "./versions.ts";

export const LIMITS = { content: 2000, threadName: 100, embedTitle: 256, embedDescription: 4096, embedTotal: 6000 } as const;
const NO_MENTIONS = { parse: [] as [] };

/** Cuts to `max` characters (code points), marking the cut. */
export function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** Markdown, mentions, masked links, headings and quotes shown as typed, not interpreted. */
export function escapeText(text: string): string {
  return text
    .replace(/[\\*_~`|>#[\]()<@]/g, (c) => (c === "@" ? "@\u200b" : `\\${c}`))
    .replace(/^(\s*)([-+]) /gm, "$1\\$2 ")
    .replace(/^(\s*)(\d+)\. /gm, "$1$2\\. ")
    .replace(/https?:\/\//g, (m) => m.replace("//", "/\u200b/"));
}

/** A code block whose body cannot close it early. */
export function codeBlock(text: string, max: number, lang = ""): string {
  const frame = 8 + lang.length; // ```lang\n ... \n```
  return "```" + lang + "\n" + cut(text.replaceAll("```", "`\u200b``"), Math.max(1, max - frame)) + "\n```";
}

const when = (ms: number, style: "f" | "R") => `<t:${Math.floor(ms / 1000)}:${style}>`;

/** The summary line the count edits keep current. */
export function starterContent(p: Problem): string {
  const lines = [
    `**Problem #${p.id}** · \`${p.tool}\` · **${p.count}** ${p.count === 1 ? "report" : "reports"} · mod ${escapeText(versionRange(p.minVersion, p.maxVersion))} · Minecraft ${escapeText(p.lastMinecraft)}`,
    `First seen ${when(p.firstSeenAt, "f")} · last seen ${when(p.lastSeenAt, "R")}`,
    p.exceptionType ? `\`${cut(p.exceptionType.replaceAll("`", ""), 200)}\`` : `Grouped by message: \`${cut(p.signature.replaceAll("`", ""), 300)}\``,
  ];
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

/** The new thread: its name, the summary and the first sample. */
export function newThreadMessage(p: Problem, first: Sample): ChatMessage & { thread_name: string } {
  const name = `#${p.id} ${p.title}`.replace(/\s+/g, " ").trim();
  return { thread_name: cut(name, LIMITS.threadName), content: starterContent(p), embeds: [sampleEmbed(p, first)], allowed_mentions: NO_MENTIONS };
}

/** The starter message's edit when the count moves (its embed stays). */
export function starterEdit(p: Problem): Partial<ChatMessage> {
  return { content: starterContent(p), allowed_mentions: NO_MENTIONS };
}

/** The reply posted when the count passes a threshold. */
export function thresholdReply(p: Problem, threshold: number, latest: Sample | undefined): ChatMessage {
  const lines = [`Passed **${threshold}** reports (now **${p.count}**) · mod ${escapeText(versionRange(p.minVersion, p.maxVersion))} · last seen ${when(p.lastSeenAt, "R")}`];
  if (latest) {
    lines.push(`Latest: ${escapeText(latest.title)} (mod ${escapeText(latest.modVersion)}, Minecraft ${escapeText(latest.minecraft)})`);
    if (latest.message) lines.push(escapeText(latest.message));
  }
  return { content: cut(lines.join("\n"), LIMITS.content), allowed_mentions: NO_MENTIONS };
}
