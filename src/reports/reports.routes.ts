// POST /v1/reports/<tool>: a bug report from the mod, sent after the user read and confirmed it.
// Rate limited per client address; the body has its own size cap; an unknown tool answers 404.
import { Elysia } from "elysia";
import { validBody } from "../http/valid-body.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Log } from "../log.ts";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { cachedPseudonymKey } from "../privacy/pseudonym.ts";
import { receiveReport, requireTool } from "./intake.ts";
import { ReportAnswer, ReportBody, ReportParams } from "./reports.schema.ts";
import { refuses } from "../http/route-detail.ts";
import type { ItemNames } from "../items/item-names.ts";
import { accountNamesAmong } from "../accounts/accounts.ts";
import { cachedNamesAmong } from "../profiles/caches.ts";

const HOUR_MS = 3_600_000;

export function reportRoutes(deps: { db: Db; clock: Clock; config: Config; items?: ItemNames }) {
  const limit = { name: "reports", perWindow: deps.config.reportRateLimit, windowMs: HOUR_MS };
  // The item names' words are the game's own: the scrubber's fallback keeps them (issue 36).
  const items = deps.items;
  const gameWords = items ? async () => (await items.current(), items.words()) : undefined;
  // The names this instance knows are players' (issue 36): its accounts' and the name cache's.
  const knownPlayers = async (lowerWords: string[]) =>
    new Set([...(await accountNamesAmong(deps.db, lowerWords)), ...(await cachedNamesAmong(deps.db, lowerWords))]);
  const intake = { ...deps, pseudonymKey: cachedPseudonymKey(deps), gameWords, knownPlayers };
  return new Elysia({ name: "tally.reports" })
    .onTransform(async ({ request, server, params }) => {
      await enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
      const tool = (params as { tool?: unknown } | undefined)?.tool;
      if (typeof tool === "string") requireTool(deps.config, tool);
    })
    .post(
      "/v1/reports/:tool",
      (ctx) => receiveReport(intake, ctx.params.tool, ctx.body, (ctx as unknown as { log?: Log }).log),
      {
        params: ReportParams,
        body: ReportBody,
        // Read only now, after the rate limit and the tool check, under the report cap.
        transform: validBody(ReportBody, deps.config.reportMaxBodyBytes),
        response: ReportAnswer,
        detail: {
          tags: ["reports"],
          summary: "A bug report: scrubbed, grouped into a problem, counted; answers the problem and its count",
          ...refuses("rate_limited", "unsupported_schema"),
        },
      },
    );
}
