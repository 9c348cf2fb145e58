// The composition root: createApp(deps) builds the whole service as one Elysia app from its
// modules. It never listens (main.ts does), so tests drive it with app.handle().
import { Elysia } from "elysia";
import type { Config } from "./config.ts";
import type { Clock } from "./clock.ts";
import type { Log } from "./log.ts";
import { isEmbedded, type Db } from "./db/database.ts";
import type { Catalogue } from "./catalogue/catalogue.ts";
import { VERSION } from "./version.ts";
import { requestLog } from "./http/request-log.ts";
import { metricsRoutes } from "./metrics/metrics.routes.ts";
import { backupRoutes } from "./db/backup.routes.ts";
import type { Metrics } from "./metrics/metrics.ts";
import { onErrorPlugin } from "./http/on-error.ts";
import { bodyReader } from "./http/body.ts";
import { openapiDocument } from "./http/openapi.ts";
import { healthRoutes } from "./health/health.routes.ts";
import { catalogueRoutes } from "./catalogue/catalogue.routes.ts";
import { authRoutes } from "./auth/auth.routes.ts";
import { sessionRoutes } from "./auth/sessions.routes.ts";
import { accountRoutes } from "./accounts/accounts.routes.ts";
import { authenticate } from "./auth/sessions.ts";
import { ingestRoutes } from "./stats/ingest.routes.ts";
import { foldRoutes } from "./stats/fold.routes.ts";
import { periodRoutes } from "./stats/periods.routes.ts";
import { exportEraseRoutes } from "./stats/export-erase.routes.ts";
import { importRoutes } from "./stats/import.routes.ts";
import { exportGate } from "./stats/export-gate.ts";
import { tokenRoutes } from "./tokens/tokens.routes.ts";
import { profileRoutes } from "./profiles/profiles.routes.ts";
import { assetRoutes } from "./assets/assets.routes.ts";
import { reportRoutes } from "./reports/reports.routes.ts";
import { reportAdminRoutes } from "./reports/admin.routes.tsx";
import { siteRoutes } from "./web/site.routes.tsx";
import { profilePageRoutes } from "./web/profile.routes.tsx";
import { statsPageRoutes } from "./web/stats.routes.tsx";
import { tokenPageRoutes } from "./web/tokens-page.routes.tsx";
import { headlineRoutes } from "./web/headline.routes.ts";
import { publicPageRoutes } from "./web/public-page.routes.ts";
import { pageCache } from "./web/page-cache.ts";
import { recapPageRoutes } from "./web/recap.routes.tsx";
import { recapRoutes } from "./recaps/recaps.routes.ts";
import { lifetimeMemo, type LifetimeMemo } from "./stats/lifetime-memo.ts";
import { workGate } from "./http/work-gate.ts";
import { cardRoutes } from "./cards/cards.routes.ts";
import type { OpenApiDocument } from "./web/api-schema.ts";
import { errorPageResponse } from "./web/error-page.ts";
import { itemNames } from "./items/item-names.ts";
import { heldKeys } from "./stats/key-cap.ts";
import { listProfiles } from "./stats/fold.ts";
import { ACCOUNT_PROFILE } from "./wire/envelope.ts";
import { builtInBoards, type Boards } from "./boards/definitions.ts";
import { boardRoutes } from "./boards/boards.routes.ts";
import { groupRoutes } from "./boards/groups.routes.ts";
import { scoresAfterUpload } from "./boards/scores.ts";
import { leaveBoards } from "./boards/membership.ts";
import { boardsPortable } from "./boards/portable.ts";
import { boardPageRoutes } from "./web/boards.routes.tsx";
import { groupPageRoutes } from "./web/groups.routes.tsx";

export type AppDeps = {
  db: Db;
  config: Config;
  clock: Clock;
  /** Every upstream call goes through this (tests pass one that only reaches fakes). */
  fetch: typeof fetch;
  log: Log;
  catalogue: Catalogue;
  metrics: Metrics;
  /** Aborted when the service starts stopping: work waiting its turn is refused rather than started. */
  stopping?: AbortSignal;
  /** The embedded database's dump (absent on Postgres). */
  backup?: () => Promise<Blob>;
  /** The boards ranked (main.ts loads BOARDS_FILE; absent: the built-in set). */
  boards?: Boards;
  /** The pages' memo of lifetime figures, shared with the jobs that tell it what they wrote (absent: pageLifetimes). */
  lifetimes?: LifetimeMemo;
};

/**
 * Every key's lifetime figure, kept between renders of one account's pages and cards (issue 40).
 * On the embedded database every write is this process's: uploads, imports, erasures and retention
 * say what they wrote, and a set is read again in part (lifetime-memo.ts).
 */
export const pageLifetimes = (deps: Pick<AppDeps, "config" | "clock" | "db">) =>
  lifetimeMemo({
    maxFigures: deps.config.pageLifetimeFigures,
    ttlMs: deps.config.pageLifetimeMemoTtlMs,
    clock: deps.clock,
    incremental: isEmbedded(deps.db),
    snapshotMinKeys: deps.config.pageLifetimeSnapshotMinKeys,
  });

