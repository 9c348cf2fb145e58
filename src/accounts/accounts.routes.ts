// Signed-in routes of the account under /v1/stats/: settings, status, page token, share link.
import { Elysia } from "elysia";
import { validBody } from "../http/valid-body.ts";
import { authGuard } from "../http/auth-guard.ts";
import { changeSettings, requireAccount, settingsDocument, type SettingsDeps } from "./settings.ts";
import { SettingsChangeBody, SettingsDocument } from "./settings.schema.ts";
import { pageToken, rotateShare, status, stopSharing, type MeDeps } from "./me.ts";
import { EmptyBody, PageTokenAnswer, ShareAnswer, StatusAnswer } from "./accounts.schema.ts";

export function accountRoutes(deps: SettingsDeps & MeDeps) {
  const tags = ["account"];
  return new Elysia({ name: "tally.accounts" })
    .use(authGuard(deps))
    .get("/v1/stats/settings", async ({ signedIn }) => settingsDocument(await requireAccount(deps.db, signedIn.uuid), deps), {
      response: SettingsDocument,
      detail: { tags, summary: "The settings document" },
    })
    .patch("/v1/stats/settings", ({ signedIn, body }) => changeSettings(deps, signedIn.uuid, body), {
      body: SettingsChangeBody,
      transform: validBody(SettingsChangeBody),
      response: SettingsDocument,
      detail: { tags, summary: "Change settings; a stale settingsVersion answers 409 with the current document under `settings`" },
    })
    .get("/v1/stats/me/status", ({ signedIn }) => status(deps, signedIn.uuid), {
      response: StatusAnswer,
      detail: { tags, summary: "What the mod's status screen shows" },
    })
    .post("/v1/stats/me/page-token", ({ signedIn }) => pageToken(deps, signedIn.uuid), {
      body: EmptyBody,
      transform: validBody(EmptyBody),
      response: PageTokenAnswer,
      detail: { tags, summary: "A short-lived link that opens the player's own statistics page" },
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
