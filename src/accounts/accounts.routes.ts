// Signed-in routes of the account under /v1/stats/: settings, status, page token, share link.
import { Elysia } from "elysia";
import { validBody } from "../http/valid-body.ts";
import { signedInGuard, type Authenticate } from "../http/signed-in.ts";
import { changeSettings, settingsDocument, type SettingsDeps } from "./settings.ts";
import { requireAccount } from "./accounts.ts";
import { SettingsChangeBody, SettingsDocument } from "./settings.schema.ts";
import { pageToken, rotateShare, status, stopSharing, type MeDeps } from "./me.ts";
import { EmptyBody, PageTokenAnswer, ShareAnswer, StatusAnswer } from "./accounts.schema.ts";
import { refuses } from "../http/route-detail.ts";

/**
 * `authenticate` is auth's token check, handed in by createApp: auth builds on accounts (a session
 * belongs to an account, sign-in creates it), so accounts imports nothing from auth.
 */
export function accountRoutes(deps: SettingsDeps & MeDeps & { authenticate: Authenticate }) {
  const tags = ["account"];
  return new Elysia({ name: "tally.accounts" })
    .use(signedInGuard(deps.authenticate))
    .get(
      "/v1/stats/settings",
      async ({ signedIn }) => settingsDocument(await requireAccount(deps.db, signedIn.uuid), deps),
      {
        response: SettingsDocument,
        detail: { tags, summary: "The settings document" },
      },
    )
    .patch("/v1/stats/settings", ({ signedIn, body }) => changeSettings(deps, signedIn.uuid, body), {
      body: SettingsChangeBody,
      transform: validBody(SettingsChangeBody),
      response: SettingsDocument,
      detail: {
        tags,
        summary: "Change settings; a stale settingsVersion answers 409 with the current document under `settings`",
        ...refuses(
          "conflict",
          "unknown_category",
          "unknown_zone",
          "zone_change_too_soon",
          "invalid_retention",
          "unknown_headline_key",
          {
            conflict: { settings: SettingsDocument },
          },
        ),
      },
    })
    .get("/v1/stats/me/status", ({ signedIn }) => status(deps, signedIn.uuid), {
      response: StatusAnswer,
      detail: { tags, summary: "What the mod's status screen shows" },
    })
    .post("/v1/stats/me/page-token", ({ signedIn }) => pageToken(deps, signedIn), {
      body: EmptyBody,
      transform: validBody(EmptyBody),
      response: PageTokenAnswer,
      detail: { tags, summary: "A short-lived, single-use link that opens the player's own statistics page" },
    })
    .post("/v1/stats/share/rotate", ({ signedIn }) => rotateShare(deps, signedIn.uuid), {
      body: EmptyBody,
      transform: validBody(EmptyBody),
      response: ShareAnswer,
      detail: { tags, summary: "Create or replace the share link; the old one stops working at once" },
    })
    .delete("/v1/stats/share", ({ signedIn }) => stopSharing(deps, signedIn.uuid), {
      response: ShareAnswer,
      detail: { tags, summary: "Stop sharing: the share link stops working" },
    });
}