export function createApp(deps: AppDeps) {
  // GET /v1/openapi.json and the API reference page describe the routes as built (http/openapi.ts),
  // once, on first use (every route is registered by then).
  let described: object | undefined;
  const describe = (): object =>
    (described ??= openapiDocument(app.routes, {
      title: "tally",
      version: VERSION,
      description:
        'Statistics service of the mod: the wire contract\'s endpoints. Refusals answer `{ "error": { "code", "message", "path"? } }`.',
    }));
  const openapiJson = async () => describe() as OpenApiDocument;
  // One gate for every route that streams an export (the API's and the owner's CSV on the page).
  const exports = exportGate(deps.config.exportsMaxRunning);
  const lifetimes = deps.lifetimes ?? pageLifetimes(deps);
  const wrote = lifetimes.wrote;
  const renders = workGate({
    atOnce: deps.config.pageRendersAtOnce,
    queue: deps.config.pageRenderQueue,
    stopping: deps.stopping,
  });
  // The pages others see, kept a short while: the statistics pages and their public figures (issue 37).
  const pages = pageCache(deps, { ttlMs: deps.config.pageCacheTtlMs, maxBytes: deps.config.pageCacheMaxBytes });
  // This instance's copy of the game's item names (the items.refresh job stores the list).
  const items = itemNames(deps);
  // Which chosen headline keys an account has recorded (stats', handed down to accounts).
  const recordedKeys = async (uuid: string, keys: string[]) => {
    const profiles = await listProfiles(deps.db, uuid);
    return heldKeys(deps.db, uuid, [...profiles.map((p) => p.id), ACCOUNT_PROFILE], keys);
  };
  // The boards: their definitions, and their scores kept after each upload and import (stats calls back, so it imports nothing of boards).
  const boards = deps.boards ?? builtInBoards(deps.catalogue);
  const afterUpload = (upload: Parameters<typeof scoresAfterUpload>[1]) =>
    scoresAfterUpload({ ...deps, boards, refreshMs: deps.config.boardsRefreshMs }, upload);
  // The boards' part of the account's export and import (its opt-ins and groups).
  const boardsPart = boardsPortable(boards);
  // The boards' API and pages, with their player groups, as one plugin (one link of the app's chain).
  const boardsPlugins = new Elysia({ name: "tally.boards.plugins" })
    .use(boardRoutes({ ...deps, boards }))
    .use(groupRoutes({ ...deps, boards }))
    .use(boardPageRoutes({ ...deps, boards }))
    .use(groupPageRoutes({ ...deps, boards }));
  const app = new Elysia({ normalize: false })
    .use(requestLog(deps.log, deps.metrics, deps.config.trustProxy))
    .use(onErrorPlugin(deps.log, errorPageResponse, () => deps.clock.now()))
    .use(bodyReader(deps.config))
    .get("/v1/openapi.json", () => describe(), { detail: { hide: true } })
    .use(healthRoutes({ db: deps.db, log: deps.log, version: VERSION, catalogueVersion: deps.catalogue.version }))
    .use(catalogueRoutes(deps.catalogue))
    .use(authRoutes(deps))
    .use(sessionRoutes(deps))
    .use(
      accountRoutes({
        ...deps,
        authenticate: (authorization) => authenticate(deps, authorization),
        heldKeys: recordedKeys,
      }),
    )
    .use(ingestRoutes({ ...deps, afterUpload, wrote }))
    .use(foldRoutes({ ...deps, items }))
    .use(periodRoutes({ ...deps, items }))
    .use(recapRoutes(deps))
    .use(
      exportEraseRoutes({
        ...deps,
        exports,
        boardsPart: boardsPart.export,
        eraseAlso: (tx, uuid, what) => {
          wrote(uuid, null);
          return leaveBoards(tx, uuid, what);
        },
      }),
    )
    .use(tokenRoutes(deps))
    .use(importRoutes({ ...deps, afterUpload, wrote, boardsPart }))
    .use(profileRoutes(deps))
    .use(assetRoutes(deps))
    .use(reportRoutes({ ...deps, items }))
    .use(metricsRoutes(deps))
    .use(backupRoutes(deps))
    .use(reportAdminRoutes({ ...deps, boards }))
    .use(siteRoutes({ openapi: openapiJson }))
    .use(profilePageRoutes(deps))
    .use(statsPageRoutes({ ...deps, exports, lifetimes, renders, items, pages }))
    .use(publicPageRoutes({ ...deps, lifetimes, renders, items, pages }))
    .use(headlineRoutes({ ...deps, heldKeys: recordedKeys }))
    .use(tokenPageRoutes(deps))
    .use(cardRoutes({ ...deps, lifetimes, renders, items, boards }))
    .use(recapPageRoutes({ ...deps, renders, items, boards }))
    .use(boardsPlugins);
  return app;
}

export type App = ReturnType<typeof createApp>;
