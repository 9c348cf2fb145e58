// `tally serve`: the catalogue and boards loaded, the database connected and migrated, the app
// listening, the jobs started; one log line when it listens and one naming what is switched off;
// on SIGTERM or SIGINT, requests drain and jobs finish their step before the database closes.
import type { Config } from "../config.ts";
import type { Log } from "../log.ts";
import { systemClock } from "../clock.ts";
import { connect } from "../db/connect.ts";
import { migrate, markCreated } from "../db/migrate.ts";
import { loadCatalogue } from "../catalogue/load.ts";
import { loadBoards } from "../boards/definitions.ts";
import { createApp, pageLifetimes } from "../app.ts";
import { createMetrics, countedFetch } from "../metrics/metrics.ts";
import { listen, type Listening } from "../http/serve.ts";
import { VERSION } from "../version.ts";
import { createScheduler, type Scheduler } from "../jobs/scheduler.ts";
import { jobLockFor, jobLocksHeld } from "../jobs/job-lock.ts";
import { serviceJobs } from "../jobs/jobs.ts";
import { openToOthers } from "../db/private-files.ts";
import { capabilities } from "../capabilities.ts";
import type { MainOptions } from "./options.ts";

/** Bun's transport ceiling on a request body, as a multiple of MAX_BODY_BYTES (docs/decisions.md). */
const TRANSPORT_CEILING_FACTOR = 4;

function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string) => () => resolve(signal);
    process.once("SIGTERM", on("SIGTERM"));
    process.once("SIGINT", on("SIGINT"));
  });
}

export async function serve(config: Config, log: Log, options: MainOptions): Promise<number> {
  const started = performance.now();
  if (config.devSignin)
    log.warn("DEV_SIGNIN is on: anyone can sign in as anyone through POST /v1/auth/dev. Never use it in production.");
  const phases: Record<string, number> = { process: Math.round(started) };
  const mark = (phase: string, since: number) => (phases[phase] = Math.round(performance.now() - since));
  let t = performance.now();
  const catalogue = await loadCatalogue(config.catalogueFile);
  const boards = await loadBoards(config.boardsFile, catalogue);
  mark("catalogue", t);
  t = performance.now();
  // The embedded database opens in the background (its wasm compiles on another thread) while the
  // app is built; statements, the migrations first, wait for it.
  const database = await connect(config, { ...options, inBackground: true });
  mark("connect", t);
  let listening: Listening;
  let scheduler: Scheduler | undefined;
  const stopping = new AbortController();
  try {
    if (database.kind === "embedded") {
      const open = openToOthers(config.dataDir);
      if (open) log.warn(open);
    }
    t = performance.now();
    const metrics = createMetrics();
    const upstreams = {
      game_api: config.gameApiUrl,
      identity: config.identityUrl,
      names: config.namesUrl,
      textures: config.texturesUrl,
      item_images: config.itemImagesUrl,
      chat: config.chatWebhookUrl,
    };
    const deps = {
      db: database.db,
      config,
      clock: systemClock,
      fetch: countedFetch(globalThis.fetch, metrics, upstreams),
      log,
      catalogue,
      boards,
      metrics,
      backup: database.backup,
      stopping: stopping.signal,
      // One memo for the pages and the jobs that tell it what they wrote.
      lifetimes: pageLifetimes({ db: database.db, config, clock: systemClock }),
    };
    const app = createApp(deps);
    mark("app", t);
    t = performance.now();
    await database.opened;
    mark("database", t);
    t = performance.now();
    const applied = await migrate(database.db);
    await markCreated(database.db, systemClock);
    mark("migrate", t);
    if (applied.length) log.info("migrations applied", { applied });
    t = performance.now();
    listening = listen(app, {
      host: config.host,
      port: config.port,
      graceMs: config.shutdownGraceMs,
      log,
      // Bun's own refusal (an empty 413, before any handler) only for bodies far over the cap, so a body
      // just over it still gets the coded 413 body_too_large from the route's reader.
      maxBodyBytes: Math.max(config.maxBodyBytes * TRANSPORT_CEILING_FACTOR, config.importMaxWireBytes),
    });
    scheduler = createScheduler({
      log,
      lock: jobLockFor(database.kind, database.db, jobLocksHeld(config.databasePoolMax)),
      jobs: serviceJobs(deps),
      metrics,
      startDelayMs: config.jobStartDelayMs,
    });
    mark("listen", t);
    log.info("listening", {
      url: listening.url,
      database: database.kind,
      where: database.where,
      catalogueVersion: catalogue.version,
      version: VERSION,
      startupMs: Math.round(performance.now()),
      phasesMs: phases,
    });
    logSwitchedOff(config, log);
    options.onListening?.(listening.url);
    scheduler.start();
  } catch (e) {
    await scheduler?.stop();
    await database.close();
    throw e;
  }
  const reason = String(await (options.stopSignal ?? waitForSignal()));
  // Work waiting its turn (page renders) is refused from now on; what runs finishes within the grace.
  stopping.abort();
  // Jobs finish their current step while requests drain; the database closes after both.
  await Promise.all([listening.stop(reason), scheduler.stop()]);
  await database.close((reason) => log.warn("database left for recovery at the next start", { reason }));
  log.info("stopped");
  return 0;
}

/** One line naming each optional capability that is off and the setting that turns it on. */
function logSwitchedOff(config: Config, log: Log) {
  const off = capabilities(config).filter((c) => !c.on);
  if (!off.length) return log.info("nothing optional is switched off");
  log.info(`switched off: ${off.map((c) => `${c.name} (${c.turnOn})`).join("; ")}`, {
    off: off.map(({ name, turnOn, whileOff }) => ({ name, turnOn, whileOff })),
  });
}
