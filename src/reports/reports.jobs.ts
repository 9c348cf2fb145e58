// The bug-intake job: drain the chat outbox (only when a webhook is configured).
import type { Job } from "../job.ts";
import { drainChatOutbox, type ChatOutboxDeps } from "./chat-outbox.ts";

export function reportJobs(
  deps: ChatOutboxDeps & {
    config: ChatOutboxDeps["config"] & { jobReportsChatEnabled: boolean; jobReportsChatIntervalMs: number };
  },
): Job[] {
  return [
    {
      name: "reports.chat",
      enabled: deps.config.jobReportsChatEnabled && deps.config.chatWebhookUrl !== "",
      intervalMs: deps.config.jobReportsChatIntervalMs,
      run: (signal) => drainChatOutbox(deps, signal),
    },
  ];
}
