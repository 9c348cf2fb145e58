// The recaps of the signed-in account for the mod (a device session): which are stored, and sharing
// one (its own link, /r/<key>) or stopping. The same actions as the owner's form on the page.
import { Elysia } from "elysia";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { authGuard } from "../auth/auth-guard.ts";
import { ApiError } from "../http/errors.ts";
import { refuses } from "../http/route-detail.ts";
import { recapPeriods, revokeRecap, shareRecap } from "./recaps.ts";
import { RecapList, RecapParams, RecapShare } from "./recaps.schema.ts";

export function recapRoutes(deps: { db: Db; clock: Clock; config: Pick<Config, "baseUrl"> }) {
  const tags = ["stats"];
  const link = (key: string | null) => (key ? `${deps.config.baseUrl}/r/${key}` : null);
  const missing = () => new ApiError("not_found", "no recap of this period: it is made once the period has closed");
  return new Elysia({ name: "tally.recaps" })
    .use(authGuard(deps))
    .get(
      "/v1/stats/recaps",
      async ({ signedIn }) => ({
        recaps: (await recapPeriods(deps.db, signedIn.uuid)).map((r) => ({
          period: r.period,
          shareUrl: link(r.shareKey),
        })),
      }),
      {
        response: RecapList,
        detail: { tags, summary: "The account's stored recaps (months and years), newest first" },
      },
    )
    .post(
      "/v1/stats/recaps/:period/share",
      async ({ signedIn, params }) => {
        const key = await shareRecap(deps.db, signedIn.uuid, params.period);
        if (!key) throw missing();
        return { period: params.period, shareUrl: link(key) };
      },
      {
        params: RecapParams,
        response: RecapShare,
        detail: { tags, summary: "Share one recap under a new link of its own", ...refuses("not_found") },
      },
    )
    .delete(
      "/v1/stats/recaps/:period/share",
      async ({ signedIn, params }) => {
        if (!(await revokeRecap(deps.db, signedIn.uuid, params.period))) throw missing();
        return { period: params.period, shareUrl: null };
      },
      {
        params: RecapParams,
        response: RecapShare,
        detail: { tags, summary: "Stop sharing one recap: its link stops working", ...refuses("not_found") },
      },
    );
}
