// POST /u/<name>/headline: the owner's page chooses its headline figures (issue 34), the same change
// as PATCH /v1/stats/settings { headlineKeys }. Only the page's owner, through the page cookie (its
// Path is /u/<name>, SameSite=Lax: a cross-site form post never carries it), and only from a page of
// this service (the Origin, or without one Sec-Fetch-Site, says so). Anyone else gets the page that
// does not exist. Answers 303 back to the page's headline.
import { Elysia } from "elysia";
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { changeSettings, type SettingsDeps } from "../accounts/settings.ts";
import { HEADLINE_KEYS } from "../accounts/settings.schema.ts";
import { ApiError } from "../http/errors.ts";
import { readForm } from "../http/body.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import { sameOrigin } from "../http/same-origin.ts";
import { htmlPage } from "./respond.ts";
import { sync } from "./layout.tsx";
import { NotFoundPage } from "./not-found.tsx";
import { pageOwner } from "./page-cookie.ts";

export type HeadlineRouteDeps = {
  db: Db;
  clock: Clock;
  catalogue: Catalogue;
  heldKeys: SettingsDeps["heldKeys"];
  config: Pick<Config, "baseUrl" | "pageRateLimit" | "trustProxy" | "retentionOptionsDays">;
};

/** The form's chosen keys in order: fields key1..key4, empty ones (left to activity) and repeats left out. */
export function formKeys(form: Record<string, string>): string[] {
  const keys: string[] = [];
  for (let i = 1; i <= HEADLINE_KEYS; i++) {
    const key = (form[`key${i}`] ?? "").trim();
    if (key !== "" && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

export function headlineRoutes(deps: HeadlineRouteDeps) {
  const limit = { name: "pages", perWindow: deps.config.pageRateLimit, windowMs: 60_000 };
  const notFound = (request: Request) =>
    htmlPage(request, sync(NotFoundPage()), { status: 404, cacheControl: "no-store" });
  /** The page's owner, before the body is read: anyone else is answered the missing page. */
  const ownerOf = (request: Request, name: string) => pageOwner(deps, request, name);
  return new Elysia({ name: "tally.web.headline" }).post(
    "/u/:name/headline",
    async ({ params, request, body }) => {
      const own = await ownerOf(request, params.name);
      if (!own) return notFound(request);
      if (!sameOrigin(request, deps.config.baseUrl))
        throw new ApiError("csrf_failed", "this form did not come from your page; open the page again");
      const form = (body ?? {}) as Record<string, string>;
      const headlineKeys = formKeys(form);
      // The form changes the headline only: it applies over whatever version the settings are at.
      await changeSettings(
        { db: deps.db, catalogue: deps.catalogue, clock: deps.clock, config: deps.config, heldKeys: deps.heldKeys },
        own.uuid,
        { settingsVersion: own.settingsVersion, headlineKeys },
      );
      return new Response(null, {
        status: 303,
        headers: { location: `/u/${encodeURIComponent(own.name)}#headline`, "cache-control": "no-store" },
      });
    },
    {
      detail: { hide: true },
      // The address's page limit, then the owner (before any of the body is read), then the form.
      transform: [
        async ({ request, server }) => {
          await enforceRateLimit(deps, limit, clientAddress(request, server, deps.config.trustProxy));
        },
        async ({ request, params }) => {
          if (!(await ownerOf(request, params.name))) throw new ApiError("not_found", "no such page");
        },
        readForm(),
      ],
    },
  );
}
