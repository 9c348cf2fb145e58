// The bug-intake jobs: drain the chat outbox (only when a webhook is configured); count release
// health (the day's installs per mod version, their ids deleted once counted) and post its summaries.
import type { Job } from "../job.ts";
import { drainChatOutbox, type ChatOutboxDeps } from "./chat-outbox.ts";
import { foldReleaseHealth } from "./release-health.ts";
import { postReleaseSummaries, type SummaryDeps } from "./release-summary.ts";

export function reportJobs(
  deps: ChatOutboxDeps &
    SummaryDeps & {
      config: ChatOutboxDeps["config"] &
        SummaryDeps["config"] & {
          jobReportsChatEnabled: boolean;
          jobReportsChatIntervalMs: number;
          jobReleaseHealthEnabled: boolean;
          jobReleaseHealthIntervalMs: number;
        };
    },
): Job[] {
  return [
    {
      name: "reports.chat",
      enabled: deps.config.jobReportsChatEnabled && deps.config.chatWebhookUrl !== "",
      intervalMs: deps.config.jobReportsChatIntervalMs,
      run: (signal) => drainChatOutbox(deps, signal),
    },
    {
      name: "reports.release-health",
      enabled: deps.config.jobReleaseHealthEnabled,
      intervalMs: deps.config.jobReleaseHealthIntervalMs,
      run: async (signal) => ({ ...(await foldReleaseHealth(deps)), ...(await postReleaseSummaries(deps, signal)) }),
    },
  ];
}
